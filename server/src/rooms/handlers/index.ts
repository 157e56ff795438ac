/** The message table of a `djambi` room: message type -> handler. */
import type { Handler } from '../context.js';
import { drawAccept, drawDecline, drawOffer } from './draw.js';
import { rename, start, swap } from './lobby.js';
import { resign, turn } from './play.js';

export const HANDLERS: Readonly<Record<string, Handler>> = {
  turn,
  resign,
  start,
  swap,
  name: rename,
  draw_offer: drawOffer,
  draw_accept: drawAccept,
  draw_decline: drawDecline,
};
