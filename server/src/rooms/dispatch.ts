/**
 * Dispatch of a room's messages: one listener, called by the room's frame gate for every
 * admitted message (`GuardedRoom._onMessage`; nothing is registered with Colyseus's
 * `onMessage`), finds the message type's handler in the table (`handlers/`), builds the sender's
 * narrow context, lets the handler turn the message into an intent or a rejection, and passes
 * the intent on to the match (or answers the rejection). `rematch` goes to the room's rematch
 * offer (`rematch.ts`), not to the match. Unknown types are answered `unknown_message`.
 */
import type { Client } from '@colyseus/core';
import type { Rejection } from '../errors.js';
import type { Intent, Match } from '../match/match.js';
import type { MemberId } from '../press/types.js';
import type { Connections, SeatHolder } from './connections.js';
import { type Handler, type HandlerContext, isRejection } from './context.js';
import { HANDLERS } from './handlers/index.js';

/** What dispatch needs of its room. */
export interface DispatchPort {
  /** The context of a handler called for `client`. */
  context(client: Client): HandlerContext;
  /** Passes an intent on to the match (a refusal is answered to `client`). */
  act(intent: Intent, client: Client, type: string): void;
  /** Answers a refused message. */
  reply(client: Client, type: string, rejection: Rejection): void;
  /** The room's `rematch` listener: null when taken, else the rejection to answer. */
  rematch?(client: Client, message: unknown): Rejection | null;
}

/** The listener of every message: the client, the type it sent (a string or a number) and the decoded payload. */
export type MessageListener = (client: Client, type: string | number, message: unknown) => void;

/** Each table of handlers as a map, made once for every room. */
const TABLES = new WeakMap<object, ReadonlyMap<string, Handler>>();

function tableOf(handlers: Readonly<Record<string, Handler>>): ReadonlyMap<string, Handler> {
  let table = TABLES.get(handlers);
  if (!table) TABLES.set(handlers, (table = new Map(Object.entries(handlers))));
  return table;
}

/**
 * The one listener of a room's messages: it looks the type up in `handlers` (and `rematch`), and
 * answers any other type, `*` and Colyseus's `__no_message_handler` among them, `unknown_message`.
 */
export function listen(port: DispatchPort, handlers: Readonly<Record<string, Handler>> = HANDLERS): MessageListener {
  const table = tableOf(handlers);
  const { rematch } = port;
  return (client, type, message) => {
    const name = String(type).slice(0, 64);
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
    port.reply(client, name, { code: 'unknown_message', message: `unknown message type "${name}"` });
  };
}

/** The handler context of a connection: its seat, its press member, the match. */
export function handlerContext(match: Match, links: Connections, client: SeatHolder): HandlerContext {
  const colour = links.seatOf(client);
  return {
    match,
    colour,
    member: (colour ?? client.sessionId) as MemberId,
  };
}
