/**
 * Negotiation (press) for a `djambi` room: table, spectator, private and group channels; pacts
 * with a betrayal record; draw offers; the after-game reveal. No Colyseus import: the room is a
 * thin adapter (docs/PROTOCOL.md, "Negotiation"; the room side is rooms/handlers/press.ts).
 */
export { Press, PRESS_DEFAULTS, PRESS_OPTION_KEYS, eventOf, parsePressOptions, type PressEntry, type PressOptions } from './press.js';
export {
  Channels,
  TABLE,
  SPECTATORS,
  MAX_MESSAGES_PER_CHANNEL,
  AUTHOR_CAP_SEATS,
  AUTHOR_CAP_SPECTATORS,
  authorCapOf,
  channelIdOf,
  parseChannelId,
} from './channels.js';
export { Pacts, hostileActs, MAX_PACT_ROUNDS, MAX_OPEN_PROPOSALS, MAX_PACTS } from './pacts.js';
export { Draws } from './draws.js';
export { buildReveal } from './reveal.js';
export { Roster, MAX_LIMIT_KEY_CHARS } from './roster.js';
export { RateLimiter, RATE_BURST, RATE_INTERVAL_MS, PAGE_BURST, PAGE_INTERVAL_MS, MAX_BUCKETS } from './rateLimit.js';
export { cleanText } from './text.js';
export { HISTORY_MESSAGES, MAX_MESSAGE_CHARS, MAX_PAGE_MESSAGES, PAGE_MESSAGES, PRESS_CLIENT_MESSAGES, type PressClientMessage } from '@djambi/shared';
export type * from './types.js';
