/** The server's small HTTP API (`/api/rooms`). */
import type { Rules } from '@djambi/shared';

/** A room as listed by `GET /api/rooms`. */
export interface RoomInfo {
  readonly code: string;
  readonly phase: 'waiting' | 'playing' | 'over' | string;
  readonly visibility: 'private' | 'public' | string;
  readonly players: number;
  readonly seats: readonly { colour: string; name: string; presence: string }[];
  readonly seatsTaken: number;
  readonly spectators: number;
  readonly clock: { initialSeconds: number; incrementSeconds: number } | null;
  readonly moves: number;
}

/** Options of a new room. */
export interface CreateRequest {
  readonly rules: Partial<Rules>;
  readonly clock: { initialSeconds: number; incrementSeconds: number } | null;
  readonly visibility: 'private' | 'public';
  /** May everyone see that two players talk privately (never what they say)? Default `hidden`. */
  readonly press_visibility?: 'hidden' | 'existence';
  /** Show every private conversation to all after the game. Default true. */
  readonly reveal_press_after_game?: boolean;
}

async function json<T>(res: Response): Promise<T> {
  const body = (await res.json().catch(() => null)) as unknown;
  if (!res.ok) {
    const b = body as { error?: { message?: string } | string; message?: string } | null;
    const msg = typeof b?.error === 'string' ? b.error : (b?.error?.message ?? b?.message ?? `HTTP ${res.status}`);
    throw new Error(msg);
  }
  return body as T;
}

/** Public games, waiting or in progress. */
export async function listRooms(signal?: AbortSignal): Promise<RoomInfo[]> {
  const body = await json<unknown>(await fetch('/api/rooms', { signal }));
  const list = Array.isArray(body) ? body : (body as { rooms?: unknown[] } | null)?.rooms;
  return Array.isArray(list) ? (list as RoomInfo[]) : [];
}

/** Create a room; returns its code. */
export async function createRoom(req: CreateRequest): Promise<{ code: string; invite?: string }> {
  const res = await fetch('/api/rooms', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(req) });
  const body = await json<{ code?: string; invite?: string; url?: string }>(res);
  if (!body.code) throw new Error('no code');
  return { code: body.code, invite: body.invite ?? body.url };
}

/** Describe one room, or null when it does not exist. */
export async function getRoom(code: string): Promise<RoomInfo | null> {
  const res = await fetch(`/api/rooms/${encodeURIComponent(code)}`);
  if (res.status === 404) return null;
  return json<RoomInfo>(res);
}
