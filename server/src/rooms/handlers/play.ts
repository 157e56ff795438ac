/** In play: `turn` and `resign`. */
import type { Handler } from '../context.js';
import { checkEmpty, checkTurnMessage } from '../validate.js';

/** `turn { from, to, placement?, exit?, reporterTarget?, version? }`: a complete turn. */
export const turn: Handler = (ctx, message) => {
  const m = checkTurnMessage(message);
  if (!m.ok) return m.error;
  return m.value.version === undefined
    ? { type: 'turn', colour: ctx.colour, turn: m.value.turn }
    : { type: 'turn', colour: ctx.colour, turn: m.value.turn, version: m.value.version };
};

/** `resign`: the sender leaves the game (any time, its turn or not). */
export const resign: Handler = (ctx, message) => {
  const m = checkEmpty(message);
  return m.ok ? { type: 'resign', colour: ctx.colour } : m.error;
};
