/**
 * A plain, read-only copy of the room state as the server syncs it (docs/PROTOCOL.md), so that
 * the UI and the controller never touch Colyseus objects. `readSnapshot` builds it from the
 * decoded state's `toJSON()` and tolerates missing fields.
 */
import { COLOURS, DEFAULT_RULES, isRecord, rulesOfState, type Colour, type Rules } from '@djambi/shared';

/** A seat that takes turns. */
export interface SeatSnapshot {
  readonly colour: Colour;
  readonly name: string;
  readonly taken: boolean;
  /** `reconnecting`: the connection dropped and may come back within the grace period. */
  readonly presence: 'empty' | 'connected' | 'reconnecting' | 'away' | 'bot';
  /** Server epoch ms of the last presence change. */
  readonly since: number;
  readonly creator: boolean;
  readonly active: boolean;
  readonly clockMs: number;
  readonly swapWith: Colour | '';
  /** Before the start: the holder said it is ready. */
  readonly ready: boolean;
  /** A bot plays for the absent holder ("Blue (bot standing in)"). */
  readonly standIn: boolean;
}

/** One entry of the move list. */
export interface MoveRecord {
  readonly kind: 'turn' | 'pass' | 'resign' | 'timeout' | 'draw' | string;
  readonly colour: Colour | '';
  /** Turn notation for `turn` and `pass`. */
  readonly text: string;
}

/** The clock settings and the running clock. */
export interface ClockSnapshot {
  readonly enabled: boolean;
  readonly initialMs: number;
  readonly incrementMs: number;
  readonly running: Colour | '';
  readonly turnStartedAt: number;
}

/** Everything the client shows about a room. */
export interface GameSnapshot {
  readonly code: string;
  readonly phase: 'waiting' | 'playing' | 'over';
  readonly visibility: 'private' | 'public';
  readonly rules: Rules;
  readonly clock: ClockSnapshot;
  readonly seats: readonly SeatSnapshot[];
  readonly creator: Colour | '';
  /** The host's seat (who starts and may remove players), '' while the host holds none. */
  readonly host: Colour | '';
  readonly spectators: number;
  /** The connected spectators' names, in the order they came. */
  readonly spectatorNames: readonly string[];
  readonly toMove: Colour | '';
  readonly turnKind: 'normal' | 'extra';
  readonly ply: number;
  readonly ruler: Colour | '';
  readonly control: Partial<Record<Colour, string>>;
  readonly active: readonly Colour[];
  readonly eliminations: readonly { colour: Colour; cause: string; by: Colour | ''; ply: number }[];
  readonly moves: readonly MoveRecord[];
  readonly result: { kind: 'win' | 'draw'; winner: Colour | ''; reason: string; ranking: string[] } | null;
  /** The open draw offer; `id` (0 if the server does not say) lets an answer name the offer it answers. */
  readonly drawOffer: { by: Colour | ''; accepted: string; id: number } | null;
  readonly version: number;
}

type Json = Record<string, unknown>;

const obj = (v: unknown): Json => (isRecord(v) ? v : {});
const str = (v: unknown, d = ''): string => (typeof v === 'string' ? v : d);
const num = (v: unknown, d = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : d);
const bool = (v: unknown, d = false): boolean => (typeof v === 'boolean' ? v : d);
const colour = (v: unknown): Colour | '' => (typeof v === 'string' && (COLOURS as readonly string[]).includes(v) ? (v as Colour) : '');
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v && typeof v === 'object' ? Object.values(v as Json) : []);

function readRules(v: unknown): Rules {
  return { ...DEFAULT_RULES, ...rulesOfState(v) } as Rules;
}

/** Build a snapshot from a decoded state's `toJSON()`. */
export function readSnapshot(json: unknown): GameSnapshot {
  const s = obj(json);
  const seatsJson = obj(s.seats);
  const seats: SeatSnapshot[] = [];
  for (const c of COLOURS) {
    const seat = seatsJson[c];
    if (!seat) continue;
    const o = obj(seat);
    const presence = str(o.presence, 'empty');
    seats.push({
      colour: c,
      name: str(o.name),
      taken: bool(o.taken),
      presence: presence === 'connected' || presence === 'away' || presence === 'reconnecting' || presence === 'bot' ? presence : 'empty',
      since: num(o.since),
      creator: bool(o.creator),
      active: bool(o.active, true),
      clockMs: num(o.clockMs),
      swapWith: colour(o.swapWith),
      ready: bool(o.ready),
      standIn: bool(o.standIn),
    });
  }
  const phase = str(s.phase, 'waiting');
  const clock = obj(s.clock);
  const result = obj(s.result);
  const offer = obj(s.drawOffer);
  const control: Partial<Record<Colour, string>> = {};
  for (const [k, v] of Object.entries(obj(s.control))) if (colour(k)) control[k as Colour] = str(v);
  return {
    code: str(s.code),
    phase: phase === 'playing' || phase === 'over' ? phase : 'waiting',
    visibility: str(s.visibility) === 'public' ? 'public' : 'private',
    rules: readRules(s.rules),
    clock: {
      enabled: bool(clock.enabled),
      initialMs: num(clock.initialMs),
      incrementMs: num(clock.incrementMs),
      running: colour(clock.running),
      turnStartedAt: num(clock.turnStartedAt),
    },
    seats,
    creator: colour(s.creator),
    host: colour(s.host),
    spectators: num(s.spectators),
    spectatorNames: list(s.spectatorNames).map((n) => str(n)),
    toMove: colour(s.toMove),
    turnKind: str(s.turnKind) === 'extra' ? 'extra' : 'normal',
    ply: num(s.ply),
    ruler: colour(s.ruler),
    control,
    active: list(s.active)
      .map(colour)
      .filter((c): c is Colour => c !== ''),
    eliminations: list(s.eliminations).map((e) => {
      const o = obj(e);
      return { colour: colour(o.colour) || 'R', cause: str(o.cause), by: colour(o.by), ply: num(o.ply) };
    }),
    moves: list(s.moves).map(readMove),
    result:
      str(result.kind) === 'win' || str(result.kind) === 'draw'
        ? {
            kind: str(result.kind) as 'win' | 'draw',
            winner: colour(result.winner),
            reason: str(result.reason),
            ranking: list(result.ranking).map((x) => str(x)),
          }
        : null,
    drawOffer: colour(offer.by) ? { by: colour(offer.by), accepted: str(offer.accepted), id: num(offer.id) } : null,
    version: num(s.version),
  };
}

/**
 * One move-list entry. The server syncs strings (docs/PROTOCOL.md, "The move list"):
 * `"R c7-c5"`, `"B pass"`, `"Y resign"`, `"G timeout"` or `"draw"`. Objects
 * `{ kind, colour, text }` are read as they are.
 */
export function readMove(m: unknown): MoveRecord {
  if (typeof m !== 'string') {
    const o = obj(m);
    return { kind: str(o.kind), colour: colour(o.colour), text: str(o.text) };
  }
  if (m === 'draw') return { kind: 'draw', colour: '', text: '' };
  const space = m.indexOf(' ');
  const who = colour(space > 0 ? m.slice(0, space) : '');
  const what = space > 0 ? m.slice(space + 1).trim() : m.trim();
  if (what === 'resign' || what === 'timeout') return { kind: what, colour: who, text: '' };
  if (what === 'pass') return { kind: 'pass', colour: who, text: what };
  return { kind: who ? 'turn' : '', colour: who, text: what };
}
