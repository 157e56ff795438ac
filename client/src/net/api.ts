/** The server's small HTTP API (`/api/rooms`); answers are decoded with the shared schemas. */
import {
  check,
  CreatedRoom,
  type CreateOptionsInput,
  isRecord,
  type JoinFailure,
  normaliseCode,
  parseJoinError,
  RoomListing,
  RoomListingPage,
} from '@djambi/shared';

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

/** Create a room; returns its code and the host token. */
export async function createRoom(req: CreateRequest): Promise<{ code: string; invite?: string; hostToken?: string }> {
  const res = await fetch('/api/rooms', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(req) });
  const body = check(CreatedRoom, await json(res));
  if (!body.ok) throw new ApiError('network', 'no code', res.status);
  return { code: body.value.code, invite: body.value.invite ?? body.value.url, hostToken: body.value.hostToken };
}

/** Describe one room, or null when it does not exist. */
export async function getRoom(code: string): Promise<RoomInfo | null> {
  const res = await fetch(`/api/rooms/${encodeURIComponent(code)}`);
  if (res.status === 404) return null;
  const room = check(RoomListing, await json(res));
  if (!room.ok) throw new ApiError('network', `malformed room description: ${room.error.message}`, res.status);
  return room.value;
}

/** A stored game as `GET /api/games/CODE` describes it (live or finished). */
export interface StoredGameInfo {
  readonly code: string;
  readonly status: 'open' | 'finished';
  readonly phase: string;
  readonly createdAt: number;
  readonly finishedAt: number | null;
  readonly summary: GameSummary | null;
  readonly reveal_press_after_game: boolean;
  readonly moves: number;
  /** The code of this game's rematch, once one was created. */
  readonly rematch: string | null;
  readonly seats: readonly { readonly colour: string; readonly name: string; readonly taken: boolean }[];
}

/** A finished game's result as stored: a win (`winner`) or a draw (`reason`). */
export interface SummaryResult {
  readonly kind: 'win' | 'draw' | string;
  readonly winner?: string;
  readonly reason?: string;
}

/** A finished game's summary: its result, the players' names by colour, the move count. */
export interface GameSummary {
  readonly result: SummaryResult | null;
  readonly players: Readonly<Record<string, string>>;
  readonly moves: number;
}

/** A game of a list (`GET /api/games?codes=`, `GET /api/games/recent`). */
export interface GameListItem {
  readonly code: string;
  readonly status: 'open' | 'finished';
  readonly visibility: string;
  readonly createdAt: number;
  readonly finishedAt: number | null;
  readonly summary: GameSummary | null;
}

function readSummary(x: unknown): GameSummary | null {
  if (!isRecord(x)) return null;
  const players: Record<string, string> = {};
  if (isRecord(x.players)) for (const [k, v] of Object.entries(x.players)) if (typeof v === 'string') players[k] = v;
  const r = x.result;
  const result =
    isRecord(r) && typeof r.kind === 'string'
      ? { kind: r.kind, winner: typeof r.winner === 'string' ? r.winner : undefined, reason: typeof r.reason === 'string' ? r.reason : undefined }
      : null;
  return { result, players, moves: typeof x.moves === 'number' ? x.moves : 0 };
}

function readListItem(x: unknown): GameListItem | null {
  if (!isRecord(x) || typeof x.code !== 'string') return null;
  return {
    code: x.code,
    status: x.status === 'finished' ? 'finished' : 'open',
    visibility: typeof x.visibility === 'string' ? x.visibility : 'private',
    createdAt: typeof x.createdAt === 'number' ? x.createdAt : 0,
    finishedAt: typeof x.finishedAt === 'number' ? x.finishedAt : null,
    summary: readSummary(x.summary),
  };
}

function readList(body: unknown): GameListItem[] {
  const list = isRecord(body) && Array.isArray(body.games) ? body.games : [];
  return list.map(readListItem).filter((g): g is GameListItem => g !== null);
}

/** A stored game, or null when the server has none with this code. */
export async function getGame(code: string, signal?: AbortSignal): Promise<StoredGameInfo | null> {
  const res = await fetch(`/api/games/${encodeURIComponent(code)}`, { signal });
  if (res.status === 404) return null;
  const body = await json(res);
  const item = readListItem(body);
  if (!item || !isRecord(body)) throw new ApiError('network', 'malformed game description', res.status);
  return {
    ...item,
    phase: typeof body.phase === 'string' ? body.phase : '',
    reveal_press_after_game: body.reveal_press_after_game === true,
    moves: typeof body.moves === 'number' ? body.moves : 0,
    rematch: typeof body.rematch === 'string' ? normaliseCode(body.rematch) : null,
    seats: Array.isArray(body.seats)
      ? body.seats.filter(isRecord).map((s) => ({ colour: String(s.colour), name: typeof s.name === 'string' ? s.name : '', taken: s.taken === true }))
      : [],
  };
}

/** The address of a stored game's record: text (docs/NOTATION.md) or JSON. */
export function recordUrl(code: string, format: 'text' | 'json'): string {
  return `/api/games/${encodeURIComponent(code)}/record${format === 'json' ? '?format=json' : ''}`;
}

/** A stored game's record as text. */
export async function getRecordText(code: string, signal?: AbortSignal): Promise<string> {
  const res = await fetch(recordUrl(code, 'text'), { signal });
  if (!res.ok) await json(res);
  return res.text();
}

/** The after-game reveal of a finished game (undecoded: the replay page checks it), or null. */
export async function getReveal(code: string, signal?: AbortSignal): Promise<unknown> {
  const res = await fetch(`/api/games/${encodeURIComponent(code)}/reveal`, { signal });
  if (res.status === 404 || res.status === 409) return null;
  const body = await json(res);
  return isRecord(body) ? (body.reveal ?? null) : null;
}

/** The stored games among `codes` (at most 50), newest first. */
export async function listGames(codes: readonly string[], signal?: AbortSignal): Promise<GameListItem[]> {
  if (codes.length === 0) return [];
  const res = await fetch(`/api/games?codes=${codes.slice(0, 50).map(encodeURIComponent).join(',')}`, { signal });
  return readList(await json(res));
}

/** The latest finished public games. */
export async function recentGames(limit = 20, signal?: AbortSignal): Promise<GameListItem[]> {
  return readList(await json(await fetch(`/api/games/recent?limit=${limit}`, { signal })));
}
