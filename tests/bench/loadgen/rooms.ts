/**
 * The rooms a load-generator worker drives: 4 players and K spectators each, joined through the
 * matchmaker, playing seeded random legal turns (the engine runs here, on the generator's own
 * copy of the position, so that light clients never decode state). Most rooms use raw-protocol
 * connections (`protocol.ts`); a few use real colyseus.js clients that decode the state, and
 * each of their turns is checked against what was played (version, position, move count).
 */
import { Client, type Room } from 'colyseus.js';
import { initialPosition, parseRules, playTurn, type Position, randomTurn } from '../../../shared/src/index.js';
import { OVERLOAD_CODES } from './codes.js';
import { joinRaw } from './protocol.js';

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
  /** Moves in the server's log after the takeover (GET /api/games/CODE, read once every takeover is over: `withLoggedMoves`); null when unknown. */
  readonly movesAfter: number | null;
  /** Failed reclaim attempts (the game not yet back, or listed on the dead process). */
  readonly retries: number;
  /** Why each failed attempt failed (the room's code replaced by CODE). */
  readonly retryErrors: readonly string[];
  /** Why the game is not playable again ('' when it is). */
  readonly error: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Milliseconds on a clock shared by every thread of the generator. */
const now = () => performance.timeOrigin + performance.now();

/** How one try of a takeover ended (`reclaimedAt`: when the seat's state arrived, if it did). */
type Attempt = (
  | { readonly kind: 'accepted'; readonly at: number }
  | { readonly kind: 'refused'; readonly code: string }
  | { readonly kind: 'retry'; readonly error: string }
) & { readonly reclaimedAt?: number };

/**
 * The takeovers' results with `movesAfter` read from each game's log, a few games at a time, once
 * every takeover is over (so the reads cost the survivor nothing while it takes the games over).
 */
export async function withLoggedMoves(httpBase: string, results: readonly TakeoverResult[]): Promise<TakeoverResult[]> {
  const out: TakeoverResult[] = [];
  for (let i = 0; i < results.length; i += 16) {
    out.push(...(await Promise.all(results.slice(i, i + 16).map(async (r) => ({ ...r, movesAfter: await loggedMoves(httpBase, r.code) })))));
  }
  return out;
}

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
  private readonly reclaimed: Pick<Link, 'close'>[] = [];
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

  /** Stops playing (no turn in flight is waited for: see `settled`). */
  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.hurried(false);
  }

  /** Turns still to play back to back (`advance`), and who waits for them. */
  private hurry = 0;
  private onHurried: ((reached: boolean) => void) | null = null;

  /**
   * Plays `turns` turns back to back, each as soon as the last one's patch reached every client,
   * then stops: resolves true, or false when the room stopped first (its game ended and it was
   * replaced by a new one, or a turn was refused). bench:server's `--from-move`: games further on
   * than its window reaches at one turn per second.
   */
  advance(turns: number): Promise<boolean> {
    if (turns <= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      this.hurry = turns;
      this.onHurried = resolve;
      this.running = true;
      this.play();
    });
  }

  private hurried(reached: boolean): void {
    const done = this.onHurried;
    this.onHurried = null;
    this.hurry = 0;
    done?.(reached);
  }

  /**
   * Resolves once no turn is in flight (its patch reached every client, or it was refused), or
   * after `timeoutMs`: a stopped room whose turn was accepted is then one whose move is logged.
   */
  settled(timeoutMs: number): Promise<void> {
    if (!this.next) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.onSettled.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private onSettled: (() => void)[] = [];

  /** The turn in flight is over (accepted or refused). */
  private settle(): void {
    this.next = null;
    for (const done of this.onSettled.splice(0)) done();
  }

  /** Leaves with every client (a client of a dead process is given up on after 5 s). */
  async close(): Promise<void> {
    this.stop();
    const links: Pick<Link, 'close'>[] = [...this.links, ...this.reclaimed];
    await Promise.all(links.map((l) => Promise.race([l.close().catch(() => undefined), sleep(5_000)])));
  }

  /**
   * After the room's process died (the room stopped, no turn in flight): the seat to move comes
   * back with its key through `httpBase` (a raw connection, or in a room of decoding clients a
   * colyseus.js client, as a player's browser), plays one turn, and resolves once the server has
   * accepted it (its patch; the log is read after every takeover, `withLoggedMoves`). Until
   * `deadline` (a `Date.now()` time) it tries again, as a player's client would, when the game is
   * not back yet or its connection closes before the turn is accepted (a copy fenced off by the
   * game's new host); the same turn with the same version is harmless to resend (the server
   * answers a second copy `stale`, and the log says whether the first one counted).
   */
  async takeover(httpBase: string, deadline: number): Promise<TakeoverResult> {
    this.stop();
    const code = this.roomId;
    const movesBefore = this.version;
    let reclaimedAt: number | null = null;
    let retries = 0;
    const retryErrors: string[] = [];
    const result = (acceptedAt: number | null, movesAfter: number | null, error: string): TakeoverResult => ({
      code,
      acceptedAt,
      reclaimedAt,
      movesBefore,
      movesAfter,
      retries,
      retryErrors,
      error,
    });
    if (this.next) return result(null, null, 'a turn was in flight at the kill');
    const colour = this.pos.toMove;
    const seatKey = colour ? this.seatKeys.get(colour) : undefined;
    if (!seatKey) return result(null, null, `no seat key for ${colour ?? 'nobody'} to move`);
    const turn = randomTurn(this.pos, this.random);
    const out = playTurn(this.pos, turn);
    if (!out.ok) throw new Error(`the engine refused its own random turn: ${out.error.message}`);
    const message = { ...turn, version: this.version };
    let lastError = '';
    while (Date.now() < deadline) {
      const attempt = await this.reclaimAndPlay(httpBase, seatKey, message, deadline).catch((e: Error): Attempt => ({ kind: 'retry', error: e.message }));
      if (attempt.reclaimedAt !== undefined) reclaimedAt ??= attempt.reclaimedAt;
      if (attempt.kind === 'accepted') {
        this.version++;
        this.pos = out.value.position;
        return result(attempt.at, null, '');
      }
      // After a try that ended otherwise, the log decides (its turn may have counted).
      const moves = await loggedMoves(httpBase, code);
      const counted = moves !== null && moves > movesBefore;
      if (counted) {
        this.version++;
        this.pos = out.value.position;
        return result(now(), moves, '');
      }
      if (attempt.kind === 'refused' && !OVERLOAD_CODES.has(attempt.code)) return result(null, moves, `turn refused: ${attempt.code}`);
      lastError = attempt.kind === 'retry' ? attempt.error : `turn refused: ${attempt.code}`;
      retries++;
      retryErrors.push(lastError.replaceAll(code, 'CODE'));
      await sleep(Math.min(500, 50 * 2 ** retries));
    }
    return result(null, await loggedMoves(httpBase, code), `not playable again before the deadline (last: ${lastError})`);
  }

  /**
   * One try of `takeover`: joins the seat, sends the turn once the state is in, and waits for its
   * outcome until `deadline`. A room of decoding clients (`full`) comes back with colyseus.js; the
   * others with a raw connection, as they played (a player's browser decodes on its own machine;
   * here it would take the generator's share of the two cores from the server taking over).
   */
  private reclaimAndPlay(httpBase: string, seatKey: string, turn: Record<string, unknown>, deadline: number): Promise<Attempt> {
    return this.full ? this.reclaimDecoding(httpBase, seatKey, turn, deadline) : this.reclaimRaw(httpBase, seatKey, turn, deadline);
  }

  /**
   * `reclaimAndPlay` on a raw connection. The full state arrives after the join's acknowledgement:
   * the seat is back, and the turn goes. The next patch is the turn's (nothing else changes in the
   * game meanwhile: its other clients stay away); the log, read after every takeover, confirms that
   * it counted (`withLoggedMoves`: a patch of something else would show as an event lost).
   */
  private async reclaimRaw(httpBase: string, seatKey: string, turn: Record<string, unknown>, deadline: number): Promise<Attempt> {
    const conn = await joinRaw(httpBase, 'joinById', this.roomId, { seatKey });
    this.reclaimed.push(conn);
    return new Promise<Attempt>((resolve) => {
      let reclaimedAt: number | undefined;
      let done = false;
      const finish = (a: Attempt) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve({ ...a, reclaimedAt });
      };
      const timer = setTimeout(() => finish({ kind: 'retry', error: 'no answer to the turn' }), Math.max(0, deadline - Date.now()));
      conn.onState = () => {
        if (reclaimedAt !== undefined) return;
        reclaimedAt = now();
        conn.send('turn', turn);
      };
      conn.onPatch = () => {
        if (reclaimedAt !== undefined) finish({ kind: 'accepted', at: now() });
      };
      conn.onMessage = (type, payload) => {
        if (type !== 'rejected') return;
        const r = payload() as { type?: string; code?: string } | undefined;
        if (r?.type === 'turn') finish({ kind: 'refused', code: String(r.code) });
      };
      conn.onClose = (closeCode) => finish({ kind: 'retry', error: `the connection closed (${closeCode})` });
    });
  }

  /** `reclaimAndPlay` with colyseus.js: the turn counts once the decoded version passes it. */
  private async reclaimDecoding(httpBase: string, seatKey: string, turn: Record<string, unknown>, deadline: number): Promise<Attempt> {
    const room: Room = await new Client(httpBase.replace(/^http/, 'ws')).joinById(this.roomId, { seatKey });
    this.reclaimed.push({ close: () => room.leave(true).then(() => undefined) });
    return new Promise<Attempt>((resolve) => {
      let reclaimedAt: number | undefined;
      let done = false;
      const finish = (a: Attempt) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve({ ...a, reclaimedAt });
      };
      const timer = setTimeout(() => finish({ kind: 'retry', error: 'no answer to the turn' }), Math.max(0, deadline - Date.now()));
      // The first state is the seat's, reclaimed; the turn counts once the decoded version passes it.
      room.onStateChange((state: { version?: number }) => {
        if (reclaimedAt === undefined) {
          reclaimedAt = now();
          room.send('turn', turn);
        } else if ((state.version ?? 0) > this.version) finish({ kind: 'accepted', at: now() });
      });
      room.onMessage('rejected', (r: { type?: string; code?: string }) => {
        if (r.type === 'turn') finish({ kind: 'refused', code: String(r.code) });
      });
      room.onMessage('*', () => undefined);
      room.onLeave((closeCode) => finish({ kind: 'retry', error: `the connection closed (${closeCode})` }));
    });
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
    this.settle();
    if (this.full) this.check();
    if (this.pos.result) {
      if (this.target === 'djambi') {
        this.stop();
        this.events.over(this);
        return;
      }
      this.pos = initialPosition(RULES); // the baseline room has no end: the generator starts a new game
    }
    if (this.hurry > 0 && --this.hurry === 0) {
      this.running = false;
      this.hurried(true);
      return;
    }
    if (this.running) {
      if (this.hurry > 0) this.play();
      else this.schedule();
    }
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
    this.settle();
    this.stop(); // the generator's copy of the game can no longer be trusted
  }

  /** Compares what the decoding clients hold with what was played. */
  private check(): void {
    for (const link of this.links) {
      const s = link.state;
      if (!s) continue;
      if (this.target === 'djambi') {
        // The position is the move list's (the state has no FEN): its length, and the position
        // fields the server derives from it, against the generator's own copy of the game.
        const moves = (s.moves as { length: number } | undefined)?.length;
        const position =
          s.ply === this.pos.ply &&
          s.quiet === this.pos.quiet &&
          s.toMove === (this.pos.result ? '' : (this.pos.toMove ?? '')) &&
          s.turnKind === this.pos.turnKind;
        const ok = s.version === this.version && moves === this.version && position;
        this.events.checked(
          ok,
          ok ? '' : `version ${String(s.version)} (played ${this.version}), moves ${moves}, ply/quiet/toMove/turnKind ${position ? 'same' : 'differ'}`,
        );
      } else {
        const ok = s.version === this.version && s.toMove === SEAT_ORDER[this.version % 4];
        this.events.checked(ok, ok ? '' : `version ${String(s.version)} (played ${this.version}), toMove ${String(s.toMove)}`);
      }
    }
  }
}
