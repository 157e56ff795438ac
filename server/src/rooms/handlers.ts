/**
 * The room's messages: one Colyseus listener per message type. Each handler is a small function
 * that checks a message's shape (`validate.ts`) and turns it into an intent for the table, or a
 * rejection; it never touches the room or the schema. `rematch` goes to the table's rematch
 * offer, `time` is answered with the server clock. Unknown types are answered `unknown_message`.
 */
import type { Colour, RematchMessage } from '@djambi/shared';
import type { Rejection } from '../errors.js';
import type { Intent, Match } from '../match/match.js';
import type { MemberId } from '../press/types.js';
import { checkAddBot, checkEmpty, checkReady, checkRematch, checkRemoveBot, checkRemoveSeat, checkRename, checkSwap, checkTurnMessage } from './validate.js';
import { PRESS_CLIENT_MESSAGES, type PressClientMessage } from '../press/index.js';
import type { Client } from '@colyseus/core';
import type { Connections } from '../table/connections.js';

/** The narrow context of a handler. */
export interface HandlerContext {
  readonly match: Match;
  /** The sender's seat, or null (a spectator, a replaced connection). */
  readonly colour: Colour | null;
  /** The press member the sender speaks for: its seat colour, else its session id. */
  readonly member: MemberId;
}

/** A message handler: the intent the message asks for, or the rejection to send back. */
export type Handler = (ctx: HandlerContext, message: unknown) => Intent | Rejection;

/** True when a handler's answer is a rejection. */
export function isRejection(value: Intent | Rejection): value is Rejection {
  return 'code' in value;
}

/** `start`: every seat filled; the host only (others get `not_host`). */
export const start: Handler = (ctx, message) => {
  const m = checkEmpty(message);
  return m.ok ? { type: 'start', colour: ctx.colour } : m.error;
};

/** `swap { colour }`: move to a free seat, or swap once both holders have asked. */
export const swap: Handler = (ctx, message) => {
  const m = checkSwap(message);
  return m.ok ? { type: 'swap', colour: ctx.colour, to: m.value.colour } : m.error;
};

/** `ready { ready }`: before the start, tells the others the sender is (or is no longer) ready. */
export const ready: Handler = (ctx, message) => {
  const m = checkReady(message);
  return m.ok ? { type: 'ready', colour: ctx.colour, ready: m.value.ready } : m.error;
};

/** `remove_seat { colour }`: before the start, the host frees another player's seat. */
export const removeSeat: Handler = (ctx, message) => {
  const m = checkRemoveSeat(message);
  return m.ok ? { type: 'remove_seat', colour: ctx.colour, target: m.value.colour } : m.error;
};

/** `add_bot { colour, level }`: before the start, the host seats a bot on a free seat. */
export const addBot: Handler = (ctx, message) => {
  const m = checkAddBot(message);
  return m.ok ? { type: 'add_bot', colour: ctx.colour, target: m.value.colour, level: m.value.level } : m.error;
};

/** `remove_bot { colour }`: before the start, the host frees a bot's seat. */
export const removeBot: Handler = (ctx, message) => {
  const m = checkRemoveBot(message);
  return m.ok ? { type: 'remove_bot', colour: ctx.colour, target: m.value.colour } : m.error;
};

/** `name { name }`: renames the sender's seat, or the sender as a spectator. */
export const rename: Handler = (ctx, message) => {
  const m = checkRename(message);
  if (!m.ok) return m.error;
  return ctx.colour === null
    ? { type: 'rename', colour: null, name: m.value.name, spectator: ctx.member }
    : { type: 'rename', colour: ctx.colour, name: m.value.name };
};

/** `turn { from, to, placement?, exit?, reporterTarget?, version? }`: a complete turn. */
export const turn: Handler = (ctx, message) => {
  const m = checkTurnMessage(message);
  if (!m.ok) return m.error;
  return m.value.version === undefined
    ? { type: 'turn', colour: ctx.colour, turn: m.value.turn }
    : { type: 'turn', colour: ctx.colour, turn: m.value.turn, version: m.value.version };
};

/** `resign`: the sender leaves the game (any time, its turn or not). */
export const resign: Handler = (ctx, message) => {
  const m = checkEmpty(message);
  return m.ok ? { type: 'resign', colour: ctx.colour } : m.error;
};

/** The handler of one press message type. */
export function pressHandler(type: PressClientMessage): Handler {
  // The press checks the payload with its shared schema (`Press.handle`); its bytes were bounded
  // before decoding (`MAX_PRESS_PAYLOAD_BYTES`, in the frame gate).
  return (ctx, message) => ({ type: 'press', member: ctx.member, message: type, payload: message });
}

/**
 * Handlers of every press message type of `PRESS_CLIENT_MESSAGES` (`press_send`, `press_open`,
 * `press_read`, `press_page`, `pact_*`, `draw_*`); the record type fails to compile if one is
 * missing.
 */
export const PRESS_HANDLERS: Readonly<Record<PressClientMessage, Handler>> = Object.fromEntries(
  PRESS_CLIENT_MESSAGES.map((type) => [type, pressHandler(type)]),
) as Record<PressClientMessage, Handler>;

export const HANDLERS: Readonly<Record<string, Handler>> = {
  turn,
  resign,
  start,
  swap,
  ready,
  remove_seat: removeSeat,
  add_bot: addBot,
  remove_bot: removeBot,
  name: rename,
  // press_send, press_open, press_read, pact_*, draw_offer, draw_accept, draw_decline
  ...PRESS_HANDLERS,
};

/** What dispatch needs of its room. */
export interface DispatchPort {
  /** The context of a handler called for `client`. */
  context(client: Client): HandlerContext;
  /** Passes an intent on to the match (a refusal is answered to `client`). */
  act(intent: Intent, client: Client, type: string): void;
  /** Answers a refused message. */
  reply(client: Client, type: string, rejection: Rejection): void;
  /** A checked `rematch` message: null when taken, else the rejection to answer. */
  rematch?(client: Client, action: RematchMessage['action']): Rejection | null;
  /** A checked `time` message: answers `client` with `time { now }`. */
  time?(client: Client): void;
}

/** How a room registers a message listener (Colyseus's `onMessage`). */
export type OnMessage = (type: string, listener: (client: Client, ...args: unknown[]) => void) => void;

/**
 * Registers one listener per message type of `handlers` (and `rematch`, `time`); any other type, `*` and
 * Colyseus's `__no_message_handler` among them, is answered `unknown_message`.
 */
export function registerHandlers(onMessage: OnMessage, port: DispatchPort, handlers: Readonly<Record<string, Handler>> = HANDLERS): void {
  for (const [type, handler] of Object.entries(handlers)) {
    onMessage(type, (client, message) => {
      const intent = handler(port.context(client), message);
      if (isRejection(intent)) port.reply(client, type, intent);
      else port.act(intent, client, type);
    });
  }
  const { rematch } = port;
  if (rematch) {
    onMessage('rematch', (client, message) => {
      const m = checkRematch(message);
      const rejection = m.ok ? rematch(client, m.value.action) : m.error;
      if (rejection) port.reply(client, 'rematch', rejection);
    });
  }
  const { time } = port;
  if (time) {
    onMessage('time', (client, message) => {
      const m = checkEmpty(message);
      if (m.ok) time(client);
      else port.reply(client, 'time', m.error);
    });
  }
  const unknown = (client: Client, type: string) => {
    const name = type.slice(0, 64);
    port.reply(client, name, { code: 'unknown_message', message: `unknown message type "${name}"` });
  };
  // Colyseus calls `*` with the type for an unregistered one, and without it for a message sent as `*` itself.
  onMessage('*', (client, ...args) => unknown(client, args.length >= 2 ? String(args[0]) : '*'));
  onMessage('__no_message_handler', (client) => unknown(client, '__no_message_handler'));
}

/** The handler context of a connection: its seat, its press member, the match. */
export function handlerContext(match: Match, links: Connections, client: Client): HandlerContext {
  const colour = links.colourOf(client.sessionId);
  return {
    match,
    colour,
    member: (colour ?? client.sessionId) as MemberId,
  };
}
