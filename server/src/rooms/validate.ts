/**
 * Shape checks for everything a client sends. They never throw: each returns the
 * typed value or a rejection. No game rule lives here (legality is the engine's).
 */
import type { Colour, MoveTurn, Turn } from '@djambi/shared';
import type { Rejection } from '../errors.js';

export type Checked<T> = { ok: true; value: T } | { ok: false; error: Rejection };

/** Largest accepted message payload, in (approximate) encoded bytes. */
export const MAX_PAYLOAD_BYTES = 1024;
/**
 * Largest accepted payload of a press message (`press_*`, `pact_*`, `draw_*`). A legal message
 * holds up to 500 code points, 2000 UTF-16 units at most, which `payloadSize` counts as up to
 * about 6 KB; the press refuses longer text itself (`message_too_long`).
 */
export const MAX_PRESS_PAYLOAD_BYTES = 8 * 1024;
/** Longest square string passed on to the engine (a real square has 2 characters). */
const MAX_SQUARE_CHARS = 4;
/** Longest player name. */
export const MAX_NAME_CHARS = 24;
/** A seat key is 32 hex characters; allow some slack, refuse anything longer. */
const MAX_SEAT_KEY_CHARS = 64;

const COLOUR_SET: ReadonlySet<string> = new Set(['R', 'B', 'Y', 'G']);

function fail(code: Rejection['code'], message: string): { ok: false; error: Rejection } {
  return { ok: false, error: { code, message } };
}

/** True for `{}`-like objects (not arrays, not typed arrays, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Approximate encoded size of a decoded message, stopping as soon as `budget` is exceeded
 * (so a huge payload costs no more than the budget to measure). Returns Infinity past the budget
 * or past a nesting depth of 8.
 */
export function payloadSize(value: unknown, budget = MAX_PAYLOAD_BYTES, depth = 0): number {
  if (depth > 8) return Infinity;
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'number') return 9;
  if (typeof value === 'string') return value.length * 3 + 5;
  if (typeof value === 'bigint') return 9;
  if (value instanceof Uint8Array) return value.byteLength + 5;
  if (Array.isArray(value)) {
    let size = 5;
    for (const item of value) {
      size += payloadSize(item, budget - size, depth + 1);
      if (size > budget) return Infinity;
    }
    return size;
  }
  if (typeof value === 'object') {
    let size = 5;
    for (const key in value as Record<string, unknown>) {
      size += key.length * 3 + 5 + payloadSize((value as Record<string, unknown>)[key], budget - size, depth + 1);
      if (size > budget) return Infinity;
    }
    return size;
  }
  return Infinity;
}

/** Refuses a payload over `budget` approximate bytes (or nested deeper than 8) with `payload_too_large`. */
export function checkSize(message: unknown, budget = MAX_PAYLOAD_BYTES): Checked<unknown> {
  if (payloadSize(message, budget) > budget) return fail('payload_too_large', `payload over ${budget} bytes`);
  return { ok: true, value: message };
}

/** Common envelope check: a plain object, within the size limit, with only `allowed` keys. */
export function checkObject(message: unknown, allowed: readonly string[]): Checked<Record<string, unknown>> {
  const size = checkSize(message);
  if (!size.ok) return size;
  if (message === undefined || message === null) return { ok: true, value: {} };
  if (!isPlainObject(message)) return fail('bad_payload', 'payload must be an object');
  for (const key of Object.keys(message)) {
    if (!allowed.includes(key)) return fail('bad_payload', `unexpected field "${key.slice(0, 32)}"`);
  }
  return { ok: true, value: message };
}

function optionalSquare(obj: Record<string, unknown>, key: string): Checked<string | undefined> {
  const v = obj[key];
  if (v === undefined || v === null) return { ok: true, value: undefined };
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_SQUARE_CHARS) {
    return fail('bad_payload', `"${key}" must be a square such as "e5"`);
  }
  return { ok: true, value: v };
}

/** A `turn` message: a complete turn plus an optional state `version`. */
export interface TurnMessage {
  readonly turn: Turn;
  readonly version?: number;
}

/** Validates the shape of a `turn` message (legality is checked by the engine). */
export function checkTurnMessage(message: unknown): Checked<TurnMessage> {
  const env = checkObject(message, ['from', 'to', 'placement', 'exit', 'reporterTarget', 'pass', 'version']);
  if (!env.ok) return env;
  const m = env.value;
  let version: number | undefined;
  if (m.version !== undefined && m.version !== null) {
    if (typeof m.version !== 'number' || !Number.isInteger(m.version) || m.version < 0) {
      return fail('bad_payload', '"version" must be a non-negative integer');
    }
    version = m.version;
  }
  if (m.pass !== undefined) {
    if (m.pass !== true) return fail('bad_payload', '"pass" must be true');
    for (const key of ['from', 'to', 'placement', 'exit', 'reporterTarget']) {
      if (m[key] !== undefined && m[key] !== null) return fail('bad_payload', `a pass has no "${key}"`);
    }
    return { ok: true, value: { turn: { pass: true }, version } };
  }
  const turn: { -readonly [K in keyof MoveTurn]?: MoveTurn[K] } = {};
  for (const key of ['from', 'to', 'placement', 'exit', 'reporterTarget'] as const) {
    const sq = optionalSquare(m, key);
    if (!sq.ok) return sq;
    if (sq.value !== undefined) turn[key] = sq.value;
  }
  if (turn.from === undefined || turn.to === undefined) return fail('bad_payload', 'a turn needs "from" and "to"');
  return { ok: true, value: { turn: turn as MoveTurn, version } };
}

/** Validates a message that carries no data (`start`, `resign`). */
export function checkEmpty(message: unknown): Checked<Record<string, never>> {
  const env = checkObject(message, []);
  if (!env.ok) return env;
  return { ok: true, value: {} };
}

/** Parses a colour letter. */
export function parseColour(value: unknown): Colour | undefined {
  return typeof value === 'string' && COLOUR_SET.has(value) ? (value as Colour) : undefined;
}

/** Validates a `swap` message: `{ colour }`. */
export function checkSwap(message: unknown): Checked<{ colour: Colour }> {
  const env = checkObject(message, ['colour']);
  if (!env.ok) return env;
  const colour = parseColour(env.value.colour);
  if (!colour) return fail('bad_payload', '"colour" must be one of R, B, Y, G');
  return { ok: true, value: { colour } };
}

/** Validates a `ready` message: `{ ready: boolean }`. */
export function checkReady(message: unknown): Checked<{ ready: boolean }> {
  const env = checkObject(message, ['ready']);
  if (!env.ok) return env;
  if (typeof env.value.ready !== 'boolean') return fail('bad_payload', '"ready" must be true or false');
  return { ok: true, value: { ready: env.value.ready } };
}

/** Validates a `name` message: `{ name }`. */
export function checkRename(message: unknown): Checked<{ name: string }> {
  const env = checkObject(message, ['name']);
  if (!env.ok) return env;
  const name = cleanName(env.value.name);
  if (name === undefined || name === '') return fail('bad_payload', `"name" must be 1..${MAX_NAME_CHARS} printable characters`);
  return { ok: true, value: { name } };
}

/** Trims a display name; undefined when it is not an acceptable string. */
export function cleanName(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // The client renders names as text, never HTML; what is dropped here could still mislead.
  const name = stripInvisible(value).replace(/\s+/g, ' ').trim();
  if (name.length > MAX_NAME_CHARS) return undefined;
  return name;
}

/**
 * Drops control characters, bidi controls and isolates (which can reverse how the rest of a line
 * reads), and invisible format characters (zero-width spaces, soft hyphens, word joiners,
 * tags...), keeping only the zero-width joiner that emoji sequences need; line and paragraph
 * separators become spaces.
 */
export function stripInvisible(text: string): string {
  return text.replace(/[\u2028\u2029]/g, ' ').replace(/(?!\u200d)[\p{Cc}\p{Cf}\u115f\u1160\u3164\uffa0]/gu, '');
}

/** Join options (`joinById(code, options)`; also the joining part of `create`). */
export interface JoinOptions {
  readonly name?: string;
  readonly colour?: Colour;
  readonly spectate: boolean;
  readonly seatKey?: string;
}

/** Keys accepted in join options. */
export const JOIN_KEYS = ['name', 'colour', 'spectate', 'seatKey'] as const;

/** Validates join options; `extraKeys` are the create-only keys tolerated here. */
export function checkJoinOptions(options: unknown, extraKeys: readonly string[] = []): Checked<JoinOptions> {
  const opts = options ?? {};
  if (payloadSize(opts, 4096) > 4096) return fail('bad_payload', 'options too large');
  if (!isPlainObject(opts)) return fail('bad_payload', 'options must be an object');
  for (const key of Object.keys(opts)) {
    if (!(JOIN_KEYS as readonly string[]).includes(key) && !extraKeys.includes(key)) {
      return fail('bad_payload', `unknown option "${key.slice(0, 32)}"`);
    }
  }
  let name: string | undefined;
  if (opts.name !== undefined && opts.name !== null) {
    name = cleanName(opts.name);
    if (name === undefined) return fail('bad_payload', `"name" must be a string of at most ${MAX_NAME_CHARS} characters`);
  }
  let colour: Colour | undefined;
  if (opts.colour !== undefined && opts.colour !== null) {
    colour = parseColour(opts.colour);
    if (!colour) return fail('bad_payload', '"colour" must be one of R, B, Y, G');
  }
  if (opts.spectate !== undefined && opts.spectate !== null && typeof opts.spectate !== 'boolean') {
    return fail('bad_payload', '"spectate" must be a boolean');
  }
  const spectate = opts.spectate === true;
  let seatKey: string | undefined;
  if (opts.seatKey !== undefined && opts.seatKey !== null) {
    if (typeof opts.seatKey !== 'string' || opts.seatKey.length === 0 || opts.seatKey.length > MAX_SEAT_KEY_CHARS) {
      return fail('bad_payload', '"seatKey" must be a seat key string');
    }
    seatKey = opts.seatKey;
  }
  if (spectate && (seatKey !== undefined || colour !== undefined)) {
    return fail('bad_payload', '"spectate" cannot be combined with "seatKey" or "colour"');
  }
  return { ok: true, value: { name, colour, spectate, seatKey } };
}
