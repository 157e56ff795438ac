/**
 * Shape checks for everything a client sends, with the shared protocol schemas
 * (`@djambi/shared`): each bounds every string, list and number and refuses unknown fields, so a
 * check reads a few fields whatever it is given (the payload's bytes were bounded before it was
 * decoded: `maxPayloadBytes`, in the frame gate). They never throw: each returns the typed value
 * or a rejection whose `path` names the bad field. No game rule lives here (legality is the engine's).
 */
import {
  AddBotMessage,
  type BotLevel,
  check,
  COLOURS,
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

/** Validates the shape of a `turn` message (legality is checked by the engine). */
export function checkTurnMessage(message: unknown): Checked<TurnMessage> {
  return check(TurnMessageSchema, message);
}

/** Validates a message that carries no data (`start`, `resign`). */
export function checkEmpty(message: unknown): Checked<Record<string, never>> {
  const res = check(EmptyMessage, message);
  return res.ok ? ok({}) : res;
}

/** Parses a colour letter. */
export function parseColour(value: unknown): Colour | undefined {
  return (COLOURS as readonly unknown[]).includes(value) ? (value as Colour) : undefined;
}

/** Validates a `swap` message: `{ colour }`. */
export function checkSwap(message: unknown): Checked<{ colour: Colour }> {
  return check(SwapMessage, message);
}

/** Validates a `ready` message: `{ ready: boolean }`. */
export function checkReady(message: unknown): Checked<{ ready: boolean }> {
  return check(ReadyMessage, message);
}

/** Validates a `remove_seat` message: `{ colour }`. */
export function checkRemoveSeat(message: unknown): Checked<{ colour: Colour }> {
  return check(RemoveSeatMessage, message);
}

/** Validates an `add_bot` message: `{ colour, level }`. */
export function checkAddBot(message: unknown): Checked<{ colour: Colour; level: BotLevel }> {
  return check(AddBotMessage, message);
}

/** Validates a `remove_bot` message: `{ colour }`. */
export function checkRemoveBot(message: unknown): Checked<{ colour: Colour }> {
  return check(RemoveBotMessage, message);
}

/** Validates a `name` message: `{ name }` (cleaned, 1..24 characters). */
export function checkRename(message: unknown): Checked<{ name: string }> {
  return check(NameMessage, message);
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
  if (!isPlainObject(opts)) return check(JoinOptionsSchema, opts);
  const join: Record<string, unknown> = {};
  try {
    for (const key of Object.keys(opts)) {
      if ((JOIN_KEYS as readonly string[]).includes(key)) join[key] = opts[key];
      else if (!extraKeys.includes(key)) return err('bad_payload', `unknown option "${key.slice(0, 32)}"`, { path: key.slice(0, 32) });
    }
  } catch {
    // A getter that throws (never from JSON; checks never throw).
    return err('bad_payload', 'the options could not be read');
  }
  return check(JoinOptionsSchema, join);
}

/** Validates a `rematch` message (`{ action: 'offer' | 'accept' | 'decline' }`). */
export function checkRematch(message: unknown): Checked<RematchMessage> {
  return check(RematchMessageSchema, message);
}
