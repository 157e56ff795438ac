/** Draw offers: `draw_offer`, `draw_accept`, `draw_decline`. */
import { activePlayers } from '@djambi/shared';
import { checkEmpty } from '../validate.js';
import { isRejection, requirePlayer, type Handler, type RoomContext } from '../context.js';
import type { Client } from '@colyseus/core';
import type { Rejection } from '../../errors.js';

function activeSender(ctx: RoomContext, client: Client, message: unknown) {
  const m = checkEmpty(message);
  if (!m.ok) return m.error;
  const who = requirePlayer(ctx, client);
  if (isRejection(who)) return who;
  ctx.checkFlag();
  if (ctx.game.over) return { code: 'game_over', message: 'the game is over' } as Rejection;
  const active = activePlayers(ctx.game.position);
  if (!active.includes(who.colour)) return { code: 'not_active', message: 'only an active player can do this' } as Rejection;
  return { colour: who.colour, active };
}

function conclude(ctx: RoomContext, passes: boolean): Rejection | null {
  if (!passes) {
    ctx.commit();
    return null;
  }
  const res = ctx.game.agreeDraw(ctx.now());
  if (!res.ok) return { code: res.error.code as never, message: res.error.message };
  ctx.applied(res.value);
  return null;
}

/** `draw_offer`: opens an offer (the sender accepts it). */
export const drawOffer: Handler = (ctx, client, message) => {
  const who = activeSender(ctx, client, message);
  if (isRejection(who)) return who;
  const res = ctx.draw.offer(who.colour, who.active);
  if (!res.ok) return { code: res.code, message: res.message };
  return conclude(ctx, res.value);
};

/** `draw_accept`: accepts the open offer; when every active player has, the game is drawn. */
export const drawAccept: Handler = (ctx, client, message) => {
  const who = activeSender(ctx, client, message);
  if (isRejection(who)) return who;
  const res = ctx.draw.accept(who.colour, who.active);
  if (!res.ok) return { code: res.code, message: res.message };
  return conclude(ctx, res.value);
};

/** `draw_decline`: the open offer lapses. */
export const drawDecline: Handler = (ctx, client, message) => {
  const who = activeSender(ctx, client, message);
  if (isRejection(who)) return who;
  const res = ctx.draw.decline();
  if (!res.ok) return { code: res.code, message: res.message };
  ctx.commit();
  return null;
};
