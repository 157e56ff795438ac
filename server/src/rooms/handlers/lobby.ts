/** Before the start: `start`, `swap`, `ready`; any time: `name`. */
import { checkEmpty, checkReady, checkRename, checkSwap } from '../validate.js';
import type { Handler } from '../context.js';

/** `start`: every seat filled; the creator, or any seated player when the creator is not connected. */
export const start: Handler = (ctx, client, message) => {
  const m = checkEmpty(message);
  if (!m.ok) return m.error;
  const seat = ctx.seatOf(client);
  if (!seat) return { code: 'not_seated', message: 'only a seated player can start the game' };
  if (ctx.phase !== 'waiting') return { code: 'already_started', message: 'the game has already started' };
  if (!ctx.seats.allTaken()) return { code: 'not_ready', message: 'every seat must be taken first' };
  const creator = ctx.seats.creatorColour();
  if (creator !== null && creator !== seat.colour && ctx.seats.creatorPresent()) {
    return { code: 'not_creator', message: 'only the creator can start the game while connected' };
  }
  ctx.startGame();
  return null;
};

/** `swap { colour }`: move to a free seat, or swap once both holders have asked. */
export const swap: Handler = (ctx, client, message) => {
  const m = checkSwap(message);
  if (!m.ok) return m.error;
  const seat = ctx.seatOf(client);
  if (!seat) return { code: 'not_seated', message: 'only a seated player can change seats' };
  if (ctx.phase !== 'waiting') return { code: 'already_started', message: 'seats are fixed once the game has started' };
  const res = ctx.seats.requestSwap(seat, m.value.colour, ctx.now());
  if (!res.ok) return { code: 'seat_taken', message: res.message };
  for (const moved of res.value) ctx.sendSeat(moved);
  ctx.commit();
  ctx.updateListing();
  return null;
};

/** `ready { ready }`: before the start, tells the others the sender is (or is no longer) ready. */
export const ready: Handler = (ctx, client, message) => {
  const m = checkReady(message);
  if (!m.ok) return m.error;
  const seat = ctx.seatOf(client);
  if (!seat) return { code: 'not_seated', message: 'only a seated player can be ready' };
  if (ctx.phase !== 'waiting') return { code: 'already_started', message: 'the game has already started' };
  seat.ready = m.value.ready;
  ctx.commit();
  return null;
};

/** `name { name }`: renames the sender's seat. */
export const rename: Handler = (ctx, client, message) => {
  const m = checkRename(message);
  if (!m.ok) return m.error;
  const seat = ctx.seatOf(client);
  if (!seat) return { code: 'not_seated', message: 'only a seated player has a name' };
  seat.name = m.value.name;
  ctx.commit();
  ctx.updateListing();
  return null;
};
