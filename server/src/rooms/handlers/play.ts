/** In play: `turn` and `resign`. */
import { checkEmpty, checkTurnMessage } from '../validate.js';
import { isRejection, requirePlayer, type Handler } from '../context.js';

/** `turn { from, to, placement?, exit?, reporterTarget?, version? }`: a complete turn. */
export const turn: Handler = (ctx, client, message) => {
  const m = checkTurnMessage(message);
  if (!m.ok) return m.error;
  const who = requirePlayer(ctx, client);
  if (isRejection(who)) return who;
  ctx.checkFlag();
  if (m.value.version !== undefined && m.value.version !== ctx.game.length) {
    return { code: 'stale', message: `the game is at version ${ctx.game.length}, not ${m.value.version}` };
  }
  const before = ctx.game.position;
  const res = ctx.game.play(who.colour, m.value.turn, ctx.now());
  if (!res.ok) return { code: res.error.code as never, message: res.error.message };
  ctx.applied(res.value, before);
  return null;
};

/** `resign`: the sender leaves the game (any time, its turn or not). */
export const resign: Handler = (ctx, client, message) => {
  const m = checkEmpty(message);
  if (!m.ok) return m.error;
  const who = requirePlayer(ctx, client);
  if (isRejection(who)) return who;
  ctx.checkFlag();
  const before = ctx.game.position;
  const res = ctx.game.resign(who.colour, ctx.now());
  if (!res.ok) return { code: res.error.code as never, message: res.error.message };
  ctx.applied(res.value, before);
  return null;
};
