/**
 * Helpers for the durability tests: the reference game played by the engine alone, tables of
 * colyseus.js players on a server process (seated, rejoined by seat key), and a well-behaved
 * sender that honours `rate_limited`.
 */
import type { ChildProcess } from 'node:child_process';
import { Client } from 'colyseus.js';
import { activePlayers, initialPosition, makeTurn, mustPass, parseRules, playTurn, randomTurn, resign, type Position, type Rules } from '@djambi/shared';
import { holder, randomTurnFor, seeded, type State, TestClient } from './helpers.js';
import type { ServerProcess } from './processes.js';

/** Parsed rules, or a throw. */
export function rulesFrom(input: Record<string, unknown>): Rules {
  const parsed = parseRules(input);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

/**
 * The seeded game of `playRandomGame` (and of the restart property test), played by the engine
 * alone: `moves` as the server's move list shows them (auto-passes included), `actions` the number
 * of client actions (turns, then resignations after `maxTurns`).
 */
export function simulate(rules: Rules, seed: number, maxTurns: number): { moves: string[]; actions: number } {
  const random = seeded(seed);
  let pos: Position = initialPosition(rules);
  const moves: string[] = [];
  const autoPass = () => {
    while (!pos.result && mustPass(pos)) {
      const res = playTurn(pos, { pass: true });
      if (!res.ok) throw new Error(res.error.message);
      moves.push(`${pos.toMove} pass`);
      pos = res.value.position;
    }
  };
  let actions = 0;
  while (!pos.result) {
    if (actions < maxTurns) {
      // What a player sees is the position it replays from the move list (`positionOf`): this one.
      const turn = randomTurn(pos, random);
      moves.push(`${pos.toMove} ${makeTurn(turn, pos)}`);
      const res = playTurn(pos, turn);
      if (!res.ok) throw new Error(res.error.message);
      pos = res.value.position;
    } else {
      const active = activePlayers(pos);
      const colour = active[Math.floor(random() * active.length)];
      moves.push(`${colour} resign`);
      const res = resign(pos, colour);
      if (!res.ok) throw new Error(res.error.message);
      pos = res.value.position;
    }
    autoPass();
    actions++;
  }
  return { moves, actions };
}

/** A colyseus.js SDK for a server on a loopback port. */
export function sdkAt(port: number): Client {
  return new Client(`ws://127.0.0.1:${port}`);
}

/** A seated table: the room code, each colour's seat key, the players (in seat order). */
export interface Table {
  readonly code: string;
  readonly keys: Map<string, string>;
  players: TestClient[];
}

/** Creates a room on `port` with `options`, fills every seat and starts the game. */
export async function seatedTable(port: number, options: Record<string, unknown>, timeoutMs = 5000): Promise<Table> {
  const first = sdkAt(port);
  const creator = new TestClient(await first.create<State>('djambi', { ...options, name: 'p0' }), first);
  await creator.waitMessage('seat', 0, timeoutMs);
  await creator.waitState((s) => s.code !== '', 'code', timeoutMs);
  const code = creator.state.code as string;
  const seats = creator.state.seats.size as number;
  const players = [creator];
  for (let i = 1; i < seats; i++) {
    const s = sdkAt(port);
    const p = new TestClient(await s.joinById<State>(code, { name: `p${i}` }), s);
    await p.waitMessage('seat', 0, timeoutMs);
    players.push(p);
  }
  const keys = new Map(players.map((p) => [p.seat!.colour as string, p.seat!.seatKey]));
  creator.room.send('start');
  await Promise.all(players.map((p) => p.waitState((s) => s.phase === 'playing', 'started', timeoutMs)));
  return { code, keys, players };
}

/** Every seat's holder comes back with its key (in the order of `keys`); waits for seat, history and state. */
export async function rejoin(port: number, code: string, keys: Map<string, string>, timeoutMs = 5000): Promise<TestClient[]> {
  return Promise.all(
    [...keys.values()].map(async (seatKey) => {
      const s = sdkAt(port);
      const tc = new TestClient(await s.joinById<State>(code, { seatKey }), s);
      await tc.waitMessage('seat', 0, timeoutMs);
      await tc.waitMessage('press_history', 0, timeoutMs);
      await tc.waitState((st) => st.code === code, 'state', timeoutMs);
      return tc;
    }),
  );
}

/** What the answer to a sent intent was. */
export type Answer = { readonly accepted: true } | { readonly accepted: false; readonly code: string; readonly message: string };

/**
 * Sends `type`/`payload` from `c` until it is answered with anything but `rate_limited` (then it
 * waits `retryAfterMs` and sends again, as a well-behaved client does): accepted when `done()`
 * holds (the change reached `c`), or the rejection.
 */
export async function sendUntilAnswered(c: TestClient, type: string, payload: unknown, done: (s: State) => boolean, timeoutMs = 10_000): Promise<Answer> {
  for (;;) {
    const refused = c.received('rejected').length;
    c.room.send(type, payload);
    await c.waitState((s) => done(s) || c.received('rejected').length > refused, `answer to "${type}"`, timeoutMs);
    if (done(c.state)) return { accepted: true };
    const r = c.received('rejected').at(-1);
    if (r.code !== 'rate_limited') return { accepted: false, code: r.code, message: r.message };
    await new Promise((resolve) => setTimeout(resolve, (r.retryAfterMs ?? 50) + 5));
  }
}

/** The move list a client sees. */
export function movesSeen(c: TestClient): string[] {
  return [...(c.state.moves.toArray() as string[])];
}

/** Every `text` of a press history's channels (in channel then message order). */
export function historyTexts(history: unknown): string[] {
  const out: string[] = [];
  const channels = (history as { channels?: { messages?: { text?: unknown }[] }[] })?.channels ?? [];
  for (const ch of channels) for (const m of ch.messages ?? []) if (typeof m.text === 'string') out.push(m.text);
  return out;
}

export { sleep } from '../support/wait.js';

/**
 * Stops a server process with SIGSTOP (it reads nothing more; a SIGKILL still ends it).
 * `ServerProcess` keeps its child private: this reaches it at run time.
 */
export function pauseProcess(server: ServerProcess): void {
  const child = (server as unknown as { child: ChildProcess | null }).child;
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) throw new Error('no running server process to pause');
  child.kill('SIGSTOP');
}

/** Plays `n` random legal turns (or to the end), resending after `rate_limited` as a well-behaved client does; each is seen by every client in `watchers`. */
export async function playTurns(players: TestClient[], watchers: TestClient[], random: () => number, n: number): Promise<void> {
  for (let i = 0; i < n && players[0].state.phase === 'playing'; i++) {
    const s = players[0].state;
    const version = s.version as number;
    const mover = holder(players, s.toMove);
    const turn = { ...randomTurnFor(s, random), version };
    for (;;) {
      const refused = mover.received('rejected').length;
      mover.room.send('turn', turn);
      await mover.waitState(
        (st) => {
          const r = mover.received('rejected');
          if (r.length > refused && r.at(-1).code !== 'rate_limited') throw new Error(`turn refused: ${JSON.stringify(r.at(-1))}`);
          return st.version > version || r.length > refused;
        },
        `version ${version + 1}`,
      );
      if (mover.state.version > version) break;
      await new Promise((resolve) => setTimeout(resolve, mover.received('rejected').at(-1).retryAfterMs + 5));
    }
    await Promise.all(watchers.map((p) => p.waitState((st) => st.version > version, `version ${version + 1}`)));
  }
}
