/**
 * Join and create failures as codes. The server refuses a join with a Colyseus `ServerError`
 * whose message is `"<code>: <text>"`, and the HTTP API answers `{ error: { code, message } }`;
 * `parseJoinError` is the one place that reads either (docs/PROTOCOL.md, "Joining a room").
 */

/** Codes of join and create failures, as the room sends them. */
export const JOIN_ERROR_CODES = [
  'bad_options',
  'bad_rules',
  'bad_seat_key',
  'removed',
  'seat_taken',
  'no_free_seat',
  'game_started',
  'spectators_full',
  'too_many_joins',
  'too_many_rooms',
  'server_full',
  'storage_unavailable',
  'internal_error',
] as const;

/**
 * Close codes the server uses besides Colyseus's own: `serverRestart` (the process is stopping:
 * reconnect, and rejoin with the seat key if the room is gone), `roomFault` (the room hit an
 * internal error and closed; its game re-opens from the log: rejoin by code with the seat key),
 * `fenced` (another process took the game over: rejoin by code). 4000 is Colyseus's voluntary
 * leave and is never used for these.
 */
export const CLOSE_CODES = Object.freeze({ serverRestart: 4100, roomFault: 4101, fenced: 4102 });
/** Why the room refused a join or a create. */
export type JoinErrorCode = (typeof JOIN_ERROR_CODES)[number];

/**
 * Failures a client may meet besides the room's own: no such room (Colyseus 4212, HTTP 404), the
 * HTTP edge's limits and checks, and no answer at all (`network`).
 */
export const CLIENT_FAILURE_CODES = ['not_found', 'rate_limited', 'forbidden_origin', 'bad_query', 'network'] as const;
/** A failure met by the client rather than sent by the room. */
export type ClientFailureCode = (typeof CLIENT_FAILURE_CODES)[number];

/** A failed join, create or API call, as a code and a human-readable text. */
export interface JoinFailure {
  readonly code: JoinErrorCode | ClientFailureCode;
  readonly message: string;
}

const KNOWN: ReadonlySet<string> = new Set([...JOIN_ERROR_CODES, ...CLIENT_FAILURE_CODES]);
/** Colyseus's "room not found or locked" and "invalid room id" status. */
const NOT_FOUND_STATUS = 4212;

function knownCode(value: unknown): JoinFailure['code'] | null {
  return typeof value === 'string' && KNOWN.has(value) ? (value as JoinFailure['code']) : null;
}

/**
 * The failure in `e`: a Colyseus `ServerError` (`"seat_taken: the seat is taken"`, or 4212 for
 * no such room), an HTTP error body `{ error: { code, message } }`, an `Error` or a string.
 * Never throws; anything it cannot read is `network`.
 */
export function parseJoinError(e: unknown): JoinFailure {
  try {
    if (e !== null && typeof e === 'object' && 'error' in e) {
      const body = (e as { error?: unknown }).error;
      if (body !== null && typeof body === 'object') {
        const { code, message } = body as { code?: unknown; message?: unknown };
        const text = typeof message === 'string' ? message : '';
        const known = knownCode(code);
        if (known) return { code: known, message: stripPrefix(text, known) };
      }
    }
    const obj = e !== null && typeof e === 'object' ? (e as { code?: unknown; message?: unknown }) : {};
    const text = typeof e === 'string' ? e : typeof obj.message === 'string' ? obj.message : '';
    const m = /^([a-z_]+):\s*/.exec(text);
    const prefixed = knownCode(m?.[1]);
    if (m && prefixed) return { code: prefixed, message: text.slice(m[0].length) };
    const code = knownCode(obj.code);
    if (code) return { code, message: text };
    if (obj.code === NOT_FOUND_STATUS || /not found|invalid room/i.test(text)) return { code: 'not_found', message: text };
    return { code: 'network', message: text || String(e ?? 'error') };
  } catch {
    return { code: 'network', message: 'error' };
  }
}

function stripPrefix(text: string, code: string): string {
  return text.startsWith(`${code}:`) ? text.slice(code.length + 1).trim() : text;
}

/** True when `code` is one the room sends (not a client-side failure). */
export function isJoinErrorCode(code: unknown): code is JoinErrorCode {
  return typeof code === 'string' && (JOIN_ERROR_CODES as readonly string[]).includes(code);
}
