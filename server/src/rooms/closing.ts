/**
 * Closing a room: when its process stops (clients told `server_restart`), when another process
 * took its game over (`server_moved`), and what it gives back when it goes.
 */
import type { Presence } from '@colyseus/core';
import { releaseCode } from './codes.js';
import { CLOSE_FAULT, CLOSE_FENCED, CLOSE_RESTART } from './persistence.js';
import type { Alarms } from './timers.js';

/** What closing needs of a room: its code, and Colyseus's `broadcast` and `disconnect`. */
export interface Closable {
  readonly code: string;
  broadcast(type: string, message?: unknown): void;
  disconnect(closeCode?: number): Promise<unknown>;
}

/**
 * The process is stopping (SIGTERM): once the intents in progress are saved (`settled`), every
 * client is told `server_restart` and closed with `CLOSE_RESTART` (not 4000, a voluntary leave).
 * Nothing is lost: the game is in the log, and clients come back to wherever it is re-opened.
 */
export function closeForRestart(room: Closable, settled: Promise<void>): void {
  void settled.then(() => {
    room.broadcast('server_restart', { code: room.code });
    return room.disconnect(CLOSE_RESTART);
  });
}

/** Another process appended to this game's log: this copy is stale and closes its clients. */
export function closeFenced(room: Closable): void {
  console.error(`[djambi ${room.code}] fenced: another process holds this game; closing this copy`);
  room.broadcast('server_moved', { code: room.code });
  room.disconnect(CLOSE_FENCED).catch(() => undefined);
}

/**
 * The room hit an internal error (see `DjambiRoom.fault`): its clients are closed with
 * `CLOSE_FAULT` and the room is disposed. Its memory may be inconsistent, but its log is not: the
 * next join by code re-opens the game from the log, with every accepted event.
 */
export function closeAfterFault(room: Closable): void {
  try {
    room.disconnect(CLOSE_FAULT).catch(() => undefined);
  } catch {
    // Still in onCreate (Colyseus refuses to disconnect then): the create fails by itself.
  }
}

/** What a room gives back when it goes (disposed, or its create failed): its timers, its code. */
export async function release(alarms: Alarms, presence: Presence, code: string): Promise<void> {
  alarms.clearAll();
  if (code) await releaseCode(presence, code);
}
