/** What the room needs of the game log: re-open requests, storage errors, a finished game's summary. */
import { CLOSE_CODES } from '@djambi/shared';

/** Close code of a copy of a game that another process took over (its append was fenced). */
export const CLOSE_FENCED = CLOSE_CODES.fenced;
/** Close code of a room whose process is stopping (clients reconnect to it, or rejoin by key). */
export const CLOSE_RESTART = CLOSE_CODES.serverRestart;
/** Close code of a room that hit an internal error (clients rejoin by key; the game re-opens from the log). */
export const CLOSE_FAULT = CLOSE_CODES.roomFault;

/** The create options server code uses to re-open a stored game (`{ restore: { code, token } }`). */
export function restoreOptions(code: string, token: string): { restore: { code: string; token: string } } {
  return { restore: { code, token } };
}

/** The code of a re-open request carrying this process's token, or null (a client's create). */
export function restoreRequest(options: unknown, token: string): string | null {
  if (!token || options === null || typeof options !== 'object') return null;
  const r = (options as { restore?: unknown }).restore;
  if (r === null || typeof r !== 'object') return null;
  const { code, token: given } = r as { code?: unknown; token?: unknown };
  return typeof code === 'string' && given === token ? code : null;
}
