/** The server's small HTTP API (`/api/rooms`); answers are decoded with the shared schemas. */
import { check, CreatedRoom, type CreateOptionsInput, type JoinFailure, parseJoinError, RoomListing, RoomListingPage } from '@djambi/shared';

/** A room as listed by `GET /api/rooms` (the shared `RoomListing`). */
export type RoomInfo = RoomListing;

/** Options of a new room (the shared `CreateOptions` schema's input). */
export type CreateRequest = CreateOptionsInput;

/** A refused or failed API call: the server's `{ error: { code, message } }`, read by `parseJoinError`. */
export class ApiError extends Error implements JoinFailure {
  constructor(
    readonly code: JoinFailure['code'],
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function json(res: Response): Promise<unknown> {
  const body = (await res.json().catch(() => null)) as unknown;
  if (!res.ok) {
    const failure = parseJoinError(body ?? { message: `HTTP ${res.status}` });
    const code = failure.code === 'network' && res.status === 404 ? 'not_found' : failure.code;
    throw new ApiError(code, failure.message || `HTTP ${res.status}`, res.status);
  }
  return body;
}

/** The rooms of a listing that decode; the others are logged and dropped. */
function decodeRooms(list: readonly unknown[]): RoomInfo[] {
  const rooms: RoomInfo[] = [];
  for (const item of list) {
    const room = check(RoomListing, item);
    if (room.ok) rooms.push(room.value);
    else console.warn(`[djambi] dropped a malformed room listing${room.error.path ? ` at "${room.error.path}"` : ''}: ${room.error.message}`);
  }
  return rooms;
}

/** Public games, waiting or in progress. */
export async function listRooms(signal?: AbortSignal): Promise<RoomInfo[]> {
  const body = await json(await fetch('/api/rooms', { signal }));
  if (Array.isArray(body)) return decodeRooms(body);
  const page = check(RoomListingPage, body);
  return page.ok ? decodeRooms(page.value.rooms) : [];
}

/** Create a room; returns its code. */
export async function createRoom(req: CreateRequest): Promise<{ code: string; invite?: string }> {
  const res = await fetch('/api/rooms', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(req) });
  const body = check(CreatedRoom, await json(res));
  if (!body.ok) throw new ApiError('network', 'no code', res.status);
  return { code: body.value.code, invite: body.value.invite ?? body.value.url };
}

/** Describe one room, or null when it does not exist. */
export async function getRoom(code: string): Promise<RoomInfo | null> {
  const res = await fetch(`/api/rooms/${encodeURIComponent(code)}`);
  if (res.status === 404) return null;
  const room = check(RoomListing, await json(res));
  if (!room.ok) throw new ApiError('network', `malformed room description: ${room.error.message}`, res.status);
  return room.value;
}
