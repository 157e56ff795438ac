/**
 * Cost of `mirror` per accepted turn, without a server: a 4-player match plays seeded random
 * turns and the room model is mirrored into a schema after each, as the room does on commit.
 * Prints the median and mean µs per mirror (the median resists a busy machine) and the patch
 * bytes per turn.
 *
 *   TSX_TSCONFIG_PATH=tests/bench/server-tsconfig.json node --import tsx tests/bench/loadgen/mirrorCost.ts [--turns 2000] [--json]
 */
import { Encoder } from '@colyseus/schema';
import { randomTurn } from '../../../shared/src/index.js';
import { Match } from '../../../server/src/match/match.js';
import { Connections } from '../../../server/src/rooms/connections.js';
import { mirror } from '../../../server/src/rooms/mirror.js';
import { parseRoomConfig } from '../../../server/src/rooms/options.js';
import { DjambiState } from '../../../server/src/rooms/schema.js';
import { seeded } from '../../support/random.js';

const args = process.argv.slice(2);
const turnsWanted = Number(args[args.indexOf('--turns') + 1]) || 2000;
const json = args.includes('--json');

function game() {
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
  mirror(model(), state);
  encoder.discardChanges();
  return {
    /** Plays one random turn; false once the game is over. */
    step(random: () => number): boolean {
      if (match.phase !== 'playing') return false;
      const colour = match.position.toMove;
      const out = match.apply({ type: 'turn', colour, turn: randomTurn(match.position, random) }, (now += 1000));
      if (!out.ok) throw new Error(`turn refused: ${out.rejection.code}`);
      return true;
    },
    mirror: () => mirror(model(), state),
    patchBytes: () => {
      const bytes = encoder.encode().byteLength;
      encoder.discardChanges();
      return bytes;
    },
  };
}

/** Plays `n` turns and times the mirror after each; returns the median and mean µs and patch bytes per turn. */
function pass(n: number) {
  const random = seeded(7);
  let g = game();
  const times: number[] = [];
  let patch = 0;
  while (times.length < n) {
    if (!g.step(random)) {
      g = game();
      continue;
    }
    const t0 = process.hrtime.bigint();
    g.mirror();
    times.push(Number(process.hrtime.bigint() - t0) / 1000);
    patch += g.patchBytes();
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { median: sorted[Math.floor(n / 2)], mean: times.reduce((a, b) => a + b, 0) / n, patch: patch / n };
}

pass(Math.min(500, turnsWanted)); // warm-up
const timed = pass(turnsWanted);
const result = {
  turns: turnsWanted,
  mirrorMicrosPerTurn: { median: +timed.median.toFixed(2), mean: +timed.mean.toFixed(2) },
  patchBytesPerTurn: +timed.patch.toFixed(1),
};
if (json) console.log(JSON.stringify(result));
else
  console.log(
    `mirror: median ${result.mirrorMicrosPerTurn.median} µs per turn (mean ${result.mirrorMicrosPerTurn.mean}), patch ${result.patchBytesPerTurn} B per turn (${turnsWanted} turns)`,
  );
