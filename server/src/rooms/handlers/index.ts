/** The message table of a `djambi` room: message type -> handler. */
import type { Handler } from '../context.js';
import { addBot, ready, removeBot, removeSeat, rename, start, swap } from './lobby.js';
import { resign, turn } from './play.js';
import { PRESS_HANDLERS } from './press.js';

export const HANDLERS: Readonly<Record<string, Handler>> = {
  turn,
  resign,
  start,
  swap,
  ready,
  remove_seat: removeSeat,
  add_bot: addBot,
  remove_bot: removeBot,
  name: rename,
  // press_send, press_open, press_read, pact_*, draw_offer, draw_accept, draw_decline
  ...PRESS_HANDLERS,
};
