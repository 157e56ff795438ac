/**
 * Room codes: 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L), reserved
 * through Colyseus presence so they stay unique across processes sharing a presence.
 */
import { randomInt } from 'node:crypto';
import type { Presence } from '@colyseus/core';

/** The code alphabet (31 symbols: 2-9 and A-Z without I, L, O). */
export const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
/** Length of a room code. */
export const CODE_LENGTH = 6;
/** Presence set holding the codes in use. */
export const CODES_KEY = 'djambi:codes';

const CODE_RE = new RegExp(`^[${CODE_ALPHABET}]{${CODE_LENGTH}}$`);

/** A random code. */
export function randomCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** Normalises user input (case, spaces, dashes) to a code, or null if it cannot be one. */
export function normaliseCode(input: string): string | null {
  const code = input.toUpperCase().replace(/[\s-]/g, '');
  return CODE_RE.test(code) ? code : null;
}

/** Reserves a fresh code in presence (released by `releaseCode` when the room is disposed). */
export async function reserveCode(presence: Presence): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const code = randomCode();
    if (await presence.sismember(CODES_KEY, code)) continue;
    // A shared (Redis) presence answers how many members were added: 0 means another process won.
    const added = await presence.sadd(CODES_KEY, code);
    if (added === 0) continue;
    return code;
  }
  throw new Error('could not find a free room code');
}

/** Releases a code. */
export async function releaseCode(presence: Presence, code: string): Promise<void> {
  await presence.srem(CODES_KEY, code);
}
