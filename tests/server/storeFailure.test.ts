/**
 * Failure injection on the game log (an in-process server on a `FaultyStore` over a
 * `MemoryStore`, then over a SQLite file): while appends fail, or the store is read-only or down, every intent that must
 * be saved (a turn, a press message, a rename, a ready, a spectator join, a seat take) is refused
 * with `storage_unavailable`, the room keeps running, and nothing is half-applied: every client's
 * state is as before, nobody else received anything, the live match (and every member's press
 * history) and the stored log are unchanged. After `heal()` the same intents succeed, and the live
 * match restores from the store's log to the same match. A fenced append closes the room's
 * clients with 4102.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunningServer } from '../../server/src/app.js';
import { snapshotOf } from '../../server/src/match/snapshot.js';
import { FaultyStore, MemoryStore } from '../../server/src/store/memory.js';
import { SqliteStore } from '../../server/src/store/sqlite.js';
import {
  checkRestores,
  countTaken,
  createRoom,
  join,
  leaveAll,
  quietSdkWarnings,
  randomTurnFor,
  sdk,
  seeded,
  snapshot,
  startServer,
  type TestClient,
  roomOf,
} from './helpers.js';

quietSdkWarnings();
/** The server logs every injected failure: expected here, kept out of the output. */
beforeAll(() => {
  const error = console.error.bind(console);
  jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    const first = String(args[0] ?? '');
    if (/store append failed|store failure|fenced: another process|could not mark the game finished/.test(first)) return;
    error(...args);
  });
});

let store: FaultyStore;
let server: RunningServer;
let dir = '';
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'djambi-faults-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Fault = 'appends' | 'read_only' | 'down';
const FAULTS: readonly Fault[] = ['appends', 'read_only', 'down'];

function inject(fault: Fault): void {
  if (fault === 'appends') store.failAppends();
  else store.mode(fault);
}

/** Everything that must not change when an intent is refused: every client's view, the match, every member's press history, the log. */
async function everything(code: string, clients: TestClient[]) {
  const room = roomOf(code);
  const members = room.match.press.roster.everyone();
  return {
    clients: clients.map((c) => JSON.stringify(snapshot(c.state))),
    match: JSON.stringify(snapshotOf(room.match)),
    events: room.match.events.length,
    histories: members.map((m) => JSON.stringify(room.match.historyDelivery(m).payload)),
    logged: (await store.inner.load(code))?.events.length,
  };
}

/**
 * Waits until every client got the answer to a message sent after everything before it: a turn
 * out of the lobby (`game_not_started`) or out of turn, answered by the match alone. Whatever the
 * server sent a client before that answer has arrived by then.
 */
async function barrier(clients: TestClient[]): Promise<void> {
  await Promise.all(clients.map((c) => c.sendExpectRejected('resign', { junk: true })));
}

/** Messages `c` received from index `from` on, minus the barrier's answers. */
function since(c: TestClient, from: number): unknown[] {
  return c.messages.slice(from).filter((m) => !(m.type === 'rejected' && m.message.type === 'resign' && m.message.code === 'bad_payload'));
}

/** `send` is refused with storage_unavailable (a message's `rejected`, or a join's error); nothing changes, nobody else hears of it. */
async function expectNothing(code: string, clients: TestClient[], sender: TestClient | null, send: () => Promise<void>): Promise<void> {
  const before = await everything(code, clients);
  const counts = clients.map((c) => c.messages.length);
  const appends = store.appendCalls;
  await send();
  await barrier(clients);
  expect(store.appendCalls).toBeGreaterThan(appends); // it did reach the store
  expect(await everything(code, clients)).toEqual(before);
  for (const [i, c] of clients.entries()) {
    const got = since(c, counts[i]);
    if (c === sender) {
      expect(got).toHaveLength(1);
      expect(got[0]).toMatchObject({ type: 'rejected', message: { code: 'storage_unavailable' } });
    } else {
      expect(got).toEqual([]);
    }
  }
}

/** Sends a message expected to be refused with storage_unavailable. */
function refusedMessage(code: string, clients: TestClient[], sender: TestClient, type: string, payload: unknown): Promise<void> {
  return expectNothing(code, clients, sender, async () => {
    const reply = await sender.sendExpectRejected(type, payload);
    expect(reply).toMatchObject({ type, code: 'storage_unavailable' });
  });
}

/** A join expected to be refused with storage_unavailable (the SDK's promise rejects with the code in its message). */
function refusedJoin(code: string, clients: TestClient[], options: Record<string, unknown>): Promise<void> {
  return expectNothing(code, clients, null, async () => {
    await expect(sdk(server).joinById(code, options)).rejects.toThrow(/storage_unavailable/);
  });
}

/** The journal over an in-memory store (as over PostgreSQL) and over SQLite. */
describe.each(['memory', 'sqlite'] as const)('over a %s store', (kind) => {
  let files = 0;
  beforeEach(async () => {
    store = new FaultyStore(kind === 'memory' ? new MemoryStore() : SqliteStore.open(path.join(dir, `faults-${++files}.sqlite`)));
    // A roomy message budget: the barriers below send extra messages (the budget has its own tests).
    server = await startServer({ store, rooms: { budget: { burst: 5000, perSecond: 1000, strikes: 100, strikesPerSecond: 10 } } });
  });
  afterEach(async () => {
    store.heal();
    await server.close(); // also checks that every live match restores from the store's log
    await store.close();
  });

  describe.each(FAULTS)('store %s', (fault) => {
    test('in the lobby: press, rename, ready, spectator join and seat take refused, nothing half-applied; all succeed after heal', async () => {
      const r = await createRoom(server, { rules: { players: 4 }, name: 'Red' });
      const code = r.state.code as string;
      const y = await join(server, code, { name: 'Yellow' });
      const s = await join(server, code, { spectate: true });
      const clients = [r, y, s];
      await Promise.all(clients.map((c) => c.waitState((st) => countTaken(st) === 2 && st.spectators === 1, 'two seated, one spectator')));

      inject(fault);
      await refusedMessage(code, clients, r, 'press_send', { channel: 'table', text: 'hello table' });
      await refusedMessage(code, clients, y, 'name', { name: 'Renamed' });
      await refusedMessage(code, clients, y, 'ready', { ready: true });
      await refusedJoin(code, clients, { spectate: true });
      await refusedJoin(code, clients, { name: 'Taker' });
      // The room still answers and runs: a message the match refuses by itself.
      expect((await r.sendExpectRejected('turn', { from: 'a9', to: 'a8' })).code).toBe('game_not_started');
      expect((await checkRestores(store.heal())).mismatches).toEqual([]);
      inject(fault);
      await refusedMessage(code, clients, r, 'press_send', { channel: 'table', text: 'hello table' });

      store.heal();
      r.room.send('press_send', { channel: 'table', text: 'hello table' });
      await Promise.all(clients.map((c) => c.waitState(() => c.received('press_message').some((m) => m.message.text === 'hello table'), 'press message')));
      y.room.send('name', { name: 'Renamed' });
      y.room.send('ready', { ready: true });
      const second = y.seat!.colour;
      await Promise.all(
        clients.map((c) => c.waitState((st) => st.seats.get(second).name === 'Renamed' && st.seats.get(second).ready === true, 'renamed and ready')),
      );
      const s2 = await join(server, code, { spectate: true });
      const taker = await join(server, code, { name: 'Taker' });
      const all = [...clients, s2, taker];
      // Exactly the connected spectators and seats: the refused joins left nothing behind.
      await Promise.all(all.map((c) => c.waitState((st) => countTaken(st) === 3, 'three seated')));
      await barrier(all);
      for (const c of all) expect({ seats: countTaken(c.state), spectators: c.state.spectators }).toEqual({ seats: 3, spectators: 2 });
      expect(roomOf(code).describe()).toMatchObject({ spectators: 2 });

      const { compared, mismatches } = await checkRestores(store);
      expect(mismatches).toEqual([]);
      expect(compared).toBeGreaterThanOrEqual(1);
      await leaveAll(all);
    });

    test('in play: a turn, a press message, a rename and a spectator join refused, nothing half-applied; all succeed after heal', async () => {
      const r = await createRoom(server, { rules: { players: 2 }, clock: { initialSeconds: 600, incrementSeconds: 0 }, name: 'Red' });
      const code = r.state.code as string;
      const y = await join(server, code, { name: 'Yellow' });
      const s = await join(server, code, { spectate: true });
      const clients = [r, y, s];
      r.room.send('start');
      await Promise.all(clients.map((c) => c.waitState((st) => st.phase === 'playing' && st.spectators === 1, 'started')));
      const random = seeded(5);
      // A few turns first, so that the log has a game in it.
      for (let i = 0; i < 4; i++) {
        const st = r.state;
        const mover = st.toMove === 'R' ? r : y;
        const v = st.version as number;
        mover.room.send('turn', { ...randomTurnFor(st, random), version: v });
        await Promise.all(clients.map((c) => c.waitState((x) => x.version > v, `version ${v + 1}`)));
      }

      inject(fault);
      const st = r.state;
      const mover = st.toMove === 'R' ? r : y;
      const turn = { ...randomTurnFor(st, random), version: st.version as number };
      await refusedMessage(code, clients, mover, 'turn', turn);
      await refusedMessage(code, clients, mover, 'turn', turn); // again: still refused, still nothing
      await refusedMessage(code, clients, y, 'press_send', { channel: 'table', text: 'your move' });
      await refusedMessage(code, clients, r, 'name', { name: 'Renamed' });
      await refusedJoin(code, clients, { spectate: true });

      store.heal();
      const v = st.version as number;
      mover.room.send('turn', turn);
      await Promise.all(clients.map((c) => c.waitState((x) => x.version > v, 'the same turn accepted')));
      y.room.send('press_send', { channel: 'table', text: 'your move' });
      await Promise.all(clients.map((c) => c.waitState(() => c.received('press_message').some((m) => m.message.text === 'your move'), 'press message')));
      r.room.send('name', { name: 'Renamed' });
      await Promise.all(clients.map((c) => c.waitState((x) => x.seats.get('R').name === 'Renamed', 'renamed')));
      const s2 = await join(server, code, { spectate: true });
      const all = [...clients, s2];
      await barrier(all);
      for (const c of all) expect(c.state.spectators).toBe(2);
      // The refused turn was never played: exactly one more move, by the mover.
      expect(r.state.moves.toArray().filter((m: string) => !m.endsWith(' pass'))).toHaveLength(5);

      const { compared, mismatches } = await checkRestores(store);
      expect(mismatches).toEqual([]);
      expect(compared).toBeGreaterThanOrEqual(1);
      await leaveAll(all);
    });
  });

  test('while the store is read-only or down, creating a room is refused with storage_unavailable', async () => {
    for (const mode of ['read_only', 'down'] as const) {
      store.mode(mode);
      await expect(sdk(server).create('djambi', { rules: { players: 2 } })).rejects.toThrow(/storage_unavailable/);
      // Through the HTTP API: a temporary refusal (503), not the caller's fault.
      const res = await fetch(`http://127.0.0.1:${server.port}/api/rooms`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ rules: { players: 2 } }),
      });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('storage_unavailable');
      store.heal();
    }
    const r = await createRoom(server, { rules: { players: 2 } });
    expect(r.state.code).not.toBe('');
    await leaveAll([r]);
  });

  test('a fenced append (another process holds the game) closes every client with 4102', async () => {
    const r = await createRoom(server, { rules: { players: 2 } });
    const code = r.state.code as string;
    const y = await join(server, code, {});
    const s = await join(server, code, { spectate: true });
    const clients = [r, y, s];
    r.room.send('start');
    await Promise.all(clients.map((c) => c.waitState((st) => st.phase === 'playing', 'started')));
    const logged = (await store.inner.load(code))!.events.length;

    store.failAppends(1, 'fenced');
    const st = r.state;
    r.room.send('turn', { ...randomTurnFor(st, seeded(9)), version: st.version });
    await Promise.all(clients.map((c) => c.waitLeft()));
    for (const c of clients) {
      expect(c.left).toBe(4102);
      expect(c.received('server_moved')).toEqual([{ code }]);
      expect(c.state.version).toBe(st.version); // the fenced turn was never published
    }
    expect(r.received('rejected').at(-1)).toMatchObject({ type: 'turn', code: 'storage_unavailable' });
    // The fenced turn is not in the log (the closing copy's later events, such as the spectator's
    // leave, do reach this injected log, whose sequence numbers still match).
    const after = (await store.inner.load(code))!.events.slice(logged);
    expect(after.filter((e) => e.intent.type === 'turn')).toEqual([]);
  });

  /**
   * The events of a game-ending intent are saved, then the game is marked finished: when only the
   * marking fails, the intent stands (it is in the log), and the live match stays the log's.
   */
  test('a failed finish after a saved append: the game ends all the same, the live match is the log', async () => {
    let failFinish = 1;
    const inner = store.inner;
    const finish = inner.finish.bind(inner);
    (store as unknown as { finish: typeof inner.finish }).finish = async (...args) => {
      if (failFinish-- > 0) throw new Error('injected finish fault');
      return finish(...args);
    };
    const r = await createRoom(server, { rules: { players: 2 } });
    const code = r.state.code as string;
    const y = await join(server, code, {});
    r.room.send('start');
    await Promise.all([r, y].map((c) => c.waitState((st) => st.phase === 'playing', 'started')));
    r.room.send('resign');
    await Promise.all([r, y].map((c) => c.waitState((st) => st.phase === 'over', 'over')));
    await barrier([r, y]);
    expect(r.received('rejected').filter((m) => m.code === 'storage_unavailable')).toEqual([]);
    expect(failFinish).toBeLessThan(1); // the fault was hit
    const { compared, mismatches } = await checkRestores(store);
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThanOrEqual(1);
    await leaveAll([r, y]);
  });
});
