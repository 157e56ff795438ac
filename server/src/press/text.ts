/**
 * Message text checks. Text stays text: nothing is escaped or interpreted here, the
 * client renders it as text (never HTML). Control characters are refused, not silently removed.
 */
import { MAX_MESSAGE_CHARS, MAX_PRESS_ID_CHARS } from '@djambi/shared';
import type { Delivery, PressErrorCode, PressRejection, PressResult } from './types.js';

/** Raw strings longer than this (UTF-16 units) are refused before any other work. */
export const MAX_RAW_TEXT_UNITS = MAX_MESSAGE_CHARS * 4;
/** Longest id (channel or pact) accepted in a payload (the shared schemas' bound). */
export const MAX_ID_CHARS = MAX_PRESS_ID_CHARS;

// C0 controls except \t \n \r (normalised first), DEL, C1 controls, bidi embeddings/overrides/isolates
// (they can make text display differently from what it says) and the noncharacters U+FFFE/U+FFFF.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uFFFE\uFFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const INVISIBLE = /[\s\u200B-\u200D\u2060\uFEFF]/g;

/** The cleaned text or the reason it is refused. */
export type CleanText = { ok: true; text: string } | { ok: false; error: PressRejection };

/**
 * Validates and normalises message text: CRLF/CR and U+2028/9 become `\n`, tabs become spaces,
 * runs of blank lines shrink to one, NFC, trimmed; 1..500 code points; no control characters.
 */
export function cleanText(raw: unknown, max = MAX_MESSAGE_CHARS): CleanText {
  if (typeof raw !== 'string') return refuse('bad_payload', '"text" must be a string');
  if (raw.length > max * 4) return refuse('message_too_long', `a message has at most ${max} characters`);
  if (LONE_SURROGATE.test(raw)) return refuse('bad_text', 'the text is not valid Unicode');
  let text = raw.replace(/\r\n?|[\u2028\u2029]/g, '\n').replace(/\t/g, ' ');
  if (FORBIDDEN.test(text)) return refuse('bad_text', 'control characters are not allowed in a message');
  text = text
    .normalize('NFC')
    .replace(/\n[ \u00A0]*\n(?:[ \u00A0]*\n)+/g, '\n\n')
    .trim();
  if (text.replace(INVISIBLE, '').length === 0) return refuse('empty_message', 'the message is empty');
  if (codePoints(text) > max) return refuse('message_too_long', `a message has at most ${max} characters`);
  return { ok: true, text };
}

/** Number of Unicode code points. */
export function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** A short display name for a spectator: cleaned like text, at most 24 code points, or ''. */
export function cleanName(raw: unknown): string {
  if (typeof raw !== 'string') return '';
  const c = cleanText(raw.replace(/\n/g, ' ').slice(0, 200), 200);
  if (!c.ok) return '';
  return Array.from(c.text.replace(/\s+/g, ' ')).slice(0, 24).join('');
}

/** A failed result. */
export function refuse(code: PressErrorCode, message: string, retryAfterMs?: number): { ok: false; error: PressRejection } {
  return { ok: false, error: retryAfterMs === undefined ? { code, message } : { code, message, retryAfterMs } };
}

/** A successful result; deliveries with nobody to reach are dropped. */
export function accepted(deliveries: Delivery[], drawAgreed = false): PressResult {
  const out = deliveries.filter((d) => d.to.length > 0);
  return drawAgreed ? { ok: true, deliveries: out, drawAgreed: true } : { ok: true, deliveries: out };
}

// ---- ids --------------------------------------------------------------------------------------
// Client payloads are checked with the shared schemas (`PRESS_CLIENT_SCHEMAS`, in `Press.handle`).

/** A short id string (channel or pact), or null: what the schemas accept (the room's own pact ids are held to it). */
export function idField(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_CHARS ? value : null;
}
