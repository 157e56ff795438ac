/**
 * Frames on the wire, counted on raw WebSocket clients (the load generator's, which speak the
 * Colyseus 0.16 protocol and never decode state): an accepted turn costs exactly one frame per
 * client of the room, the patch; a refused one costs one frame to its sender only, the rejection.
 *
 * Without sleeps, "nothing else arrived" is made exact by a sentinel: after each turn every
 * client sends a message of an unknown type, and the server answers it to that client alone.
 * Frames on one connection arrive in order, so once a client has its answer, every frame the
 * server sent it before has arrived; a late frame would show up in the next turn's count.
 */
import { parseRules, initialPosition, playTurn, type Position, randomTurn } from '@djambi/shared';
import type { RunningServer } from '../../server/src/app.js';
import { joinRaw, type RawConnection } from '../bench/loadgen/protocol.js';
import { seeded, startServer } from './helpers.js';

/** A raw connection with the frames it received, and a way to wait on them. */
class Counted {
  readonly received: { kind: 'patch' | 'message'; type?: string; payload?: unknown }[] = [];
  /** The size of every patch received, bytes. */
  readonly patchBytes: number[] = [];
  private readonly listeners = new Set<() => void>();

  constructor(readonly conn: RawConnection) {
    conn.onPatch = (bytes) => {
      this.patchBytes.push(bytes);
      this.push({ kind: 'patch' });
    };
    conn.onMessage = (type, payload) => this.push({ kind: 'message', type, payload: payload() });
  }

  private push(frame: Counted['received'][number]): void {
    this.received.push(frame);
    for (const cb of [...this.listeners]) cb();
  }

  /** Waits until `check()` holds (re-checked on every frame). */
  until(check: () => boolean, label: string, timeoutMs = 5000): Promise<void> {
    return new Promise((resolve, reject) => {
      if (check()) return resolve();
      const timer = setTimeout(() => {
        this.listeners.delete(cb);
        reject(new Error(`timed out waiting for ${label}`));
      }, timeoutMs);
      const cb = () => {
        if (!check()) return;
        clearTimeout(timer);
        this.listeners.delete(cb);
        resolve();
      };
      this.listeners.add(cb);
    });
  }

  /** Sends a sentinel and resolves once its answer has arrived; returns the frames since `from`, sentinel answer excluded. */
  async flush(from: number, tag: string): Promise<Counted['received']> {
    this.conn.send(`sentinel_${tag}`);
    const answered = (f: Counted['received'][number]) =>
      f.kind === 'message' && f.type === 'rejected' && (f.payload as { type?: string } | undefined)?.type === `sentinel_${tag}`;
    await this.until(() => this.received.slice(from).some(answered), `the answer to sentinel ${tag}`);
    return this.received.slice(from).filter((f) => !answered(f));
  }
}

const RULES = (() => {
  const r = parseRules({ players: 4 });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
})();
const SEATS = ['R', 'B', 'Y', 'G'] as const;

let server: RunningServer;
let http: string;
beforeAll(async () => {
  server = await startServer();
  http = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => {
  await server.close();
});

/** A started 4-player room with 2 spectators, every client raw; everybody has seen the start. */
async function startedRoom(): Promise<{ players: Counted[]; all: Counted[] }> {
  const creator = new Counted(await joinRaw(http, 'create', 'djambi', { rules: { players: 4 }, colour: 'R', name: 'p0' }));
  const players = [creator];
  for (let i = 1; i < 4; i++) players.push(new Counted(await joinRaw(http, 'joinById', creator.conn.roomId, { colour: SEATS[i], name: `p${i}` })));
  const spectators: Counted[] = [];
  for (let i = 0; i < 2; i++) spectators.push(new Counted(await joinRaw(http, 'joinById', creator.conn.roomId, { spectate: true })));
  const all = [...players, ...spectators];
  // Settle the joins' patches, then start and settle the start's.
  await Promise.all(all.map((c, i) => c.flush(0, `join${i}`)));
  const before = all.map((c) => c.received.length);
  creator.conn.send('start');
  await Promise.all(all.map((c, i) => c.until(() => c.received.slice(before[i]).some((f) => f.kind === 'patch'), 'the start patch')));
  await Promise.all(all.map((c, i) => c.flush(before[i], `start${i}`)));
  return { players, all };
}

async function closeAll(all: Counted[]): Promise<void> {
  await Promise.all(all.map((c) => c.conn.close()));
}

/**
 * Plays up to `count` seeded random legal turns from the start, each sent (with its version)
 * and checked by `each` through the mover's connection; stops early when the game is over.
 */
async function randomTurns<P>(
  players: readonly P[],
  seed: number,
  count: number,
  each: (mover: P, turn: Record<string, unknown>, version: number) => Promise<void>,
) {
  const random = seeded(seed);
  let pos: Position = initialPosition(RULES);
  for (let version = 0; version < count && !pos.result; version++) {
    const turn = randomTurn(pos, random);
    const next = playTurn(pos, turn);
    if (!next.ok) throw new Error(next.error.message);
    await each(players[SEATS.indexOf(pos.toMove as (typeof SEATS)[number])]!, { ...turn, version }, version);
    pos = next.value.position;
  }
}

test('an accepted turn is exactly one frame (the patch) to every client of the room', async () => {
  const { players, all } = await startedRoom();
  await randomTurns(players, 14, 12, async (mover, turn, version) => {
    const before = all.map((c) => c.received.length);
    mover.conn.send('turn', turn);
    const frames = await Promise.all(all.map((c, i) => c.flush(before[i], `t${version}c${i}`)));
    expect(frames.map((f) => f.map((x) => x.kind))).toEqual(all.map(() => ['patch']));
  });
  await closeAll(all);
});

test("an accepted turn's patch carries the move, not the position (no FEN in the synced state)", async () => {
  const { players, all } = await startedRoom();
  const sizes: number[] = [];
  await randomTurns(players, 15, 12, async (mover, turn, version) => {
    const before = all.map((c) => c.patchBytes.length);
    mover.conn.send('turn', turn);
    await Promise.all(all.map((c, i) => c.until(() => c.patchBytes.length > before[i], `the patch of turn ${version}`)));
    // The same bytes for every client (the room encodes the patch once).
    const got = all.map((c, i) => c.patchBytes[before[i]]);
    expect(new Set(got).size).toBe(1);
    sizes.push(got[0]);
  });
  // The move's text (`"R d4-e5"` and its choices), the version, ply, side to move: a few dozen
  // bytes. A FEN of these positions alone is over 90 characters; it was rewritten every turn.
  expect(sizes).toHaveLength(12);
  expect(Math.max(...sizes)).toBeLessThanOrEqual(64);
  await closeAll(all);
});

test('a refused turn is one frame (the rejection) to its sender and none to anybody else', async () => {
  const { players, all } = await startedRoom();
  const pos = initialPosition(RULES);
  const turn = randomTurn(pos, seeded(3));
  const wrong = players[1]; // R moves first
  const before = all.map((c) => c.received.length);
  wrong.conn.send('turn', { ...turn, version: 0 });
  const frames = await Promise.all(all.map((c, i) => c.flush(before[i], `r${i}`)));
  expect(frames[1]).toEqual([{ kind: 'message', type: 'rejected', payload: expect.objectContaining({ type: 'turn', code: 'not_your_turn' }) }]);
  expect(frames.filter((_, i) => i !== 1)).toEqual(all.slice(1).map(() => []));
  await closeAll(all);
});
