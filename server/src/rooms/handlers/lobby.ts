/** Before the start: `start`, `swap`, `ready`; any time: `name`. */
import type { Handler } from '../context.js';
import { checkEmpty, checkReady, checkRename, checkSwap } from '../validate.js';

/** `start`: every seat filled; the creator, or any seated player when the creator is not connected. */
export const start: Handler = (ctx, message) => {
  const m = checkEmpty(message);
  return m.ok ? { type: 'start', colour: ctx.colour, creatorConnected: ctx.creatorConnected() } : m.error;
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

/** `name { name }`: renames the sender's seat. */
export const rename: Handler = (ctx, message) => {
  const m = checkRename(message);
  return m.ok ? { type: 'rename', colour: ctx.colour, name: m.value.name } : m.error;
};
