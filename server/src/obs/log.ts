/**
 * Structured JSON logs (pino), one line per event, with the room code in context (a child logger
 * per room) and the seat in the line (`seatFields`). Nothing secret is ever written: seat keys, key hashes, reconnection and restore
 * tokens, passwords, authorization headers and the text of press messages are censored by path
 * (pino's `redact`) and, in every argument of every call, by key (`scrub`), including the
 * console-style arguments Colyseus passes to its logger.
 */
import { format } from 'node:util';
import pino from 'pino';

/** The logger every part of the server writes to. */
export type Logger = pino.Logger;

/** Log levels, most verbose first; `silent` writes nothing. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Keys whose values never reach a log line, wherever they appear (compared case-insensitively). */
export const SECRET_KEYS = [
  'seatKey',
  'key',
  'keyHash',
  'token',
  'hostToken',
  'restoreToken',
  'reconnectionToken',
  'password',
  'authorization',
  'cookie',
  'set-cookie',
  'text',
] as const;

/** What a censored value is replaced with. */
export const CENSORED = '[redacted]';

const SECRET = new Set(SECRET_KEYS.map((k) => k.toLowerCase()));

/** pino's redaction paths: the secret keys at the top level and one level down, plus request headers. */
export const REDACT_PATHS: readonly string[] = [
  ...SECRET_KEYS.flatMap((k) => (/^[A-Za-z]\w*$/.test(k) ? [k, `*.${k}`] : [`["${k}"]`, `*["${k}"]`])),
  'req.headers.authorization',
  'req.headers.cookie',
];

/** Whether a level name is one of `LOG_LEVELS`. */
export function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

/** Options of `createLogger`. */
export interface LoggerOptions {
  /** Default `info`. */
  readonly level?: LogLevel;
  /** Where lines go (default stdout); tests pass a stream they read. */
  readonly destination?: pino.DestinationStream;
  /** Fields on every line (e.g. `{ node: 'game1' }`). */
  readonly base?: Record<string, unknown>;
}

/** A JSON logger with the redaction config. */
export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { pid: process.pid, ...options.base },
      redact: { paths: [...REDACT_PATHS], censor: CENSORED },
      hooks: {
        logMethod(args, method) {
          method.apply(this, args.map((a) => scrub(a)) as Parameters<typeof method>);
        },
      },
      serializers: { err: pino.stdSerializers.err },
    },
    options.destination,
  );
}

/**
 * A copy of `value` with every secret key's value censored, at any depth (errors keep their name,
 * message and stack). Strings and numbers pass unchanged; cycles and depth past 8 are cut.
 */
export function scrub(value: unknown, depth = 0, seen: WeakSet<object> = new WeakSet()): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value) || depth > 8) return '[…]';
  seen.add(value);
  if (value instanceof Error) {
    const out: Record<string, unknown> = { name: value.name, message: value.message, stack: value.stack };
    for (const [k, v] of Object.entries(value)) out[k] = SECRET.has(k.toLowerCase()) ? CENSORED : scrub(v, depth + 1, seen);
    return Object.assign(Object.create(Error.prototype), out);
  }
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1, seen));
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return scrub((value as { toJSON: () => unknown }).toJSON(), depth + 1, seen);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET.has(k.toLowerCase()) ? CENSORED : scrub(v, depth + 1, seen);
  return out;
}

/** The Colyseus logger interface (`new Server({ logger })`). */
export interface ColyseusLogger {
  trace(...args: unknown[]): void;
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/**
 * An adapter that gives Colyseus's console-style calls (`logger.debug('✅', 3, 'room(s) restored')`)
 * to pino as one message: pino keeps only the first string when it has no `%` placeholders. The
 * arguments are scrubbed before they are joined.
 */
export function colyseusLogger(log: Logger): ColyseusLogger {
  const child = log.child({ src: 'colyseus' });
  const at =
    (level: 'trace' | 'debug' | 'info' | 'warn' | 'error') =>
    (...args: unknown[]): void => {
      if (!child.isLevelEnabled(level)) return;
      child[level](format(...args.map((a) => scrub(a))));
    };
  return { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** The logger of one room (`room` = its code on every line). */
export function roomLogger(log: Logger, code: string): Logger {
  return log.child({ room: code });
}

/**
 * The fields that name one seat of a room (`seat` = its colour) or a spectator in a log line. They
 * go into the line itself, not into a child logger: making a child runs pino's redaction over its
 * bindings, about 10 µs for each join and leave logged.
 */
export function seatFields(seat: string | null, sessionId: string): { seat: string; sessionId: string } | { spectator: string } {
  return seat === null ? { spectator: sessionId } : { seat, sessionId };
}
