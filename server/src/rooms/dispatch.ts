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
  /** Colyseus's `onMessage('*')`: every type with no listener of its own. */
  onAny(listener: (client: Client, type: unknown) => void): void;
  /** The context of a handler called for `client`. */
  context(client: Client): HandlerContext;
  /** Passes an intent on to the match (a refusal is answered to `client`). */
  act(intent: Intent, client: Client, type: string): void;
  /** Answers a refused message. */
  reply(client: Client, type: string, rejection: Rejection): void;
  /** The room's `rematch` listener: null when taken, else the rejection to answer. */
  rematch?(client: Client, message: unknown): Rejection | null;
}

/** Registers a listener for every message type of `handlers`, and the fallbacks. */
export function listen(port: DispatchPort, handlers: Readonly<Record<string, Handler>> = HANDLERS): void {
  for (const [type, handler] of Object.entries(handlers)) {
    port.on(type, (client, message) => {
      const intent = handler(port.context(client), message);
      if (isRejection(intent)) port.reply(client, type, intent);
      else port.act(intent, client, type);
    });
  }
  const { rematch } = port;
  if (rematch) {
    port.on('rematch', (client, message) => {
      const rejection = rematch(client, message);
      if (rejection) port.reply(client, 'rematch', rejection);
    });
  }
  port.onAny((client, type) => {
    // `type` comes from the client: a string or a number (or anything, for the type "*").
    const name = typeof type === 'string' || typeof type === 'number' ? String(type).slice(0, 64) : '?';
    port.reply(client, name, { code: 'unknown_message', message: `unknown message type "${name}"` });
  });
  // Colyseus's own fallback key: a client could name it explicitly.
  port.on('__no_message_handler', (client) => port.reply(client, '__no_message_handler', { code: 'unknown_message', message: 'unknown message type' }));
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
