/** Create options of a `djambi` room: rules, clock and visibility (timings are server settings). */
import { parseRules, type Rules } from '@djambi/shared';
import type { JoinErrorCode } from '../errors.js';
import { parsePressOptions, PRESS_OPTION_KEYS } from '../press/index.js';
import type { PressRoomOptions } from '../press/types.js';
import { isPlainObject } from './validate.js';

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
}

/** Server-wide settings copied into every room's config. */
export interface RoomDefaults {
  readonly graceSeconds: number;
  readonly idleSeconds: number;
}

/** Keys accepted only when creating a room. */
export const CREATE_KEYS = ['rules', 'clock', 'visibility', ...PRESS_OPTION_KEYS] as const;

type Parsed<T> = { ok: true; value: T } | { ok: false; code: JoinErrorCode; message: string };

function bad(message: string, code: JoinErrorCode = 'bad_options'): { ok: false; code: JoinErrorCode; message: string } {
  return { ok: false, code, message };
}

function seconds(value: unknown, name: string, min: number, max: number): Parsed<number> {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    return bad(`"${name}" must be a number of seconds in [${min}, ${max}]`);
  }
  return { ok: true, value };
}

/** Parses the create-time options of a room (join keys are checked separately). */
export function parseRoomConfig(options: unknown, defaults: RoomDefaults): Parsed<RoomConfig> {
  const opts: Record<string, unknown> = isPlainObject(options) ? options : {};
  const rules = parseRules(opts.rules ?? {});
  if (!rules.ok) return bad(rules.error.message, 'bad_rules');

  let clock: ClockConfig | null = null;
  if (opts.clock !== undefined && opts.clock !== null && opts.clock !== false) {
    if (!isPlainObject(opts.clock)) return bad('"clock" must be { initialSeconds, incrementSeconds } or null');
    for (const key of Object.keys(opts.clock)) {
      if (key !== 'initialSeconds' && key !== 'incrementSeconds') return bad(`unknown clock option "${key.slice(0, 32)}"`);
    }
    const initial = seconds(opts.clock.initialSeconds, 'clock.initialSeconds', 1, 7 * 24 * 3600);
    if (!initial.ok) return initial;
    const increment = seconds(opts.clock.incrementSeconds ?? 0, 'clock.incrementSeconds', 0, 24 * 3600);
    if (!increment.ok) return increment;
    clock = { initialMs: Math.round(initial.value * 1000), incrementMs: Math.round(increment.value * 1000) };
  }

  const visibility = opts.visibility ?? 'private';
  if (visibility !== 'private' && visibility !== 'public') return bad('"visibility" must be "private" or "public"');

  // Reconnection grace and idle lifetime are server settings: a client cannot keep a room for a week.
  const { graceSeconds, idleSeconds } = defaults;
  const press = parsePressOptions(opts);
  if (!press.ok) return bad(press.message);
  return { ok: true, value: { rules: rules.value, clock, visibility, graceSeconds, idleSeconds, press: press.value } };
}
