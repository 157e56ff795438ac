/**
 * Negotiation messages (`press_*` including `press_page`, `pact_*`, `draw_*`): the room maps the
 * connection to a press member and the match hands the payload to the press, which decides
 * everything (who may, who is told, every press limit). A draw that every active player accepted
 * is played through the engine's `drawByAgreement` by the match.
 */
import { PRESS_CLIENT_MESSAGES, type PressClientMessage } from '../../press/index.js';
import type { Handler } from '../context.js';
import { checkSize, MAX_PRESS_PAYLOAD_BYTES } from '../validate.js';

/** The handler of one press message type. */
export function pressHandler(type: PressClientMessage): Handler {
  return (ctx, message) => {
    // The press validates its own payloads; the room only bounds their size (a legal
    // 500-character message is up to about 2 KB, more than the room's 1 KB budget).
    const size = checkSize(message, MAX_PRESS_PAYLOAD_BYTES);
    return size.ok ? { type: 'press', member: ctx.member, message: type, payload: message } : size.error;
  };
}

/**
 * Handlers of every press message type of `PRESS_CLIENT_MESSAGES` (`press_send`, `press_open`,
 * `press_read`, `press_page`, `pact_*`, `draw_*`); the record type fails to compile if one is
 * missing.
 */
export const PRESS_HANDLERS: Readonly<Record<PressClientMessage, Handler>> = Object.fromEntries(
  PRESS_CLIENT_MESSAGES.map((type) => [type, pressHandler(type)]),
) as Record<PressClientMessage, Handler>;
