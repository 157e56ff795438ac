/** Create options of a `djambi` room: rules, clock and visibility (timings are server settings). */
import { type BotPersonality, check, CREATE_KEYS, type Colour, CreateOptions, isPlainObject, JOIN_KEYS, ok, type Rules } from '@djambi/shared';
import type { JoinErrorCode } from '../errors.js';
import type { PressRoomOptions } from '../press/types.js';

export { CREATE_KEYS };

/** Per-player clock: total time plus an increment per turn, in milliseconds. */
export interface ClockConfig {
  readonly initialMs: number;
  readonly incrementMs: number;
}

/** Everything a room is created with (serialisable, stored with the game record). */
export interface RoomConfig {
  readonly rules: Rules;
  readonly clock: ClockConfig | null;
  readonly visibility: 'private' | 'public';
  /** Seconds a dropped connection may come back with `client.reconnect` (allowReconnection). */
  readonly graceSeconds: number;
  /** Seconds an empty room is kept before it is disposed. */
  readonly idleSeconds: number;
  /** Negotiation options (`press_visibility`, `reveal_press_after_game`); public. */
  readonly press: PressRoomOptions;
  /** SHA-256 (hex) of the host token `POST /api/rooms` made (absent: the first to sit hosts). */
  readonly hostHash?: string;
  /** The computer players' create options, replayed with the game (absent in games stored before them: no autostart, stand-in on). */
  readonly bots?: { readonly autostart: boolean; readonly standIn: boolean; readonly personalities: Partial<Record<Colour, BotPersonality>> };
}

/** Server-wide settings copied into every room's config. */
export interface RoomDefaults {
  readonly graceSeconds: number;
  readonly idleSeconds: number;
}

/**
 * The `hostHash` create option as server code gives it (`POST /api/rooms`, a rematch): an
 * object, which a client's create options (JSON or msgpack: plain values only) can never hold,
 * so no client names its own host. The matchmaker hands create options to the room as they are
 * (a shallow copy), and a new room is always made in the process that was asked, with Redis too
 * (`cluster.ts`, `selectProcessIdToCreateRoom`); were one ever serialised to another process, the
 * grant would arrive as a plain object and be refused, never taken for a client's.
 */
export class HostGrant {
  constructor(readonly hash: string) {}
}

/** The create option making the holder of the token hashed to `hash` (SHA-256, hex) the host. */
export function hostOption(hash: string): { readonly hostHash: HostGrant } {
  return { hostHash: new HostGrant(hash) };
}

/**
 * The body of `POST /api/rooms` checked before any room exists: a JSON object of create options
 * only (a `hostHash` is ignored: the server's own grant replaces it), checked with the shared
 * `CreateOptions` schema. A key of another kind (`hasOwnProperty`, a join option) is refused
 * here, before the matchmaker builds a room it could not clean up.
 */
export function parseCreateBody(body: unknown): Parsed<RoomConfig> {
  if (!isPlainObject(body)) return bad({ code: 'bad_options', message: 'body must be a JSON object' });
  for (const key of Object.keys(body)) {
    if ((CREATE_KEYS as readonly string[]).includes(key)) continue;
    const path = key.slice(0, 32);
    const message = (JOIN_KEYS as readonly string[]).includes(key) ? `"${key}" is a join option; join the room to take a seat` : `unknown option "${path}"`;
    return bad({ code: 'bad_options', message, path });
  }
  const { hostHash: _ignored, ...options } = body;
  return parseRoomConfig(options, { graceSeconds: 0, idleSeconds: 0 });
}

/** Why create options were refused: `bad_rules` (the engine's) or `bad_options`, and the bad field's path. */
export interface OptionsError {
  readonly code: JoinErrorCode;
  readonly message: string;
  /** The bad field as a dotted path (`"clock.initialSeconds"`, `"rules"`). */
  readonly path?: string;
}

/**
 * The project's `Result` with an `OptionsError`. A failure also repeats `code` and `message` at
 * the top level for callers written before `error` existed; new code reads `error`.
 */
export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: OptionsError; readonly code: JoinErrorCode; readonly message: string };

function bad(error: OptionsError): { readonly ok: false; readonly error: OptionsError; readonly code: JoinErrorCode; readonly message: string } {
  return { ok: false, error, code: error.code, message: error.message };
}

/**
 * Parses the create-time options of a room with the shared `CreateOptions` schema (join keys and
 * unknown keys are checked separately, by `checkJoinOptions`). The `board` rule option picks the
 * square game or a hex game (shared/variants/HEX.md); its seats are `seatsOf(rules)`.
 */
export function parseRoomConfig(options: unknown, defaults: RoomDefaults): Parsed<RoomConfig> {
  const create: Record<string, unknown> = {};
  if (isPlainObject(options)) {
    for (const key of CREATE_KEYS) if (Object.hasOwn(options, key)) create[key] = options[key];
  }
  const grant = create.hostHash;
  if (grant !== undefined && !(grant instanceof HostGrant)) {
    return bad({ code: 'bad_options', message: '"hostHash" is set by the server only (POST /api/rooms makes a hosted room)', path: 'hostHash' });
  }
  if (grant) create.hostHash = grant.hash;
  const res = check(CreateOptions, create);
  if (!res.ok) {
    const { message, path } = res.error;
    const code: JoinErrorCode = path === 'rules' || path?.startsWith('rules.') ? 'bad_rules' : 'bad_options';
    return bad(path === undefined ? { code, message } : { code, message, path });
  }
  const o = res.value;
  const clock = o.clock ? { initialMs: Math.round(o.clock.initialSeconds * 1000), incrementMs: Math.round(o.clock.incrementSeconds * 1000) } : null;
  // Reconnection grace and idle lifetime are server settings: a client cannot keep a room for a week.
  const { graceSeconds, idleSeconds } = defaults;
  const press: PressRoomOptions = { press_visibility: o.press_visibility, reveal_press_after_game: o.reveal_press_after_game };
  const host = o.hostHash ? { hostHash: o.hostHash } : {};
  return ok({ rules: o.rules, clock, visibility: o.visibility, graceSeconds, idleSeconds, press, ...host });
}
