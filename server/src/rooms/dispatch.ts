/**
 * Dispatch of a room's messages: one Colyseus listener per message type of the handler table
 * (`handlers/`) builds the sender's narrow context, lets the handler turn the message into an
 * intent or a rejection, and passes the intent on to the match (or answers the rejection).
 * `rematch` goes to the room's rematch offer (`rematch.ts`), not to the match. Unknown types are
 * answered `unknown_message`.
 */
import type { Client } from '@colyseus/core';
import type { Rejection } from '../errors.js';
import type { Intent, Match } from '../match/match.js';
import type { MemberId } from '../press/types.js';
import type { Connections } from '../table/connections.js';
import { checkRematch } from './validate.js';
import type { RematchMessage } from '@djambi/shared';
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
  /** A checked `rematch` message: null when taken, else the rejection to answer. */
  rematch?(client: Client, action: RematchMessage['action']): Rejection | null;
}

/** How a room registers a message listener (Colyseus's `onMessage`). */
export type OnMessage = (type: string, listener: (client: Client, ...args: unknown[]) => void) => void;

/**
 * Registers one listener per message type of `handlers` (and `rematch`); any other type, `*` and
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
