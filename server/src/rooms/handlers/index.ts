/** The message table of a `djambi` room: message type -> handler. */
import type { Handler } from '../context.js';
import { ready, rename, start, swap } from './lobby.js';
import { resign, turn } from './play.js';
import { PRESS_HANDLERS } from './press.js';

export const HANDLERS: Readonly<Record<string, Handler>> = {
  turn,
  resign,
  start,
  swap,
  ready,
  name: rename,
  // press_send, press_open, press_read, pact_*, draw_offer, draw_accept, draw_decline
  ...PRESS_HANDLERS,
};
