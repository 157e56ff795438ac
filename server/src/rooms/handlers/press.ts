/**
 * Negotiation messages (`press_*` including `press_page`, `pact_*`, `draw_*`): the room maps the
 * connection to a press member and hands the payload to the press, which decides everything (who
 * may, who is told, every press limit: rate limits and author caps by limit key, paging bounds).
 * Accepted actions are delivered to exactly the members the press names; a draw that every
 * active player accepted is played through the engine's `drawByAgreement`.
 */
import { PRESS_CLIENT_MESSAGES, type PressClientMessage } from '../../press/index.js';
import type { Handler } from '../context.js';
import { checkSize, MAX_PRESS_PAYLOAD_BYTES } from '../validate.js';

/** The handler of one press message type. */
export function pressHandler(type: PressClientMessage): Handler {
  return (ctx, client, message) => {
    // The press validates its own payloads; the room only bounds their size (a legal
    // 500-character message is up to about 2 KB, more than the room's 1 KB budget).
    const size = checkSize(message, MAX_PRESS_PAYLOAD_BYTES);
    if (!size.ok) return size.error;
    if (ctx.phase === 'playing') ctx.checkFlag();
    const now = ctx.now();
    const res = ctx.press.handle(ctx.memberOf(client), type, message, now);
    if (!res.ok) return res.error;
    ctx.deliver(res.deliveries);
    if (res.drawAgreed) {
      const before = ctx.game.position;
      const draw = ctx.game.agreeDraw(now);
      if (!draw.ok) return { code: draw.error.code as never, message: draw.error.message };
      ctx.applied(draw.value, before);
    } else if (type.startsWith('draw_')) {
      ctx.commit(); // the public draw offer is in the state
    }
    return null;
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
