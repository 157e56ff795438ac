/**
 * The one `Result` shape of the project (the engine's, declared in `types.ts`) and its two
 * constructors. Every check of untrusted input returns one of these instead of throwing.
 */
import type { EngineError, Result } from './types.js';

export type { EngineError, Result };

/** A successful result. */
export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

/**
 * A failed result with `error: { code, message }`; `details` (e.g. `{ path }`) are added to the
 * error only when given, so an error without them has exactly two keys.
 */
export function err<C extends string, D extends object = Record<never, never>>(
  code: C,
  message: string,
  details?: D,
): { readonly ok: false; readonly error: EngineError<C> & D } {
  const error = details === undefined ? { code, message } : { ...details, code, message };
  return { ok: false, error: error as EngineError<C> & D };
}
