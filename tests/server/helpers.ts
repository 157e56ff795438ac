/**
 * Test helpers for the game server: a real server on a free loopback port and real colyseus.js
 * clients. Everything waits on state changes or messages with a timeout, never on sleeps.
 */
import { Client, type Room } from 'colyseus.js';
import {
  boardOf,
  type GameRecord,
  makeFen,
  parseRules,
  parseTurn,
  randomTurn,
  type RecordEvent,
  replayRecord,
  rulesOfState,
  type Colour,
  type Position,
  type Rules,
  type Turn,
} from '@djambi/shared';
import { matchMaker } from '@colyseus/core';
import { createServer, type RunningServer, type ServerConfig } from '../../server/src/app.js';
import { Match } from '../../server/src/match/match.js';
import { snapshotOf } from '../../server/src/match/snapshot.js';
import { MemoryStore } from '../../server/src/store/memory.js';
import type { GameStore } from '../../server/src/store/types.js';
import type { DjambiRoom } from '../../server/src/rooms/DjambiRoom.js';
import { DEFAULT_BOT_SETTINGS } from '../../server/src/table/bots.js';
import { seeded } from '../support/random.js';

export type State = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Starts a server on 127.0.0.1 and a free port, without the built client. Closing it first
 * checks the storage seam on every game it still holds: the match restored from its events
 * equals the live one (position, record, clocks, seats, every member's press history).
 */
export async function startServer(config: Partial<ServerConfig> = {}): Promise<RunningServer> {
  const store = config.store ?? new MemoryStore();
  const server = await createServer({ port: 0, host: '127.0.0.1', clientDir: '/nonexistent-client-dir', graceSeconds: 1, store, ...config });
  const close = server.close;
  return {
    ...server,
    close: async () => {
      const { mismatches } = await checkRestores(store);
      await close();
      if (mismatches.length > 0) throw new Error(`restored matches differ from the live ones: ${mismatches.join('; ')}`);
    },
  };
}

/** The room `code` of this process (throws when it is not here). */
export function roomOf(code: string): DjambiRoom {
  const room = matchMaker.getLocalRoomById(code) as DjambiRoom | undefined;
  if (!room) throw new Error(`no room ${code} in this process`);
  return room;
}

/** Bot settings for tests: no delays and small node budgets (fast, still the real pool and worker). */
export const FAST_BOTS = { ...DEFAULT_BOT_SETTINGS, minDelayMs: 0, maxDelayMs: 0, nodes: 150, tableMessageMs: 0 };

/**
 * One real server for the tests of the calling file or `describe` block: started in its
 * `beforeAll`, closed (with the restore check of `startServer`) in its `afterAll`. Call the
 * returned function to reach it.
 */
export function serverForTests(config: Partial<ServerConfig> = {}): () => RunningServer {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await startServer(config);
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('the server starts in beforeAll');
    return server;
  };
}

/**
 * Restores the match of every room of this process from its events, and from the store's log
 * when there is one, and compares both with the live one.
 */
export async function checkRestores(store?: GameStore): Promise<{ compared: number; mismatches: string[] }> {
  const out: string[] = [];
  let compared = 0;
  for (const listing of await matchMaker.query({})) {
    const room = matchMaker.getLocalRoomById(listing.roomId) as DjambiRoom | undefined;
    if (!room?.match) continue;
    compared++;
    const live = JSON.stringify(snapshotOf(room.match));
    const restored = JSON.stringify(snapshotOf(Match.restore(room.match.config, room.match.events)));
    if (live !== restored) out.push(`${room.code} (${room.match.events.length} events)`);
    const logged = store ? await store.load(room.code) : null;
    if (store && (!logged || JSON.stringify(snapshotOf(Match.restore(logged.config, logged.events))) !== live)) {
      out.push(`${room.code}: the store's log (${logged?.events.length ?? 'no'} events) differs from the live match`);
    }
  }
  return { compared, mismatches: out };
}

export { seeded } from '../support/random.js';

/** Waits until `pred(value)` is true, re-checking whenever `subscribe` reports a change. */
function waitUntil(check: () => boolean, subscribe: (cb: () => void) => () => void, timeoutMs: number, label: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (check()) return resolve();
    let done = false;
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      unsubscribe();
      if (err) reject(err);
      else resolve();
    };
    const unsubscribe = subscribe(() => {
      try {
        if (check()) finish();
      } catch (e) {
        finish(e as Error);
      }
    });
    const timer = setTimeout(() => finish(new Error(`timed out after ${timeoutMs} ms waiting for ${label}`)), timeoutMs);
  });
}

/** A message received by a test client. */
export interface Received {
  readonly type: string | number;
  readonly message: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A colyseus.js room plus everything it received, with helpers to wait on both. */
export class TestClient {
  readonly messages: Received[] = [];
  private readonly listeners = new Set<() => void>();
  left: number | null = null;

  constructor(
    readonly room: Room<State>,
    readonly sdk: Client,
  ) {
    room.onMessage('*', (type, message) => {
      this.messages.push({ type, message });
      this.notify();
    });
    room.onStateChange(() => this.notify());
    room.onLeave((code) => {
      this.left = code;
      this.notify();
    });
  }

  get state(): State {
    return this.room.state;
  }

  get sessionId(): string {
    return this.room.sessionId;
  }

  /** Messages of one type, in arrival order. */
  received(type: string): any[] {
    // eslint-disable-line @typescript-eslint/no-explicit-any
    return this.messages.filter((m) => m.type === type).map((m) => m.message);
  }

  /** Waits for a state in which `pred` holds. */
  waitState(pred: (s: State) => boolean, label = 'a state condition', timeoutMs = 5000): Promise<void> {
    return waitUntil(
      () => this.state !== undefined && pred(this.state),
      (cb) => this.on(cb),
      timeoutMs,
      label,
    );
  }

  /** Waits for the n-th message (0-based, counting from `from`) of a type and returns it. */
  async waitMessage(type: string, from = 0, timeoutMs = 5000): Promise<any> {
    // eslint-disable-line @typescript-eslint/no-explicit-any
    await waitUntil(
      () => this.received(type).length > from,
      (cb) => this.on(cb),
      timeoutMs,
      `message "${type}" #${from}`,
    );
    return this.received(type)[from];
  }

  /** Sends a message and waits for the `rejected` reply it causes. */
  async sendExpectRejected(type: string, message?: unknown, timeoutMs = 5000): Promise<{ code: string; message: string; type: string }> {
    const before = this.received('rejected').length;
    this.room.send(type, message);
    return this.waitMessage('rejected', before, timeoutMs);
  }

  /** Waits until the room has left (close code). */
  waitLeft(timeoutMs = 5000): Promise<void> {
    return waitUntil(
      () => this.left !== null,
      (cb) => this.on(cb),
      timeoutMs,
      'leave',
    );
  }

  /** The seat message of this client, if any (the latest). */
  get seat(): { colour: Colour; seatKey: string } | undefined {
    const seats = this.received('seat');
    return seats[seats.length - 1];
  }

  /** Calls `cb` on every message, patch or leave of this client; returns the unsubscribe function. */
  on(cb: () => void): () => void {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }

  private notify(): void {
    for (const cb of [...this.listeners]) cb();
  }
}

/** Waits until `check()` holds, re-checking whenever any of `clients` receives something. */
export function waitClients(clients: readonly TestClient[], check: () => boolean, label: string, timeoutMs = 5000): Promise<void> {
  return waitUntil(
    check,
    (cb) => {
      const offs = clients.map((c) => c.on(cb));
      return () => offs.forEach((off) => off());
    },
    timeoutMs,
    label,
  );
}

/** A colyseus.js SDK for a running server. */
export function sdk(server: RunningServer): Client {
  return new Client(`ws://127.0.0.1:${server.port}`);
}

/** Creates a room through the SDK (the creator takes the first seat or `colour`). */
export async function createRoom(server: RunningServer, options: Record<string, unknown> = {}): Promise<TestClient> {
  const client = sdk(server);
  const room = await client.create<State>('djambi', options);
  const tc = new TestClient(room, client);
  if (!options.spectate) await tc.waitMessage('seat');
  await tc.waitState((s) => s.code !== '', 'initial state');
  return tc;
}

/** Joins a room by code. */
export async function join(server: RunningServer, code: string, options: Record<string, unknown> = {}): Promise<TestClient> {
  const client = sdk(server);
  const room = await client.joinById<State>(code, options);
  const tc = new TestClient(room, client);
  await tc.waitState((s) => s.code === code, 'initial state');
  if (!options.spectate) await tc.waitMessage('seat');
  return tc;
}

/** Rules as the room publishes them. */
export function rulesOf(state: State): Rules {
  const r = parseRules(rulesOfState(state.rules.toJSON()));
  if (!r.ok) throw new Error(`room rules do not parse: ${r.error.message}`);
  return r.value;
}

/** The game record a client rebuilds from the synced move list. */
export function recordOf(state: State): GameRecord {
  const rules = rulesOf(state);
  const events = movesOf(state).map((m): RecordEvent => {
    if (m.kind === 'turn' || m.kind === 'pass') {
      const t = parseTurn(m.text, boardOf(rules));
      if (!t.ok) throw new Error(`bad move text ${m.text}`);
      return { type: 'turn', turn: t.value };
    }
    if (m.kind === 'resign') return { type: 'resign', colour: m.colour as Colour };
    if (m.kind === 'timeout') return { type: 'resign', colour: m.colour as Colour, timeout: true };
    return { type: 'draw' };
  });
  return { rules, events };
}

/** The engine position a client rebuilds from the synced move list (the engine replays its record), as the web client does. */
export function positionOf(state: State): Position {
  const pos = replayRecord(recordOf(state));
  if (!pos.ok) throw new Error(`the synced move list does not replay: ${pos.error.message}`);
  return pos.value;
}

/** The FEN of the position a client rebuilds from the synced move list. */
export function fenOf(state: State): string {
  return makeFen(positionOf(state));
}

/** A random legal turn (engine) for the position a client sees. */
export function randomTurnFor(state: State, random: () => number): Turn {
  return randomTurn(positionOf(state), random);
}

/** A full room: creator plus other seats, all joined, plus optional spectators. */
export async function fullRoom(
  server: RunningServer,
  options: Record<string, unknown>,
  spectators = 1,
): Promise<{ players: TestClient[]; spectators: TestClient[]; code: string; all: TestClient[] }> {
  const creator = await createRoom(server, { ...options, name: 'p0' });
  const code = creator.state.code as string;
  const seats = creator.state.seats.size as number;
  const players = [creator];
  for (let i = 1; i < seats; i++) players.push(await join(server, code, { name: `p${i}` }));
  const specs: TestClient[] = [];
  for (let i = 0; i < spectators; i++) specs.push(await join(server, code, { spectate: true }));
  const all = [...players, ...specs];
  await Promise.all(all.map((c) => c.waitState((s) => countTaken(s) === seats && s.spectators === spectators, 'everyone seated')));
  return { players, spectators: specs, code, all };
}

/** Number of taken seats in a state. */
export function countTaken(state: State): number {
  let n = 0;
  state.seats.forEach((seat: State) => {
    if (seat.taken) n++;
  });
  return n;
}

/** The client holding `colour`. */
export function holder(players: TestClient[], colour: string): TestClient {
  const p = players.find((c) => c.seat?.colour === colour);
  if (!p) throw new Error(`nobody holds ${colour}`);
  return p;
}

/** Comparable JSON of a state. */
export function snapshot(state: State): unknown {
  return state.toJSON();
}

/** Waits until every client has reached `version` and returns their snapshots. */
export async function settle(clients: TestClient[], version: number): Promise<unknown[]> {
  await Promise.all(clients.map((c) => c.waitState((s) => s.version >= version, `version ${version}`)));
  return clients.map((c) => snapshot(c.state));
}

/** Leaves every client, ignoring errors. */
export async function leaveAll(clients: TestClient[]): Promise<void> {
  await Promise.all(clients.map((c) => (c.left === null ? c.room.leave(true).catch(() => undefined) : undefined)));
}

/** Options of `playRandomGame`. */
export interface RandomGameOptions {
  /** Turns played before the remaining players start resigning, to bound the game length. */
  readonly maxTurns: number;
  /** Called after every accepted event, once every client holds the same state. */
  readonly afterEvent?: (eventsSoFar: number) => Promise<void> | void;
}

/**
 * Plays seeded random legal turns through the players' connections until the game is over,
 * checking after every event that all `watchers` hold an identical state. After `maxTurns`
 * turns, random active players resign until the game ends. Returns the number of events.
 */
export async function playRandomGame(players: TestClient[], watchers: TestClient[], seed: number, options: RandomGameOptions): Promise<number> {
  const random = seeded(seed);
  const ref = watchers[0];
  let turns = 0;
  while (ref.state.phase !== 'over') {
    const s = ref.state;
    const version = s.version as number;
    let actor: TestClient;
    let send: () => void;
    if (turns < options.maxTurns) {
      actor = holder(players, s.toMove);
      const turn = { ...randomTurnFor(s, random), version };
      send = () => actor.room.send('turn', turn);
    } else {
      const active = s.active.toArray() as string[];
      actor = holder(players, active[Math.floor(random() * active.length)]);
      send = () => actor.room.send('resign');
    }
    // As a well-behaved client: a message over the connection's budget is resent after `retryAfterMs`.
    for (;;) {
      const rejectedBefore = actor.received('rejected').length;
      send();
      await actor.waitState((st) => {
        const rejected = actor.received('rejected');
        const last = rejected[rejected.length - 1];
        if (rejected.length > rejectedBefore && last.code !== 'rate_limited') throw new Error(`server rejected a random legal turn: ${JSON.stringify(last)}`);
        return st.version > version || rejected.length > rejectedBefore;
      }, `event after version ${version}`);
      if (actor.state.version > version) break;
      await new Promise((resolve) => setTimeout(resolve, actor.received('rejected').at(-1).retryAfterMs + 5));
    }
    const target = actor.state.version as number;
    const snaps = await settle(watchers, target);
    for (let i = 1; i < snaps.length; i++) expect(snaps[i]).toEqual(snaps[0]);
    turns++;
    if (options.afterEvent) await options.afterEvent(target);
  }
  return turns;
}

/** Silences colyseus.js's console warnings about closed connections and join errors (expected in these tests). */
export function quietSdkWarnings(): void {
  const warn = console.warn.bind(console);
  jest.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    const first = String(args[0] ?? '');
    if (first.startsWith('colyseus.js') || first.startsWith('Room connection was closed')) return;
    warn(...args);
  });
}

/** Splits a move-list string (`"R c7-c5"`, `"B pass"`, `"Y resign"`, `"G timeout"`, `"draw"`). */
export function parseMove(text: string): { kind: 'turn' | 'pass' | 'resign' | 'timeout' | 'draw'; colour: string; text: string } {
  if (text === 'draw') return { kind: 'draw', colour: '', text: '' };
  const [colour, what] = text.split(' ');
  if (what === 'resign' || what === 'timeout') return { kind: what, colour, text: '' };
  return { kind: what === 'pass' ? 'pass' : 'turn', colour, text: what };
}

/** The synced move list, split. */
export function movesOf(state: State): ReturnType<typeof parseMove>[] {
  return (state.moves.toArray() as string[]).map(parseMove);
}
