/**
 * Seat keys kept in the browser, one per room code, so a reload reclaims the seat; beside them,
 * the host token of a game this browser created (until its seat is taken with it), and whether
 * the game page should take that seat by itself ("Play against the computer": one click).
 */
import type { Colour } from '@djambi/shared';

/** A seat held by this browser. */
export interface StoredSeat {
  readonly colour: Colour;
  readonly seatKey: string;
}

const key = (code: string): string => `djambi:seat:${code}`;

const DEVICE_KEY = 'djambi:device';
const DEVICE_PATTERN = /^[0-9a-f]{32}$/;

/**
 * This browser's device token (128 random bits, hex), made once and kept for every game: sent
 * with every join that takes a seat (the `device` join option), so that a player the host
 * removed may not sit again from this browser. With storage disabled, a new one each time.
 */
export function deviceToken(): string {
  try {
    const stored = localStorage.getItem(DEVICE_KEY);
    if (stored && DEVICE_PATTERN.test(stored)) return stored;
    const token = randomHex();
    localStorage.setItem(DEVICE_KEY, token);
    return token;
  } catch {
    return randomHex();
  }
}

function randomHex(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The seat stored for a room, if any. */
export function loadSeat(code: string): StoredSeat | null {
  try {
    const raw = localStorage.getItem(key(code));
    if (!raw) return null;
    const v = JSON.parse(raw) as Partial<StoredSeat>;
    return typeof v.colour === 'string' && typeof v.seatKey === 'string' ? { colour: v.colour, seatKey: v.seatKey } : null;
  } catch {
    return null;
  }
}

/** Remember a seat for a room. */
export function saveSeat(code: string, seat: StoredSeat): void {
  try {
    localStorage.setItem(key(code), JSON.stringify(seat));
  } catch {
    /* storage disabled: the seat link still works */
  }
}

/** Forget the seat of a room. */
export function forgetSeat(code: string): void {
  try {
    localStorage.removeItem(key(code));
  } catch {
    /* ignore */
  }
}

const hostKey = (code: string): string => `djambi:host:${code}`;

/** The host token `POST /api/rooms` gave for a room this browser created, if any. */
export function loadHostToken(code: string): string | null {
  try {
    const token = localStorage.getItem(hostKey(code));
    return token && /^[0-9a-f]{1,64}$/.test(token) ? token : null;
  } catch {
    return null;
  }
}

const hostJoinKey = (code: string): string => `djambi:host-join:${code}`;

/**
 * Remember the host token of a room this browser created; with `join`, the game page takes the
 * host's seat with it by itself, once (`takeHostJoin`).
 */
export function saveHostToken(code: string, token: string, join = false): void {
  try {
    localStorage.setItem(hostKey(code), token);
    if (join) localStorage.setItem(hostJoinKey(code), '1');
  } catch {
    /* storage disabled: this browser will not be the host after a reload */
  }
}

/** Whether the game page should take the host's seat by itself (asked once: the flag is cleared). */
export function takeHostJoin(code: string): boolean {
  try {
    const join = localStorage.getItem(hostJoinKey(code)) === '1';
    localStorage.removeItem(hostJoinKey(code));
    return join;
  } catch {
    return false;
  }
}

/** Forget the host token of a room (its seat was taken with it). */
export function forgetHostToken(code: string): void {
  try {
    localStorage.removeItem(hostKey(code));
    localStorage.removeItem(hostJoinKey(code));
  } catch {
    /* ignore */
  }
}

/** The codes of every room this browser holds a seat in. */
export function seatCodes(): string[] {
  const codes: string[] = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k?.startsWith('djambi:seat:')) codes.push(k.slice('djambi:seat:'.length));
    }
  } catch {
    /* storage disabled */
  }
  return codes;
}
