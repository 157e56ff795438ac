/**
 * Helpers for the negotiation (press) tests on a real server: a server reading a test clock, recording
 * clients (every message, every decoded state, every raw frame), started rooms, and scripted
 * games planned with the engine alone (quiet turns, then a turn that kills a given player's piece).
 */
import {
  controllerOf,
  initialPosition,
  legalTurns,
  makeTurn,
  mustPass,
  pieces,
  playTurn,
  type Colour,
  type Effect,
  type Position,
  type Rules,
  type Turn,
} from '@djambi/shared';
import type { RunningServer, ServerConfig } from '../../server/src/app.js';
import type { TestClock } from '../support/clock.js';
import { countTaken, holder, sdk, seeded, startServer, TestClient, waitClients, type State } from './helpers.js';

/** Starts a server whose rooms read `clock`. */
export function startPressServer(clock: TestClock, config: Partial<ServerConfig> = {}): Promise<RunningServer> {
  return startServer({ now: clock.now, ...config });
}

/** A test client that also records every decoded state (as JSON) and every raw frame it receives. */
export class RecordingClient extends TestClient {
  /** JSON of the decoded state after the first full state and after every patch. */
  readonly states: string[] = [];
  /** Every WebSocket frame received after the join (the full state, patches and messages). */
  readonly frames: Buffer[] = [];

  constructor(room: TestClient['room'], client: TestClient['sdk']) {
    super(room, client);
    const ws = (room.connection.transport as unknown as { ws: { onmessage: (ev: { data: ArrayBuffer }) => void } }).ws;
    const original = ws.onmessage;
    ws.onmessage = (ev) => {
      this.frames.push(Buffer.from(ev.data));
      original(ev);
    };
    room.onStateChange((s: State) => this.states.push(JSON.stringify(s.toJSON())));
  }

  /** Everything this client received, as one text to search: messages, decoded states, raw frames (latin1). */
  everything(): { messages: string; states: string; frames: string } {
    return {
      messages: JSON.stringify(this.messages),
      states: this.states.join('\n'),
      frames: this.frames.map((f) => f.toString('latin1')).join('\n'),
    };
  }
}

/** Joins a room by code with a recording client. */
export async function joinRecording(server: RunningServer, code: string, options: Record<string, unknown> = {}): Promise<RecordingClient> {
  const client = sdk(server);
  const room = await client.joinById<State>(code, options);
  const tc = new RecordingClient(room, client);
  await tc.waitState((s) => s.code === code, 'initial state');
  if (!options.spectate) await tc.waitMessage('seat');
  return tc;
}

/** A room with every seat taken by a recording client, plus recording spectators; started or not. */
export async function pressRoom(
  server: RunningServer,
  options: Record<string, unknown>,
  spectators = 1,
  start = true,
): Promise<{ players: RecordingClient[]; spectators: RecordingClient[]; all: RecordingClient[]; code: string; by: (c: string) => RecordingClient }> {
  const sdkClient = sdk(server);
  const creatorRoom = await sdkClient.create<State>('djambi', { ...options, name: 'p0' });
  const creator = new RecordingClient(creatorRoom, sdkClient);
  await creator.waitMessage('seat');
  await creator.waitState((s) => s.code !== '', 'initial state');
  const code = creator.state.code as string;
  const seats = creator.state.seats.size as number;
  const players = [creator];
  for (let i = 1; i < seats; i++) players.push(await joinRecording(server, code, { name: `p${i}` }));
  const specs: RecordingClient[] = [];
  for (let i = 0; i < spectators; i++) specs.push(await joinRecording(server, code, { spectate: true, name: `watcher${i}` }));
  const all = [...players, ...specs];
  await Promise.all(all.map((c) => c.waitState((s) => countTaken(s) === seats && s.spectators === spectators, 'everyone seated')));
  if (start) {
    creator.room.send('start');
    await Promise.all(all.map((c) => c.waitState((s) => s.phase === 'playing', 'start')));
  }
  return { players, spectators: specs, all, code, by: (c: string) => holder(players, c) as RecordingClient };
}

/**
 * Sends a press message and waits until `waiter` has one more message of type `expect`; returns
 * it. A `rejected` reply to the sender fails at once.
 */
export async function sendAndWait(from: TestClient, type: string, payload: unknown, waiter: TestClient, expect: string): Promise<any> {
  // eslint-disable-line @typescript-eslint/no-explicit-any
  const n = waiter.received(expect).length;
  const rejected = from.received('rejected').length;
  from.room.send(type, payload);
  await waitClients(
    [from, waiter],
    () => {
      const r = from.received('rejected');
      if (r.length > rejected) throw new Error(`${type} was rejected: ${JSON.stringify(r[r.length - 1])}`);
      return waiter.received(expect).length > n;
    },
    `${expect} after ${type}`,
  );
  return waiter.received(expect)[n];
}

/** Sends a press message that must be refused; returns the `rejected` reply. */
export async function refusedWith(
  from: TestClient,
  type: string,
  payload: unknown,
  code: string,
): Promise<{ code: string; message: string; type: string; retryAfterMs?: number }> {
  const reply = await from.sendExpectRejected(type, payload);
  if (reply.code !== code) throw new Error(`${type} ${JSON.stringify(payload)?.slice(0, 80)}: expected ${code}, got ${reply.code} (${reply.message})`);
  return reply;
}

/** One planned turn. */
export interface Planned {
  readonly colour: Colour;
  readonly turn: Turn;
  readonly text: string;
  /** The position's ply before the turn (the turn's 0-based index). */
  readonly ply: number;
  readonly effects: readonly Effect[];
}

/** True when `effects` kill (by a piece) or displace a piece whose army `victim` controls in `before`. */
export function hurts(before: Position, effects: readonly Effect[], victim: Colour): boolean {
  const list = pieces(before);
  return effects.some((e) => ((e.type === 'kill' && e.by >= 0) || e.type === 'displace') && controllerOf(before, list[e.piece].colour) === victim);
}

/**
 * Plans a game with the engine alone: seeded random quiet turns (pieces move, nothing else
 * happens) until `traitor` can kill or displace a piece `victim` controls without eliminating
 * anyone; that turn is `kill`. Automatic passes are skipped, as the server plays them.
 */
export function planKill(rules: Rules, traitor: Colour, victim: Colour, seed = 1, maxTurns = 200): { quiet: Planned[]; kill: Planned } {
  const random = seeded(seed);
  let pos = initialPosition(rules);
  const quiet: Planned[] = [];
  for (let i = 0; i < maxTurns && !pos.result; i++) {
    while (!pos.result && mustPass(pos)) {
      const r = playTurn(pos, { pass: true });
      if (!r.ok) throw new Error(r.error.message);
      pos = r.value.position;
    }
    const options: (Planned & { next: Position })[] = [];
    for (const turn of legalTurns(pos)) {
      const r = playTurn(pos, turn);
      if (r.ok) options.push({ colour: pos.toMove!, turn, text: makeTurn(turn, pos), ply: pos.ply, effects: r.value.effects, next: r.value.position });
    }
    if (pos.toMove === traitor) {
      const kill = options.find((o) => hurts(pos, o.effects, victim) && !o.effects.some((e) => e.type === 'eliminated' || e.type === 'result'));
      if (kill) return { quiet, kill };
    }
    const calm = options.filter((o) => o.effects.every((e) => e.type === 'move'));
    if (calm.length === 0) break;
    const pick = calm[Math.floor(random() * calm.length)];
    quiet.push(pick);
    pos = pick.next;
  }
  throw new Error(`no kill of ${victim} by ${traitor} found`);
}

/** Plays planned turns through the players' connections, waiting for every watcher after each. */
export async function playPlanned(players: TestClient[], watchers: TestClient[], planned: readonly Planned[]): Promise<void> {
  for (const p of planned) {
    const actor = holder(players, p.colour);
    const s = actor.state;
    if (s.toMove !== p.colour) throw new Error(`planned ${p.colour} ${p.text}, but ${s.toMove} is to move`);
    const v = s.version as number;
    const rejected = actor.received('rejected').length;
    actor.room.send('turn', { ...p.turn, version: v });
    await waitClients(
      [actor, ...watchers],
      () => {
        const r = actor.received('rejected');
        if (r.length > rejected) throw new Error(`planned turn rejected: ${JSON.stringify(r[r.length - 1])}`);
        return watchers.every((w) => w.state.version > v);
      },
      `turn ${p.text}`,
    );
  }
}
