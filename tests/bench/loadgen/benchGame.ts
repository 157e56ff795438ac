/**
 * A started 4-player match with its room schema, outside any server, for the benchmarks that
 * time one part of a turn's path (`mirrorCost.ts`, `../syscallCost.ts`): seeded random turns, the
 * room's `mirror` into the schema, and the patch's encoding, each callable on its own.
 */
import { Encoder } from '@colyseus/schema';
import { randomTurn } from '../../../shared/src/index.js';
import { type Accepted, Match } from '../../../server/src/match/match.js';
import { Connections } from '../../../server/src/table/connections.js';
import { Mirror } from '../../../server/src/rooms/mirror.js';
import { parseRoomConfig } from '../../../server/src/match/config.js';
import { DjambiState } from '../../../server/src/rooms/schema.js';

export interface BenchGame {
  /** Plays one random turn; its outcome, or null once the game is over. */
  step(random: () => number): Accepted | null;
  /** Mirrors the match into the schema, as the room does on commit. */
  mirror(): void;
  /** Encodes the patch since the last one; its size in bytes. */
  patchBytes(): number;
}

/** Four seated, connected players, the game started and mirrored once. */
export function benchGame(): BenchGame {
  const parsed = parseRoomConfig({ rules: { players: 4 } }, { graceSeconds: 20, idleSeconds: 600 });
  if (!parsed.ok) throw new Error(parsed.message);
  const match = new Match(parsed.value);
  const links = new Connections(['R', 'B', 'Y', 'G']);
  let now = 1_000_000;
  for (let i = 0; i < 4; i++) {
    const out = match.apply({ type: 'take_seat', name: `p${i}` }, now);
    if (!out.ok || !out.seat) throw new Error('seat refused');
    links.connect(out.seat.colour, `s${i}`, out.seat.key, now);
  }
  const start = match.apply({ type: 'start', colour: 'R', creatorConnected: true }, now);
  if (!start.ok) throw new Error('start refused');
  const state = new DjambiState();
  const encoder = new Encoder(state);
  const model = () => ({ code: 'BENCH1', match, links, spectators: 2 });
  const mirror = new Mirror(state);
  mirror.write(model());
  encoder.discardChanges();
  return {
    step(random) {
      if (match.phase !== 'playing') return null;
      const out = match.apply({ type: 'turn', colour: match.position.toMove, turn: randomTurn(match.position, random) }, (now += 1000));
      if (!out.ok) throw new Error(`turn refused: ${out.rejection.code}`);
      return out;
    },
    mirror: () => mirror.write(model()),
    patchBytes: () => {
      const bytes = encoder.encode().byteLength;
      encoder.discardChanges();
      return bytes;
    },
  };
}
