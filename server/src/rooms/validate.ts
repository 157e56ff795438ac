/**
 * Shape checks for everything a client sends: the size limit first (`payloadSize`), then the
 * shared protocol schemas (`@djambi/shared`). They never throw: each returns the typed value or a
 * rejection whose `path` names the bad field. No game rule lives here (legality is the engine's).
 */
import {
  AddBotMessage,
  type AnySchema,
  type BotLevel,
  check,
  COLOURS,
  type Decoded,
  cleanDisplayName,
  type Colour,
  EmptyMessage,
  err,
  isPlainObject,
  JOIN_KEYS,
  JoinOptions as JoinOptionsSchema,
  RematchMessage as RematchMessageSchema,
  type RematchMessage,
  type JoinOptions,
  MAX_NAME_CHARS,
  NameMessage,
  ok,
  ReadyMessage,
  RemoveBotMessage,
  RemoveSeatMessage,
  type Result,
  SwapMessage,
  TurnMessage as TurnMessageSchema,
  type TurnMessage,
  stripInvisible,
} from '@djambi/shared';
import type { Rejection } from '../errors.js';

export { isPlainObject, JOIN_KEYS, MAX_NAME_CHARS, stripInvisible };
/** A checked `turn` message (`{ turn, version? }`) and checked join options: the shared schemas' outputs. */
export type { JoinOptions, TurnMessage };

/** A checked value or the rejection to send (the project's one `Result` shape). */
export type Checked<T> = Result<T, Rejection>;

/** Largest accepted message payload, in (approximate) encoded bytes. */
export const MAX_PAYLOAD_BYTES = 1024;
/**
 * Largest accepted payload of a press message (`press_*`, `pact_*`, `draw_*`). A legal message
 * holds up to 500 code points, 2000 UTF-16 units at most, which `payloadSize` counts as up to
 * about 6 KB; the press refuses longer text itself (`message_too_long`).
 */
export const MAX_PRESS_PAYLOAD_BYTES = 8 * 1024;
/** Largest accepted join or create options, in approximate encoded bytes. */
export const MAX_OPTIONS_BYTES = 4096;

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
  // A real typed array (not an object that merely inherits from one, whose `byteLength` throws).
  if (ArrayBuffer.isView(value)) return value.byteLength + 5;
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
  let size: number;
  try {
    size = payloadSize(message, budget);
  } catch {
    // A getter or proxy that throws while being measured (never from msgpack; checks never throw).
    return err('bad_payload', 'the payload could not be read');
  }
  if (size > budget) return err('payload_too_large', `payload over ${budget} bytes`);
  return ok(message);
}

/** Common envelope check: a plain object, within the size limit, with only `allowed` keys. */
export function checkObject(message: unknown, allowed: readonly string[]): Checked<Record<string, unknown>> {
  const size = checkSize(message);
  if (!size.ok) return size;
  if (message === undefined || message === null) return ok({});
  if (!isPlainObject(message)) return err('bad_payload', 'payload must be an object');
  for (const key of Object.keys(message)) {
    if (!allowed.includes(key)) return err('bad_payload', `unexpected field "${key.slice(0, 32)}"`, { path: key.slice(0, 32) });
  }
  return ok(message);
}

/** Size first (`payload_too_large`), then the shape with `schema` (`bad_payload` with the field's path). */
function checkWith<S extends AnySchema>(schema: S, message: unknown, budget = MAX_PAYLOAD_BYTES): Checked<Decoded<S>> {
  const size = checkSize(message, budget);
  if (!size.ok) return size;
  return check(schema, message);
}

/** Validates the shape of a `turn` message (legality is checked by the engine). */
export function checkTurnMessage(message: unknown): Checked<TurnMessage> {
  return checkWith(TurnMessageSchema, message);
}

/** Validates a message that carries no data (`start`, `resign`). */
export function checkEmpty(message: unknown): Checked<Record<string, never>> {
  const res = checkWith(EmptyMessage, message);
  return res.ok ? ok({}) : res;
}

/** Parses a colour letter. */
export function parseColour(value: unknown): Colour | undefined {
  return (COLOURS as readonly unknown[]).includes(value) ? (value as Colour) : undefined;
}

/** Validates a `swap` message: `{ colour }`. */
export function checkSwap(message: unknown): Checked<{ colour: Colour }> {
  return checkWith(SwapMessage, message);
}

/** Validates a `ready` message: `{ ready: boolean }`. */
export function checkReady(message: unknown): Checked<{ ready: boolean }> {
  return checkWith(ReadyMessage, message);
}

/** Validates a `remove_seat` message: `{ colour }`. */
export function checkRemoveSeat(message: unknown): Checked<{ colour: Colour }> {
  return checkWith(RemoveSeatMessage, message);
}

/** Validates an `add_bot` message: `{ colour, level }`. */
export function checkAddBot(message: unknown): Checked<{ colour: Colour; level: BotLevel }> {
  return checkWith(AddBotMessage, message);
}

/** Validates a `remove_bot` message: `{ colour }`. */
export function checkRemoveBot(message: unknown): Checked<{ colour: Colour }> {
  return checkWith(RemoveBotMessage, message);
}

/** Validates a `name` message: `{ name }` (cleaned, 1..24 characters). */
export function checkRename(message: unknown): Checked<{ name: string }> {
  return checkWith(NameMessage, message);
}

/** Trims a display name (`cleanDisplayName`); undefined when it is not an acceptable string. */
export function cleanName(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const name = cleanDisplayName(value);
  return name.length > MAX_NAME_CHARS ? undefined : name;
}

/** Validates join options; `extraKeys` are the create-only keys tolerated here (and not checked). */
export function checkJoinOptions(options: unknown, extraKeys: readonly string[] = []): Checked<JoinOptions> {
  const opts = options ?? {};
  const size = checkSize(opts, MAX_OPTIONS_BYTES);
  if (!size.ok) return size.error.code === 'payload_too_large' ? err('bad_payload', 'options too large') : size;
  if (!isPlainObject(opts)) return check(JoinOptionsSchema, opts);
  const join: Record<string, unknown> = {};
  for (const key of Object.keys(opts)) {
    if ((JOIN_KEYS as readonly string[]).includes(key)) join[key] = opts[key];
    else if (!extraKeys.includes(key)) return err('bad_payload', `unknown option "${key.slice(0, 32)}"`, { path: key.slice(0, 32) });
  }
  return check(JoinOptionsSchema, join);
}

/** Validates a `rematch` message (`{ action: 'offer' | 'accept' | 'decline' }`). */
export function checkRematch(message: unknown): Checked<RematchMessage> {
  return checkWith(RematchMessageSchema, message);
}
