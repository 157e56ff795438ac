/** Before the start: `start`, `swap`, `ready`, `remove_seat`, `add_bot`, `remove_bot`; any time: `name`. */
import type { Handler } from '../context.js';
import { checkAddBot, checkEmpty, checkReady, checkRemoveBot, checkRemoveSeat, checkRename, checkSwap } from '../validate.js';

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
