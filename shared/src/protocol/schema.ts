/**
 * Helpers to declare wire schemas (valibot) and to check untrusted values with them. Checking
 * never throws: it returns the project's `Result`, whose error names the first bad field.
 */
import * as v from 'valibot';
import { err, ok } from '../result.js';
import type { Result } from '../types.js';

/** A type made deeply read-only: what the wire types are (schemas infer mutable types). */
export type Frozen<T> = T extends readonly (infer U)[] ? readonly Frozen<U>[] : T extends object ? { readonly [K in keyof T]: Frozen<T[K]> } : T;

/** The type a schema produces (mutable, as valibot infers it). */
export type Decoded<S extends v.GenericSchema> = v.InferOutput<S>;

/** The read-only type a schema produces. */
export type Output<S extends v.GenericSchema> = Frozen<v.InferOutput<S>>;

/** Any schema that may be checked with `check` (valibot's generic schema). */
export type AnySchema = v.GenericSchema;

/** Why a value was refused: `bad_payload`, a text, and the dotted path of the bad field if any. */
export interface SchemaError {
  readonly code: 'bad_payload';
  readonly message: string;
  /** The bad field as a dotted path (`"from"`, `"clock.initialSeconds"`); absent for the value itself. */
  readonly path?: string;
}

/** True for `{}`-like objects (not arrays, not typed arrays, not class instances, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** True for any non-array object: enough to decode what the server sent (from any realm). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const quoted = (key: unknown): string => JSON.stringify(String(key).slice(0, 32));

/**
 * A strict object message: `undefined` and `null` read as `{}`, anything but a plain object is
 * refused with `"<what> must be an object"`, and so is any key not in `entries`.
 */
/* @__NO_SIDE_EFFECTS__ */
export function message<const E extends v.ObjectEntries>(entries: E, what = 'payload') {
  return v.pipe(
    v.nullish(v.custom<Record<string, unknown>>(isPlainObject, `${what} must be an object`), {}),
    v.strictObject(entries, (issue) => (issue.expected === 'never' ? `unexpected field ${quoted(issue.input)}` : `${issue.expected ?? 'a field'} is missing`)),
  );
}

/** The dotted path of an issue (`"clock.initialSeconds"`), or undefined for the value itself. */
export function pathOf(issue: v.BaseIssue<unknown>): string | undefined {
  const path = issue.path?.map((item) => String(item.key)).join('.');
  return path === '' ? undefined : path;
}

/** Checks `input` with `schema`; never throws. The error is the first issue, with its path. */
export function check<S extends AnySchema>(schema: S, input: unknown): Result<v.InferOutput<S>, SchemaError> {
  let result: v.SafeParseResult<S>;
  try {
    result = v.safeParse(schema, input, { abortEarly: true });
  } catch {
    // A getter or proxy that throws while being read: still only a bad payload.
    return err('bad_payload', 'the payload could not be read');
  }
  if (result.success) return ok(result.output);
  const issue = result.issues[0];
  const path = pathOf(issue);
  return err('bad_payload', issue.message, path === undefined ? undefined : { path });
}
