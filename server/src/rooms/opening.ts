/**
 * Opening a room: a new game from a client's create options, or a stored, unfinished game
 * re-opened from the log (server code only, with the process's restore token), and what a
 * create that failed answers.
 */
import { matchMaker, type Presence, ServerError } from '@colyseus/core';
import { type Intent, Match } from '../match/match.js';
import type { Connections } from './connections.js';
import { joinError } from './join.js';
import { Journal } from './journal.js';
import { CREATE_KEYS, parseRoomConfig } from './options.js';
import { restoreRequest } from './persistence.js';
import type { DjambiRoomSettings } from './settings.js';
import { checkJoinOptions } from './validate.js';

/** An opened game: its journal, when it was created, and whether it was re-opened from the log. */
export interface Opened {
  readonly journal: Journal;
  readonly createdAt: number;
  readonly restored: boolean;
}

/** Opens the game of a room being created with `options` (refused with a join error). */
export async function openGame(options: unknown, settings: DjambiRoomSettings, presence: Presence, now: () => number): Promise<Opened> {
  if (matchMaker.stats.local.roomCount >= settings.maxRooms) throw joinError('server_full', 'this server holds as many games as it can; try again later');
  const restore = restoreRequest(options, settings.restoreToken);
  if (restore) {
    const { journal, createdAt } = await Journal.reopen(restore, presence, settings.store, now);
    return { journal, createdAt, restored: true };
  }
  const join = checkJoinOptions(options, CREATE_KEYS);
  if (!join.ok) throw joinError('bad_options', join.error.message);
  const parsed = parseRoomConfig(options, settings);
  if (!parsed.ok) throw joinError(parsed.error.code, parsed.error.message);
  const createdAt = now();
  return { journal: await Journal.create(new Match(parsed.value), createdAt, presence, settings.store, now), createdAt, restored: false };
}

/**
 * A game re-opened from the log: the seats show `away` until their holders come back with
 * their keys, spectators of the dead process are gone, and the running clock restarts now.
 */
export async function resume(journal: Journal, links: Connections, now: () => number): Promise<void> {
  const match = journal.match;
  for (const seat of match.seats.seats.values()) if (seat.keyHash !== null) links.absent(seat.colour, now());
  const intents: Intent[] = match.press.roster.spectatorIds().map((id) => ({ type: 'unspectate', id }));
  if (match.phase === 'playing') intents.push({ type: 'resume' });
  for (const intent of intents) {
    const entry = await journal.submit(intent);
    if (!entry.ok) throw joinError('storage_unavailable', entry.rejection.message);
  }
  await journal.finishIfOver();
}

/** What a create that threw answers: its own join error, or `internal_error` (logged). */
export function creationError(e: unknown): ServerError {
  if (e instanceof ServerError) return e;
  console.error('[djambi] room creation failed:', e);
  return joinError('internal_error', 'the room could not be created');
}
