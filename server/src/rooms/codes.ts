/**
 * Room codes: 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L), reserved
 * through Colyseus presence so they stay unique across processes sharing a presence.
 */
import { randomInt } from 'node:crypto';
import type { Presence } from '@colyseus/core';
import { CODE_ALPHABET, CODE_LENGTH } from '@djambi/shared';

/** The alphabet, length and `normaliseCode` live in shared, so the client checks codes alike. */
export { CODE_ALPHABET, CODE_LENGTH, normaliseCode } from '@djambi/shared';
/** Presence set holding the codes in use. */
export const CODES_KEY = 'djambi:codes';

/** A random code. */
export function randomCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
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
