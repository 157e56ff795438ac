/**
 * Opening a room: a new game from a client's create options, or a stored, unfinished game
 * re-opened from the log (server code only, with the process's restore token), the parts of the
 * room built around it (`assemble`: sending, admission, the intent pipeline, the bot driver),
 * its bots seated or its game resumed (`settle`), and what a create that failed answers.
 */
import { type Client, type Deferred, matchMaker, type Presence, ServerError } from '@colyseus/core';
import { seatsOf } from '@djambi/shared';
import { type Intent, Match } from '../match/match.js';
import { type BotDriver, botConfigOf, roomBots, seatCreationBots } from './bots.js';
import { Connections } from './connections.js';
import { Door } from './door.js';
import { FrameGate } from './gate.js';
import { joinError } from './join.js';
import { Journal } from './journal.js';
import { CREATE_KEYS, parseRoomConfig } from '../match/config.js';
import { Outbox } from './outbox.js';
import { restoreRequest } from './persistence.js';
import { Pipeline } from './pipeline.js';
import type { RoomParts, RoomPort } from './port.js';
import type { DjambiRoomSettings } from './settings.js';
import type { Alarms } from './timers.js';
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
  // The bots' options are part of the stored config: a game re-opened before its start keeps them.
  const config = { ...parsed.value, bots: botConfigOf(options) };
  return { journal: await Journal.create(new Match(config), createdAt, presence, settings.store, now), createdAt, restored: false };
}

/**
 * After the room's parts are built: a new game seats the bots of its create options, a re-opened
 * one resumes. True for a re-opened game (people were in it: the room counts as joined).
 */
export async function settle(opened: Opened, options: unknown, port: RoomPort): Promise<boolean> {
  if (opened.restored) await resume(opened.journal, port.links, () => port.now());
  else await seatCreationBots(options, opened.journal.match, (intent) => port.pipeline.step(intent));
  return opened.restored;
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

/** The few acts of its own that `assemble` needs of the Colyseus room. */
export interface RoomHost {
  clients(): readonly Client[];
  sendEach(clients: Iterable<Client>, type: string, payload: unknown): void;
  hasReservation(sessionId: string): boolean;
  /** Mirrors the match into the schema and sends the patch now (and the listing when `listing`); the bots' hooks are added around it. */
  commit(listing: boolean): void;
  /** Another process holds the game: close the room (`closeFenced`). */
  fenced(): void;
  /** A bug was thrown inside the room (`DjambiRoom.fault`). */
  fault(error: unknown): void;
  /** Keeps a dropped connection's place for `seconds` (Colyseus's `allowReconnection`). */
  holdFor(client: Client, seconds: number): Deferred<Client>;
}

/** The parts of a room around its game. */
export interface Assembled {
  readonly links: Connections;
  readonly outbox: Outbox;
  readonly door: Door;
  readonly gate: FrameGate;
  readonly pipeline: Pipeline;
  readonly bots: BotDriver;
  readonly port: RoomPort;
}

/** Builds the parts of a room around the game of `journal`, with the room's settings, alarms and connection sets. */
export function assemble(
  journal: Journal,
  settings: DjambiRoomSettings,
  alarms: Alarms,
  spectatorIds: Set<string>,
  reconnecting: Map<string, Deferred<Client>>,
  host: RoomHost,
): Assembled {
  const code = journal.code;
  const links = new Connections(seatsOf(journal.match.config.rules));
  const parts: RoomParts = { code, journal, links, spectatorIds, reconnecting };
  const outbox = new Outbox(parts, {
    clients: () => host.clients(),
    sendEach: (clients, type, payload) => host.sendEach(clients, type, payload),
    rejected: settings.metrics ? (c) => settings.metrics?.rejected(c) : undefined,
  });
  const door = new Door(settings.admission, journal, (sid) => host.hasReservation(sid));
  const gate = new FrameGate(settings.budget);
  const now = () => settings.now();
  // Every commit shows the bot seats first (`sync`) and lets the bots act on it afterwards.
  const commit = (listing: boolean) => {
    bots.sync();
    host.commit(listing);
    bots.afterCommit();
  };
  const pipeline = new Pipeline(journal, links, outbox, alarms, {
    now,
    commit,
    fenced: () => host.fenced(),
    fault: (e) => host.fault(e),
    turnPatched: settings.metrics
      ? (ms) => {
          settings.metrics?.turnAccepted();
          settings.metrics?.observeTurnToPatch(ms);
        }
      : undefined,
  });
  const bots = roomBots(journal, links, pipeline, now, settings.bots, (e) => host.fault(e));
  const port: RoomPort = { ...parts, outbox, door, pipeline, alarms, now, commit, holdFor: (client, seconds) => host.holdFor(client, seconds) };
  return { links, outbox, door, gate, pipeline, bots, port };
}

/** What a create that threw answers: its own join error, or `internal_error` (logged). */
export function creationError(e: unknown): ServerError {
  if (e instanceof ServerError) return e;
  console.error('[djambi] room creation failed:', e);
  return joinError('internal_error', 'the room could not be created');
}
