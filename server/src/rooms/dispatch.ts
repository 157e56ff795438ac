/**
 * Dispatch of a room's messages: each message type of the table (`handlers/`) gets a listener
 * that builds the sender's narrow context, lets the handler turn the message into an intent or
 * a rejection, and passes the intent on to the match (or answers the rejection). `rematch` goes
 * to the room's rematch offer (`rematch.ts`), not to the match. Unknown types are answered
 * `unknown_message`.
 */
import type { Client } from '@colyseus/core';
import type { Rejection } from '../errors.js';
import type { Intent, Match } from '../match/match.js';
import type { MemberId } from '../press/types.js';
import type { Connections } from './connections.js';
import { type Handler, type HandlerContext, isRejection } from './context.js';
import { HANDLERS } from './handlers/index.js';

/** What dispatch needs of its room. */
export interface DispatchPort {
  /** Colyseus's `onMessage` for one type. */
  on(type: string, listener: (client: Client, message: unknown) => void): void;
  /**
   * Colyseus's `onMessage('*')`: every type with no listener of its own, called with the type and
   * the message (and with the message alone for a message whose type is `*`).
   */
  onAny(listener: (client: Client, type: unknown, message?: unknown) => void): void;
  /** The context of a handler called for `client`. */
  context(client: Client): HandlerContext;
  /** Passes an intent on to the match (a refusal is answered to `client`). */
  act(intent: Intent, client: Client, type: string): void;
  /** Answers a refused message. */
  reply(client: Client, type: string, rejection: Rejection): void;
  /** The room's `rematch` listener: null when taken, else the rejection to answer. */
  rematch?(client: Client, message: unknown): Rejection | null;
}

/**
 * The listener of every message: the client, the type it sent (a string or a number) and the
 * decoded payload. The room's frame gate calls it directly (`GuardedRoom._onMessage`).
 */
export type MessageListener = (client: Client, type: string | number, message: unknown) => void;

/** Each table of handlers as a map, made once (a room registers one listener, not one per type). */
const TABLES = new WeakMap<object, ReadonlyMap<string, Handler>>();

function tableOf(handlers: Readonly<Record<string, Handler>>): ReadonlyMap<string, Handler> {
  let table = TABLES.get(handlers);
  if (!table) TABLES.set(handlers, (table = new Map(Object.entries(handlers))));
  return table;
}

/**
 * Registers one listener for every message type, and returns it: it looks the type up in
 * `handlers` (and `rematch`), and answers any other type `unknown_message`. One listener per room, not one per
 * type: Colyseus wraps each listener of a room with `onUncaughtException` in two closures and a
 * bound function, which for the 25 types came to about 6 KB per room.
 */
export function listen(port: DispatchPort, handlers: Readonly<Record<string, Handler>> = HANDLERS): MessageListener {
  const table = tableOf(handlers);
  const { rematch } = port;
  const unknown = (client: Client, name: string) => port.reply(client, name, { code: 'unknown_message', message: `unknown message type "${name}"` });
  const listener = function (client: Client, type: unknown, message?: unknown): void {
    // Colyseus calls this listener with the type and the message, or with the message alone when
    // the type is "*" itself. The type comes from the client: a string or a number.
    // biome-ignore lint/complexity/noArguments: the only way to tell the two calls apart, without an array per message
    if (arguments.length < 3) return unknown(client, '*');
    const name = typeof type === 'string' || typeof type === 'number' ? String(type).slice(0, 64) : '?';
    const handler = typeof type === 'string' ? table.get(type) : undefined;
    if (handler) {
      const intent = handler(port.context(client), message);
      if (isRejection(intent)) port.reply(client, name, intent);
      else port.act(intent, client, name);
      return;
    }
    if (type === 'rematch' && rematch) {
      const rejection = rematch(client, message);
      if (rejection) port.reply(client, 'rematch', rejection);
      return;
    }
    unknown(client, name);
  };
  port.onAny(listener);
  // Colyseus's own fallback key: a client could name it explicitly.
  port.on('__no_message_handler', (client) => port.reply(client, '__no_message_handler', { code: 'unknown_message', message: 'unknown message type' }));
  return listener;
}

/** The handler context of the connection `sessionId`: its seat, its press member, the match. */
export function handlerContext(match: Match, links: Connections, sessionId: string): HandlerContext {
  const colour = links.colourOf(sessionId);
  return {
    match,
    colour,
    member: (colour ?? sessionId) as MemberId,
  };
}
