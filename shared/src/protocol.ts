/**
 * The negotiation ("press") wire protocol shared by server and client: message names, payload
 * types and the few constants both sides need (docs/PRESS.md). Plain data only: the server
 * builds these payloads and validates what it receives; the client reads them defensively.
 */
import type { Colour } from './types.js';

// ---- members and channels ---------------------------------------------------------------------

/** An opaque spectator id chosen by the room (e.g. the Colyseus session id); never a colour. */
export type SpectatorId = string;
/** Who takes part in the press: a seat colour for a seated player, else a spectator id. */
export type MemberId = Colour | SpectatorId;

/** `hidden`: nobody learns that a private or group channel exists; `existence`: everyone may. */
export type PressVisibility = 'hidden' | 'existence';
/** The phases of a room as the press sees them. */
export const PRESS_PHASES = ['waiting', 'playing', 'over'] as const;
/** Where the room is: before the start, during the game, after the result. */
export type PressPhase = (typeof PRESS_PHASES)[number];

/** The four kinds of channel. */
export type ChannelKind = 'table' | 'spectators' | 'private' | 'group';
/** `table`, `spectators`, `dm:XY` (two seats) or `group:XYZ…` (three or more), colours in seat order. */
export type ChannelId = string;

/** Longest message, in Unicode code points after trimming (the server decides; the client counts). */
export const MAX_MESSAGE_CHARS = 500;
/** Messages per channel in a `press_history` and in the reveal: the latest ones; older ones are paged with `press_page`. */
export const HISTORY_MESSAGES = 50;
/** Messages a `press_page` answer holds when the request names no `limit`. */
export const PAGE_MESSAGES = 50;
/** Largest `limit` of a `press_page` request. */
export const MAX_PAGE_MESSAGES = 100;

/** One message as delivered and kept. `id` counts from 1 within its channel only. */
export interface PressMessage {
  readonly id: number;
  readonly channel: ChannelId;
  readonly from: MemberId;
  /** A spectator's display name (players are named by their seat in the room state). */
  readonly name?: string;
  /** Plain text, at most `MAX_MESSAGE_CHARS` characters; never HTML. */
  readonly text: string;
  /** Turns played when it was sent (0 before the first turn). */
  readonly ply: number;
  /** Server time, epoch ms. */
  readonly at: number;
}

/** A channel without its messages. `members` is null for `table` and `spectators`. */
export interface ChannelInfo {
  readonly id: ChannelId;
  readonly kind: ChannelKind;
  readonly members: readonly Colour[] | null;
  /** The seat that opened a private or group channel. */
  readonly openedBy: Colour | null;
  /** Turns played when it was opened (0 for the built-in channels). */
  readonly ply: number;
}

/** A channel as one member sees it: its latest messages and that member's read state. */
export interface ChannelView extends ChannelInfo {
  /** The latest messages (at most `HISTORY_MESSAGES`), oldest first. */
  readonly messages: readonly PressMessage[];
  /** True when the server holds older messages than `messages[0]`: ask for them with `press_page`. */
  readonly more: boolean;
  /** Highest message id this member has read (0: none). */
  readonly readUpTo: number;
  /** Messages from others after `readUpTo`. */
  readonly unread: number;
}

/** What `press_visibility: 'existence'` shows to a non-member: who talk together, nothing else. */
export interface ChannelExistence {
  readonly channel: ChannelId;
  readonly members: readonly Colour[];
}

// ---- pacts ------------------------------------------------------------------------------------

/** Statuses of a pact: `proposed` until every invitee accepts, then `in_force`, finally `ended`. */
export const PACT_STATUSES = ['proposed', 'in_force', 'ended'] as const;
/** The status of a pact. */
export type PactStatus = (typeof PACT_STATUSES)[number];
/** Reasons a pact ends. */
export const PACT_END_REASONS = ['declined', 'withdrawn', 'left', 'betrayed', 'expired', 'eliminated', 'game_over'] as const;
/** Why a pact ended. */
export type PactEndReason = (typeof PACT_END_REASONS)[number];
/** Events of a pact (the `event` of a `pact` message). */
export const PACT_EVENTS = ['proposed', 'accepted', 'declined', 'withdrawn', 'in_force', 'left', 'eliminated', 'expired'] as const;
/** What happened to a pact. */
export type PactEvent = (typeof PACT_EVENTS)[number];
/** The harms a traitor can do to a fellow member. */
export const BETRAYAL_ACTS = ['kill', 'displace', 'encircle'] as const;
/** What a traitor did to a fellow member's piece or chief. */
export type BetrayalAct = (typeof BETRAYAL_ACTS)[number];

/** A pact as its members (and, once an announced pact is in force, everyone) see it. */
export interface PactView {
  readonly id: string;
  readonly proposer: Colour;
  /** Every party, proposer included, in seat order; fixed at the proposal. */
  readonly members: readonly Colour[];
  /** Length in rounds, or null for no limit. */
  readonly rounds: number | null;
  readonly announced: boolean;
  readonly status: PactStatus;
  /** Members who have accepted (the proposer at once). */
  readonly accepted: readonly Colour[];
  /** Members still bound by the pact (in force: not left, not traitors, not eliminated). */
  readonly standing: readonly Colour[];
  /** Normal turns left before it expires (null: no limit, or not in force). */
  readonly turnsLeft: number | null;
  /** True once a member has betrayed it. */
  readonly broken: boolean;
  readonly proposedPly: number;
  readonly inForcePly: number | null;
  readonly endedPly: number | null;
  readonly endReason: PactEndReason | null;
}

/** One betrayal: `traitor` harmed `victim` during turn `ply` while both were bound by `pactId`. */
export interface Betrayal {
  readonly pactId: string;
  readonly traitor: Colour;
  readonly victim: Colour;
  /** 0-based index of the turn (the position's `ply` before it), as in `Elimination.ply`. */
  readonly ply: number;
  /** The turn in notation, as the room's move list shows it. */
  readonly turnText: string;
  readonly acts: readonly BetrayalAct[];
  readonly at: number;
}

// ---- draw offers ------------------------------------------------------------------------------

/** The pending draw offer. `id` counts offers in the room (offers are public). */
export interface DrawOfferView {
  readonly id: number;
  readonly by: Colour;
  readonly accepted: readonly Colour[];
  /** Turns played when it was made. */
  readonly ply: number;
}

/** Events of a draw offer. */
export const DRAW_EVENTS = ['offered', 'accepted', 'declined', 'lapsed', 'passed'] as const;
/** What happened to a draw offer. */
export type DrawEvent = (typeof DRAW_EVENTS)[number];

// ---- history and reveal -----------------------------------------------------------------------

/** Everything one member may see now (sent on join, reconnect, seat reclaim and elimination). */
export interface PressHistory {
  readonly you: MemberId;
  readonly role: 'player' | 'spectator';
  readonly phase: PressPhase;
  readonly visibility: PressVisibility;
  readonly channels: readonly ChannelView[];
  /** Other channels' existence (only with `press_visibility: 'existence'`). */
  readonly existing: readonly ChannelExistence[];
  readonly pacts: readonly PactView[];
  readonly betrayals: readonly Betrayal[];
  readonly draw: DrawOfferView | null;
  /** Set once the game is over. */
  readonly reveal: PressReveal | null;
}

/** One item of the after-game story, in the order it happened. */
export type RevealItem =
  | ({ readonly kind: 'message' } & PressMessage)
  | {
      readonly kind: 'channel';
      readonly channel: ChannelId;
      readonly members: readonly Colour[];
      readonly by: Colour;
      readonly ply: number;
      readonly at: number;
    }
  | { readonly kind: 'pact'; readonly pactId: string; readonly event: PactEvent; readonly by: Colour | null; readonly ply: number; readonly at: number }
  | ({ readonly kind: 'betrayal' } & Betrayal)
  | { readonly kind: 'draw'; readonly event: DrawEvent; readonly offer: number; readonly by: Colour | null; readonly ply: number; readonly at: number };

/** A revealed channel: its info, and whether the timeline left out older messages of it. */
export interface RevealChannel extends ChannelInfo {
  /** True when the timeline holds only the latest `HISTORY_MESSAGES` of this channel: page the rest with `press_page`. */
  readonly more: boolean;
}

/** Everything revealed after the game (`press_reveal`). */
export interface PressReveal {
  /** False when `reveal_press_after_game` is off: private, group and spectator talk stay hidden. */
  readonly conversations: boolean;
  /** Every channel whose content is revealed (table always; the others when `conversations`). */
  readonly channels: readonly RevealChannel[];
  readonly pacts: readonly PactView[];
  readonly betrayals: readonly Betrayal[];
  /**
   * Channel openings, pact events, betrayals, draw events and, per revealed channel, its latest
   * `HISTORY_MESSAGES` messages, in the order they happened.
   */
  readonly timeline: readonly RevealItem[];
}

/** `press_page` from the client: up to `limit` messages of `channel` older than message id `before`. */
export interface PressPageRequest {
  readonly channel: ChannelId;
  /** A message id (an integer from 1): the answer holds messages with smaller ids only. */
  readonly before: number;
  /** 1..`MAX_PAGE_MESSAGES`; default `PAGE_MESSAGES`. */
  readonly limit?: number;
}

/** `press_page` from the server, to the requester only: the latest messages older than `before`. */
export interface PressPage {
  readonly channel: ChannelId;
  /** The `before` of the request. */
  readonly before: number;
  /** Oldest first; contiguous ids ending at most at `before - 1`. */
  readonly messages: readonly PressMessage[];
  /** True when the server holds still older messages of this channel. */
  readonly more: boolean;
}

// ---- message names and payloads ---------------------------------------------------------------

/** Server → client message types of the press and their payloads. */
export interface PressServerMessages {
  press_message: { readonly message: PressMessage };
  press_channel: { readonly channel: ChannelInfo };
  press_exists: ChannelExistence;
  press_unread: { readonly channel: ChannelId; readonly readUpTo: number; readonly unread: number };
  press_history: PressHistory;
  pact: { readonly event: PactEvent; readonly by: Colour | null; readonly pact: PactView };
  betrayal: { readonly betrayal: Betrayal; readonly pact: PactView };
  draw: { readonly event: DrawEvent; readonly by: Colour | null; readonly offer: DrawOfferView };
  press_reveal: PressReveal;
  press_page: PressPage;
}
/** A server → client press message type. */
export type PressServerMessage = keyof PressServerMessages;
/** Every server → client press message type (what a client listens for). */
export const PRESS_SERVER_MESSAGES = [
  'press_message',
  'press_channel',
  'press_exists',
  'press_unread',
  'press_history',
  'pact',
  'betrayal',
  'draw',
  'press_reveal',
  'press_page',
] as const satisfies readonly PressServerMessage[];
// Compile-time check: fails while a key of `PressServerMessages` is missing from the list above.
type ListsEvery<Missing extends never> = Missing;
// biome-ignore lint/correctness/noUnusedVariables: the type exists to fail compilation.
type ServerMessagesListed = ListsEvery<Exclude<PressServerMessage, (typeof PRESS_SERVER_MESSAGES)[number]>>;

/** Client → server press message types (each handled by the server's `Press.handle`). */
export const PRESS_CLIENT_MESSAGES = [
  'press_send',
  'press_open',
  'press_read',
  'press_page',
  'pact_propose',
  'pact_accept',
  'pact_decline',
  'pact_leave',
  'draw_offer',
  'draw_accept',
  'draw_decline',
] as const;
/** A client → server press message type. */
export type PressClientMessage = (typeof PRESS_CLIENT_MESSAGES)[number];

// ---- rejections -------------------------------------------------------------------------------

/** Codes of press rejections (sent in `rejected` to the sender only). */
export type PressErrorCode =
  | 'bad_payload'
  | 'unknown_message'
  | 'unknown_member'
  | 'not_seated'
  | 'not_active'
  | 'not_allowed'
  | 'not_member'
  | 'no_such_channel'
  | 'empty_message'
  | 'message_too_long'
  | 'bad_text'
  | 'rate_limited'
  /** The sender (its limit key) has posted as many messages in this channel as one author may in a game. */
  | 'author_limit'
  /** No longer sent: a full channel now forgets its oldest messages instead of refusing new ones. */
  | 'channel_full'
  | 'bad_members'
  | 'game_not_started'
  | 'game_over'
  | 'no_such_pact'
  | 'pact_exists'
  | 'pact_closed'
  | 'already_answered'
  | 'too_many_pacts'
  | 'no_draw_offer'
  | 'draw_offer_open'
  | 'already_accepted'
  | 'stale';

/** A rejection of a press action: nothing changed. */
export interface PressRejection {
  readonly code: PressErrorCode;
  readonly message: string;
  /** With `rate_limited`: milliseconds until the next action is allowed. */
  readonly retryAfterMs?: number;
}
