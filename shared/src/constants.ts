/**
 * Constants shared by server and client that are not rules of play: the room-code alphabet.
 * Random codes are drawn by the server (shared holds no randomness); parsing typed codes is here.
 */

/** The room-code alphabet (31 symbols: 2-9 and A-Z without I, L, O, so no look-alikes). */
export const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
/** Length of a room code. */
export const CODE_LENGTH = 6;

const CODE_RE = new RegExp(`^[${CODE_ALPHABET}]{${CODE_LENGTH}}$`);

/** Normalises user input (case, spaces, dashes) to a room code, or null if it cannot be one. */
export function normaliseCode(input: string): string | null {
  const code = input.toUpperCase().replace(/[\s-]/g, '');
  return CODE_RE.test(code) ? code : null;
}
