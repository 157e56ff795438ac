/**
 * The rooms a load-generator worker drives: 4 players and K spectators each, joined through the
 * matchmaker, playing seeded random legal turns (the engine runs here, on the generator's own
 * copy of the position, so that light clients never decode state). Most rooms use raw-protocol
 * connections (`protocol.ts`); a few use real colyseus.js clients that decode the state, and
 * each of their turns is checked against what was played (version, position, move count).
 */
import { Client, type Room } from 'colyseus.js';
import { initialPosition, makeFen, parseRules, playTurn, type Position, randomTurn } from '../../../shared/src/index.js';
import { joinRaw, type RawConnection } from './protocol.js';

/** The two servers the generator can load: the Djambi server, or the bare baseline room. */
export type Target = 'djambi' | 'baseline';

/** One client of a room, raw or colyseus.js, seen the same way. */
interface Link {
  send(type: string, message?: unknown): void;
  close(): Promise<void>;
  /** Decoded state (colyseus.js links only). */
  readonly state?: Record<string, unknown> & { toJSON?: () => unknown };
}

/** What a room reports to its worker. */
export interface RoomEvents {
  /** A turn's patch reached every client: milliseconds from the send. */
  sample(ms: number): void;
  /** The server refused a turn (code). */
  rejected(code: string): void;
  /** A colyseus.js client's decoded state after a turn: matching what was played or not. */
  checked(ok: boolean, detail: string): void;
  /** The game ended (this room is done; the worker replaces it). */
  over(room: BenchRoom): void;
}

const SEAT_ORDER = ['R', 'B', 'Y', 'G'] as const;

const RULES = (() => {
  const r = parseRules({ players: 4 });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
})();

/** Join options: the same for both targets (the baseline room accepts the Djambi room's options). */
const createOptions = { rules: { players: 4 }, colour: 'R', name: 'bot0' };

/** Creates a room with its first player, then joins the other 3 seats and the spectators by id, in seat order. */
async function createAndJoin(
  target: Target,
  spectators: number,
  open: (method: 'create' | 'joinById', id: string, options: Record<string, unknown>) => Promise<{ link: Link; roomId: string }>,
): Promise<{ links: Link[]; roomId: string }> {
  const creator = await open('create', target, createOptions);
  const links = [creator.link];
  for (let i = 1; i < 4; i++) links.push((await open('joinById', creator.roomId, { colour: SEAT_ORDER[i], name: `bot${i}` })).link);
  for (let i = 0; i < spectators; i++) links.push((await open('joinById', creator.roomId, { spectate: true })).link);
  return { links, roomId: creator.roomId };
}

/** How a room came back after its process died (`BenchRoom.takeover`). */
export interface TakeoverResult {
  readonly code: string;
  /** `performance.timeOrigin + performance.now()` when the patch of the accepted turn arrived; null when none was. */
  readonly acceptedAt: number | null;
  /** The same clock when the seat was reclaimed (the room's full state received); null when it was not. */
  readonly reclaimedAt: number | null;
  /** Turns the generator saw accepted before the kill. */
  readonly movesBefore: number;
  /** Moves in the server's log after the takeover turn (GET /api/games/CODE); null when unknown. */
  readonly movesAfter: number | null;
  /** Failed reclaim attempts (the game not yet back, or listed on the dead process). */
  readonly retries: number;
  /** Why the game is not playable again ('' when it is). */
  readonly error: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The number of moves in a game's log, through the HTTP API (`GET /api/games/CODE`); null when unknown. */
async function loggedMoves(httpBase: string, code: string): Promise<number | null> {
  try {
    const res = await fetch(`${httpBase}/api/games/${code}`, { headers: { accept: 'application/json' } });
    if (!res.ok) return null;
    const body = (await res.json()) as { moves?: unknown };
    return typeof body.moves === 'number' ? body.moves : null;
  } catch {
    return null;
  }
}

/** One room of the benchmark. */
export class BenchRoom {
  private pos: Position = initialPosition(RULES);
  private next: Position | null = null;
  /** Accepted turns so far (the room's `version`). */
  private version = 0;
  private t0 = 0;
  private seen: boolean[] = [];
  private seenCount = 0;
  private waitingStart = true;
  private timer: NodeJS.Timeout | null = null;
  /** Connections opened after a takeover, closed with the room. */
  private readonly reclaimed: RawConnection[] = [];
  running = false;

  private constructor(
    readonly target: Target,
    readonly full: boolean,
    /** The room's id (the Djambi game code). */
    readonly roomId: string,
    /** Each seat's key (colour → seatKey), from the `seat` messages. */
    private readonly seatKeys: ReadonlyMap<string, string>,
    private readonly links: Link[],
    private readonly random: () => number,
    private readonly interval: number,
    private readonly events: RoomEvents,
  ) {}

  /** Creates a room on the server, joins its clients and starts the game. */
  static async open(o: {
    target: Target;
    full: boolean;
    httpBase: string;
    spectators: number;
    random: () => number;
    interval: number;
    events: RoomEvents;
  }): Promise<BenchRoom> {
    const hooks: { patch: (i: number) => void; message: (i: number, type: string, payload: () => unknown) => void } = {
      patch: () => undefined,
      message: () => undefined,
    };
    // The `seat` message can arrive before the room object exists: its keys are kept from the start.
    const seatKeys = new Map<string, string>();
    const keepSeat = (type: string, payload: () => unknown): boolean => {
      if (type !== 'seat') return false;
      const p = payload() as { colour?: unknown; seatKey?: unknown } | undefined;
      if (typeof p?.colour === 'string' && typeof p.seatKey === 'string') seatKeys.set(p.colour, p.seatKey);
      return true;
    };
    let index = 0;
    const sdk = o.full ? new Client(o.httpBase.replace(/^http/, 'ws')) : null;
    const { links, roomId } = await createAndJoin(o.target, o.spectators, async (method, id, options) => {
      const i = index++;
      if (sdk) {
        const room: Room = method === 'create' ? await sdk.create(id, options) : await sdk.joinById(id, options);
        room.onStateChange(() => hooks.patch(i));
        room.onMessage('*', (type, message) => {
          if (!keepSeat(String(type), () => message)) hooks.message(i, String(type), () => message);
        });
        const link: Link = {
          send: (t, m) => room.send(t, m),
          close: () =>
            room.leave(true).then(
              () => undefined,
              () => undefined,
            ),
          get state() {
            return room.state as Link['state'];
          },
        };
        return { link, roomId: room.roomId };
      }
      const conn = await joinRaw(o.httpBase, method, id, options);
      conn.onPatch = () => hooks.patch(i);
      // A patch broadcast before this client acknowledged its join is not sent to it: its full
      // state (sent after the acknowledgement) already holds the change.
      conn.onState = () => hooks.patch(i);
      conn.onMessage = (type, payload) => {
        if (!keepSeat(type, payload)) hooks.message(i, type, payload);
      };
      return { link: { send: (t, m) => conn.send(t, m), close: () => conn.close() }, roomId: conn.roomId };
    });
    const room = new BenchRoom(o.target, o.full, roomId, seatKeys, links, o.random, o.interval, o.events);
    hooks.patch = (i) => room.patched(i);
    hooks.message = (i, type, payload) => room.message(i, type, payload);
    await room.start();
    return room;
  }

  /** Number of clients (players and spectators). */
  get clients(): number {
    return this.links.length;
  }

  /** The creator starts the game; resolves once its patch has reached every client. */
  private start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`the game did not start (${this.seenCount} of ${this.links.length} clients saw a patch; last refusal: ${this.startRefusal || 'none'})`),
          ),
        30_000,
      );
      this.onStarted = () => {
        clearTimeout(timer);
        resolve();
      };
      this.beginWait();
      this.links[0].send('start');
    });
  }

  private onStarted: () => void = () => undefined;
  private startRefusal = '';

  private beginWait(): void {
    this.t0 = performance.now();
    this.seen = this.links.map(() => false);
    this.seenCount = 0;
  }

  /** Schedules the next turn (uniform in [0, 2 × interval]). */
  schedule(): void {
    this.running = true;
    this.timer = setTimeout(() => this.play(), this.random() * 2 * this.interval);
  }

  /** Stops playing (no turn in flight is waited for). */
  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Leaves with every client (a client of a dead process is given up on after 5 s). */
  async close(): Promise<void> {
    this.stop();
    const links: Pick<Link, 'close'>[] = [...this.links, ...this.reclaimed];
    await Promise.all(links.map((l) => Promise.race([l.close().catch(() => undefined), sleep(5_000)])));
  }

  /**
   * After the room's process died (the room stopped, no turn in flight): the seat to move comes
   * back with its key through `httpBase` (a lightweight client, retrying until `deadline`, a
   * `Date.now()` time, while the game is taken over), plays one turn, and resolves once the server
   * has accepted it (a patch after which the game's log holds one more move).
   */
  async takeover(httpBase: string, deadline: number): Promise<TakeoverResult> {
    this.stop();
    const code = this.roomId;
    const movesBefore = this.version;
    let reclaimedAt: number | null = null;
    const fail = (error: string, retries: number, movesAfter: number | null = null): TakeoverResult => ({
      code,
      acceptedAt: null,
      reclaimedAt,
      movesBefore,
      movesAfter,
      retries,
      error,
    });
    if (this.next) return fail('a turn was in flight at the kill', 0);
    const colour = this.pos.toMove;
    const seatKey = colour ? this.seatKeys.get(colour) : undefined;
    if (!seatKey) return fail(`no seat key for ${colour ?? 'nobody'} to move`, 0);
    let retries = 0;
    let conn: RawConnection | null = null;
    let stated = (): void => undefined;
    while (!conn) {
      try {
        const joined = await joinRaw(httpBase, 'joinById', code, { seatKey });
        const state = new Promise<void>((resolve) => {
          stated = resolve;
        });
        joined.onState = () => stated();
        conn = joined;
        this.reclaimed.push(joined);
        await Promise.race([state, sleep(5_000)]);
        reclaimedAt = performance.timeOrigin + performance.now();
      } catch (e) {
        retries++;
        if (Date.now() > deadline) return fail(`could not reclaim the seat: ${(e as Error).message}`, retries);
        await sleep(Math.min(500, 50 * 2 ** retries));
      }
    }
    const turn = randomTurn(this.pos, this.random);
    const out = playTurn(this.pos, turn);
    if (!out.ok) throw new Error(`the engine refused its own random turn: ${out.error.message}`);
    const link = conn;
    const result = await new Promise<TakeoverResult>((resolve) => {
      let checking = false;
      let again = false;
      let done = false;
      const finish = (r: TakeoverResult) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve(r);
      };
      const timer = setTimeout(() => void loggedMoves(httpBase, code).then((m) => finish(fail('no patch of the turn within 10 s', retries, m))), 10_000);
      // A patch may be the seat's reconnection rather than the turn: the log says which.
      const check = (at: number) => {
        if (checking) {
          again = true;
          return;
        }
        checking = true;
        void loggedMoves(httpBase, code).then((moves) => {
          checking = false;
          if (moves !== null && moves > movesBefore) finish({ code, acceptedAt: at, reclaimedAt, movesBefore, movesAfter: moves, retries, error: '' });
          else if (again) {
            again = false;
            check(at);
          }
        });
      };
      link.onPatch = () => check(performance.timeOrigin + performance.now());
      link.onMessage = (type, payload) => {
        if (type !== 'rejected') return;
        const p = payload() as { code?: string; type?: string } | undefined;
        if (p?.type === 'turn') void loggedMoves(httpBase, code).then((m) => finish(fail(`turn refused: ${p.code ?? '?'}`, retries, m)));
      };
      link.send('turn', { ...turn, version: this.version });
    });
    if (!result.error) {
      this.version++;
      this.pos = out.value.position;
    }
    return result;
  }

  private play(): void {
    this.timer = null;
    if (!this.running) return;
    const turn = randomTurn(this.pos, this.random);
    const out = playTurn(this.pos, turn);
    if (!out.ok) throw new Error(`the engine refused its own random turn: ${out.error.message}`);
    this.next = out.value.position;
    // The Djambi room's mover is the engine's; the baseline room takes turns in seat order.
    const mover = this.target === 'djambi' ? SEAT_ORDER.indexOf(this.pos.toMove as (typeof SEAT_ORDER)[number]) : this.version % 4;
    this.beginWait();
    this.links[mover].send('turn', { ...turn, version: this.version });
  }

  private patched(i: number): void {
    if (this.seen.length === 0 || this.seen[i]) return;
    this.seen[i] = true;
    if (++this.seenCount < this.links.length) return;
    const ms = performance.now() - this.t0;
    this.seen = [];
    if (this.waitingStart) {
      this.waitingStart = false;
      this.onStarted();
      return;
    }
    if (!this.next) return;
    this.events.sample(ms);
    this.version++;
    this.pos = this.next;
    this.next = null;
    if (this.full) this.check();
    if (this.pos.result) {
      if (this.target === 'djambi') {
        this.stop();
        this.events.over(this);
        return;
      }
      this.pos = initialPosition(RULES); // the baseline room has no end: the generator starts a new game
    }
    if (this.running) this.schedule();
  }

  private message(i: number, type: string, payload: () => unknown): void {
    if (type !== 'rejected') return;
    const p = payload() as { code?: string; type?: string } | undefined;
    if (this.waitingStart && p?.type === 'start') {
      this.startRefusal = p.code ?? '?';
      setTimeout(() => {
        this.beginWait();
        this.links[0].send('start');
      }, 50);
      return;
    }
    if (i >= 4 || p?.type !== 'turn') return;
    this.events.rejected(p?.code ?? '?');
    this.seen = [];
    this.next = null;
    this.stop(); // the generator's copy of the game can no longer be trusted
  }

  /** Compares what the decoding clients hold with what was played. */
  private check(): void {
    const fen = makeFen(this.pos);
    for (const link of this.links) {
      const s = link.state;
      if (!s) continue;
      if (this.target === 'djambi') {
        const moves = (s.moves as { length: number } | undefined)?.length;
        const ok = s.version === this.version && moves === this.version && s.fen === fen;
        this.events.checked(ok, ok ? '' : `version ${String(s.version)} (played ${this.version}), moves ${moves}, fen ${s.fen === fen ? 'same' : 'differs'}`);
      } else {
        const ok = s.version === this.version && s.toMove === SEAT_ORDER[this.version % 4];
        this.events.checked(ok, ok ? '' : `version ${String(s.version)} (played ${this.version}), toMove ${String(s.toMove)}`);
      }
    }
  }
}
