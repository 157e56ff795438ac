/** Server-side settings of the `djambi` room class, and the room's public listing. */
import type { Colour } from '@djambi/shared';
import type { Match, Phase } from '../match/match.js';
import type { PressVisibility } from '../press/types.js';
import type { GameStore } from '../store/types.js';
import { colyseusCap, DEFAULT_ADMISSION, type AdmissionLimits } from './admission.js';
import { DEFAULT_BUDGET, type BudgetLimits } from './budget.js';
import type { Connections } from '../table/connections.js';
import { type BotSettings, DEFAULT_BOT_SETTINGS } from '../table/bots.js';
import type { RoomDefaults } from '../match/config.js';

/** Colyseus's client cap: never reached, admission (seats apart from spectators) decides first. */
export const MAX_CLIENTS = colyseusCap(DEFAULT_ADMISSION);

/** Server-side settings of the room class (see `createServer`). */
export interface DjambiRoomSettings extends RoomDefaults {
  /** Public base URL for invite links, e.g. `http://localhost:2567`; null = not known. */
  readonly publicUrl: string | null;
  /** The clock of the room, epoch ms (`Date.now`; tests move it forward). */
  readonly now: () => number;
  /** Live rooms one process holds at most; a create beyond it is refused with `server_full`. */
  readonly maxRooms: number;
  /** Seconds a room that nobody ever joined is kept. */
  readonly unjoinedSeconds: number;
  /** Seat, spectator and reservation caps. */
  readonly admission: AdmissionLimits;
  /** The message budget of every connection. */
  readonly budget: BudgetLimits;
  /** The game log (null: games live in memory only). */
  readonly store: GameStore | null;
  /**
   * A per-process secret that only server code knows: a create with `{ restore: { code, token } }`
   * re-opens a stored game (clients cannot ask for that).
   */
  readonly restoreToken: string;
  /** Where the rooms count what happens (the process's `/metrics`); null: not counted. */
  readonly metrics: RoomMetrics | null;
  /** How the rooms' computer players think and how fast they answer (see `bots.ts`). */
  readonly bots: BotSettings;
}

/** What the rooms report to the process's metrics (see `obs/metrics.ts`). */
export interface RoomMetrics {
  /** A client's message was refused with `code`. */
  rejected(code: string): void;
  /** A turn was accepted (saved, applied and published). */
  turnAccepted(): void;
  /** From a turn's arrival to the patch that shows it, in ms. */
  observeTurnToPatch(ms: number): void;
  /** A room hit an internal error in `where` (see `DjambiRoom.fault`). */
  fault(where: string): void;
}

/** Defaults of the room settings (see `createServer`). */
export const DEFAULT_ROOM_SETTINGS: DjambiRoomSettings = Object.freeze({
  graceSeconds: 20,
  idleSeconds: 600,
  publicUrl: null,
  now: Date.now,
  maxRooms: 5000,
  unjoinedSeconds: 120,
  admission: DEFAULT_ADMISSION,
  budget: DEFAULT_BUDGET,
  store: null,
  restoreToken: '',
  metrics: null,
  bots: DEFAULT_BOT_SETTINGS,
});

/** Public description of a room (listing metadata and `GET /api/rooms/CODE`). */
export interface RoomListing {
  readonly code: string;
  readonly phase: Phase;
  readonly visibility: 'private' | 'public';
  readonly press_visibility: PressVisibility;
  readonly reveal_press_after_game: boolean;
  readonly players: number;
  readonly seats: { colour: Colour; name: string; presence: string }[];
  readonly seatsTaken: number;
  readonly spectators: number;
  readonly clock: { initialSeconds: number; incrementSeconds: number } | null;
  readonly rules: Record<string, unknown>;
  readonly moves: number;
  readonly createdAt: number;
}

/** The listing of a room. */
export function describeRoom(code: string, match: Match, links: Connections, spectators: number, createdAt: number): RoomListing {
  const config = match.config;
  const clock = config.clock;
  return {
    code,
    phase: match.phase,
    visibility: config.visibility,
    press_visibility: config.press.press_visibility,
    reveal_press_after_game: config.press.reveal_press_after_game,
    players: config.rules.players,
    seats: [...match.seats.seats.values()].map((s) => ({ colour: s.colour, name: s.name, presence: links.of(s.colour).presence })),
    seatsTaken: match.seats.takenCount(),
    spectators,
    clock: clock ? { initialSeconds: clock.initialMs / 1000, incrementSeconds: clock.incrementMs / 1000 } : null,
    rules: { ...config.rules },
    moves: match.game.length,
    createdAt,
  };
}
