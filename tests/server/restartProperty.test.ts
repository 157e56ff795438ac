/**
 * A seeded property test of durability: random games on a real server process (`node
 * server/dist/index.js` on SQLite in a temporary directory) are killed with SIGKILL at seeded
 * random points, between turns and right after a turn (or resignation) was sent without waiting
 * for its answer, then started again on the same port and store. The players rejoin with their
 * seat keys and play on with the same seeded choices.
 *
 * Properties: no accepted event is lost (every move any client saw before a kill is still in the
 * move list after it; between turns, every player finds the same position, move list, version and
 * press history); a turn in flight at the kill is either in the list or absent, and resending it
 * with the same version is harmless (`stale` when it is there, accepted when it is not); and the
 * final move list equals the same seeded game played by the engine alone, without restarts.
 * A fixed number of restarts per run (22, at least 20), however long they take: every wait is
 * for the event it needs (an exit, a start, a patch, a message), bounded only by PATIENCE_MS, and
 * each game's time limit grows with its restarts.
 */
import { fenOf, seeded, quietSdkWarnings, holder, randomTurnFor, type TestClient } from './helpers.js';
import { ServerProcess, tempDataDir } from './processes.js';
import { freePort } from '../support/ports.js';
import { PATIENCE_MS } from '../support/wait.js';
import { historyTexts, pauseProcess, movesSeen, rejoin, rulesFrom, seatedTable, sendUntilAnswered, simulate, sleep, type Table } from './durability.js';

beforeAll(() => quietSdkWarnings());

interface Spec {
  readonly seed: number;
  readonly rules: Record<string, unknown>;
  readonly clock?: { initialSeconds: number; incrementSeconds: number };
  readonly maxTurns: number;
  readonly restarts: number;
}

/** The restarts of a run: a fixed count, whatever the time they take. */
const RESTARTS = 22;

const GAMES: readonly Spec[] = [
  { seed: 1101, rules: { players: 4 }, clock: { initialSeconds: 900, incrementSeconds: 5 }, maxTurns: 40, restarts: 6 },
  { seed: 2202, rules: { players: 2 }, maxTurns: 40, restarts: 5 },
  { seed: 3303, rules: { players: 4, no_progress_rounds: 6 }, maxTurns: 45, restarts: 6 },
  { seed: 4404, rules: { players: 2 }, clock: { initialSeconds: 600, incrementSeconds: 0 }, maxTurns: 35, restarts: 5 },
];

/** A game's time limit: only a hang reaches it (a few waits of PATIENCE_MS per restart). */
function limitMs(spec: Spec): number {
  return (spec.restarts + 2) * 4 * PATIENCE_MS;
}

/**
 * Where a kill comes: `between` turns; or with a turn (or resignation) in flight: `unread` (the
 * process is stopped first, so the message waits in the socket and dies with it: never saved),
 * `racing` (0–12 ms after the send: saved or not), `published` (once another player saw the
 * turn: saved, whether or not its sender got the answer).
 */
type KillKind = 'between' | 'unread' | 'racing' | 'published';
const IN_FLIGHT: readonly KillKind[] = ['unread', 'racing', 'published'];

/** Seeded kill points: distinct action indices in [1, actions - 2]; the first three unread, published, between. */
function killPlan(seed: number, actions: number, count: number): Map<number, { kind: KillKind; delayMs: number }> {
  const random = seeded(seed * 7919 + 13);
  const candidates = Array.from({ length: Math.max(0, actions - 2) }, (_, i) => i + 1);
  if (candidates.length < count) throw new Error(`a game of ${actions} actions is too short for ${count} restarts`);
  const plan = new Map<number, { kind: KillKind; delayMs: number }>();
  const kinds: KillKind[] = ['between', 'between', 'racing', 'unread', 'published'];
  for (let n = 0; n < count; n++) {
    const at = candidates.splice(Math.floor(random() * candidates.length), 1)[0];
    const kind = n === 0 ? 'unread' : n === 1 ? 'published' : n === 2 ? 'between' : kinds[Math.floor(random() * kinds.length)];
    plan.set(at, { kind, delayMs: Math.floor(random() * 13) });
  }
  return plan;
}

/** What a player sees, for the "between turns" comparison (clocks apart: a restart resumes them). */
function view(p: TestClient): unknown {
  const s = p.state;
  return { fen: fenOf(s), moves: movesSeen(p), version: s.version, phase: s.phase, toMove: s.toMove };
}

const stats = { restarts: 0, inFlight: 0, inFlightSaved: 0, inFlightLost: 0, pressMessages: 0, leftMs: 0, startMs: 0, rejoinMs: 0 };

async function playWithRestarts(spec: Spec): Promise<void> {
  const rules = rulesFrom(spec.rules);
  const reference = simulate(rules, spec.seed, spec.maxTurns);
  const plan = killPlan(spec.seed, reference.actions, spec.restarts);
  const port = await freePort();
  const server = new ServerProcess(port, { DATA_DIR: tempDataDir() });
  await server.start(PATIENCE_MS);
  let table: Table | undefined;
  try {
    table = await seatedTable(port, { rules: spec.rules, ...(spec.clock ? { clock: spec.clock } : {}) }, PATIENCE_MS);
    const t = table;
    const random = seeded(spec.seed);
    const delivered: string[] = []; // table press messages every player received
    let restartsHere = 0;

    /** Kills the process, starts it again, rejoins every player; returns what each saw at the kill. */
    const killAndRestart = async (): Promise<string[][]> => {
      await server.kill('SIGKILL');
      const seen = t.players.map(movesSeen); // everything any client received before the process died
      const t0 = Date.now();
      await Promise.all(t.players.map((p) => p.waitLeft(PATIENCE_MS)));
      const t1 = Date.now();
      await server.start(PATIENCE_MS);
      const t2 = Date.now();
      t.players = await rejoin(port, t.code, t.keys, PATIENCE_MS);
      stats.leftMs += t1 - t0;
      stats.startMs += t2 - t1;
      stats.rejoinMs += Date.now() - t2;
      restartsHere++;
      stats.restarts++;
      // Zero accepted events lost: every move a client saw is still there, in the same place.
      for (const [i, p] of t.players.entries()) {
        const now = movesSeen(p);
        expect(now.slice(0, seen[i].length)).toEqual(seen[i]);
        expect(historyTexts(p.received('press_history').at(-1))).toEqual(delivered);
      }
      return seen;
    };

    /** A table message from an active player, received by every other player. */
    const press = async (n: number): Promise<void> => {
      const sender = holder(t.players, t.players[0].state.toMove);
      const text = `game ${spec.seed}, message ${n}`;
      const has = (p: TestClient) => p.received('press_message').some((m) => m.message.text === text);
      // The sender gets its own message back once it is saved (and sent to everyone).
      const answer = await sendUntilAnswered(sender, 'press_send', { channel: 'table', text }, () => has(sender), PATIENCE_MS);
      expect(answer).toEqual({ accepted: true });
      await Promise.all(t.players.map((p) => p.waitState(() => has(p), `press message ${n}`, PATIENCE_MS)));
      delivered.push(text);
      stats.pressMessages++;
    };

    let action = 0;
    while (t.players[0].state.phase !== 'over') {
      const kill = plan.get(action);
      if (kill?.kind === 'between') {
        const before = t.players.map(view);
        await killAndRestart();
        expect(t.players.map(view)).toEqual(before);
        await press(restartsHere);
      }
      const s = t.players[0].state;
      const version = s.version as number;
      const movesBefore = movesSeen(t.players[0]);
      let actor: TestClient;
      let type: 'turn' | 'resign';
      let payload: Record<string, unknown> | undefined;
      if (action < spec.maxTurns) {
        actor = holder(t.players, s.toMove);
        type = 'turn';
        payload = { ...randomTurnFor(s, random), version };
      } else {
        const active = s.active.toArray() as string[];
        actor = holder(t.players, active[Math.floor(random() * active.length)]);
        type = 'resign';
      }
      const actorColour = actor.seat!.colour;

      if (kill && IN_FLIGHT.includes(kill.kind)) {
        if (kill.kind === 'unread') pauseProcess(server);
        actor.room.send(type, payload);
        if (kill.kind === 'racing' && kill.delayMs > 0) await sleep(kill.delayMs);
        if (kill.kind === 'published') {
          const other = t.players.find((p) => p !== actor)!;
          await other.waitState((st) => st.version > version, 'the turn in flight published', PATIENCE_MS);
        }
        await killAndRestart();
        stats.inFlight++;
        actor = holder(t.players, actorColour);
        const after = movesSeen(actor);
        const saved = after.length > movesBefore.length;
        if (saved) stats.inFlightSaved++;
        else stats.inFlightLost++;
        if (kill.kind === 'unread') expect(saved).toBe(false);
        if (kill.kind === 'published') expect(saved).toBe(true);
        expect(after.length === movesBefore.length || after[movesBefore.length] === reference.moves[movesBefore.length]).toBe(true);
        if (type === 'turn') {
          // The client does not know whether its turn was saved: it sends it again, same version.
          if (saved) {
            const list = movesSeen(actor);
            const reply = await actor.sendExpectRejected(type, payload, PATIENCE_MS);
            expect(reply.code).toBe(actor.state.phase === 'over' ? 'game_over' : 'stale');
            expect(movesSeen(actor)).toEqual(list);
          } else {
            expect(await sendUntilAnswered(actor, type, payload, (st) => st.version > version, PATIENCE_MS)).toEqual({ accepted: true });
          }
        } else if (!saved) {
          expect(await sendUntilAnswered(actor, type, payload, (st) => st.version > version, PATIENCE_MS)).toEqual({ accepted: true });
        }
        expect(movesSeen(actor).length).toBeGreaterThan(movesBefore.length);
      } else {
        const answer = await sendUntilAnswered(actor, type, payload, (st) => st.version > version, PATIENCE_MS);
        expect(answer).toEqual({ accepted: true });
      }
      // Every player sees the same list, which is the reference game so far.
      const target = actor.state.version as number;
      await Promise.all(t.players.map((p) => p.waitState((st) => st.version >= target, `version ${target}`, PATIENCE_MS)));
      const moves = movesSeen(t.players[0]);
      for (const p of t.players) expect(movesSeen(p)).toEqual(moves);
      expect(moves).toEqual(reference.moves.slice(0, moves.length));
      action++;
    }

    expect(movesSeen(t.players[0])).toEqual(reference.moves);
    expect(action).toBe(reference.actions);
    expect(restartsHere).toBe(spec.restarts);
  } finally {
    if (table) await Promise.all(table.players.map((p) => (p.left === null ? p.room.leave(true).catch(() => undefined) : undefined)));
    await server.stop();
  }
}

describe('kill -9 at seeded random points (SQLite)', () => {
  for (const spec of GAMES) {
    const what = `${spec.rules.players} players${spec.clock ? ', clock' : ''}${spec.rules.no_progress_rounds ? ', no-progress rule' : ''}`;
    test(
      `seed ${spec.seed} (${what}): ${spec.restarts} restarts, no accepted event lost, the same game as without restarts`,
      async () => {
        await playWithRestarts(spec);
      },
      limitMs(spec),
    );
  }

  test(`${RESTARTS} restarts in all (at least 20), turns in flight both saved and lost`, () => {
    console.log(`restartProperty: ${JSON.stringify(stats)}`);
    expect(GAMES.reduce((n, g) => n + g.restarts, 0)).toBe(RESTARTS);
    expect(RESTARTS).toBeGreaterThanOrEqual(20);
    expect(stats.restarts).toBe(RESTARTS);
    expect(stats.inFlightLost).toBeGreaterThanOrEqual(GAMES.length);
    expect(stats.inFlightSaved).toBeGreaterThanOrEqual(GAMES.length);
  });
});
