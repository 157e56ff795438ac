/**
 * Types of the press (negotiation) modules: members, channels, messages, pacts, draw offers,
 * the deliveries the room sends and the rejection codes. Plain data only.
 */
import type { Colour } from '@djambi/shared';

/** An opaque spectator id chosen by the room (e.g. the Colyseus session id); never a colour. */
export type SpectatorId = string;
/** Who takes part in the press: a seat colour for a seated player, else a spectator id. */
export type MemberId = Colour | SpectatorId;

/** `hidden`: nobody learns that a private or group channel exists; `existence`: everyone may. */
export type PressVisibility = 'hidden' | 'existence';
/** Where the room is: before the start, during the game, after the result. */
export type PressPhase = 'waiting' | 'playing' | 'over';

/** The room options of the press (create options of the room). */
export interface PressRoomOptions {
  /** Default `hidden`. */
  readonly press_visibility: PressVisibility;
  /** Default true: private, group and spectator conversations are shown to everyone after the game. */
  readonly reveal_press_after_game: boolean;
}

/** The four kinds of channel. */
export type ChannelKind = 'table' | 'spectators' | 'private' | 'group';
/** `table`, `spectators`, `dm:XY` (two seats) or `group:XYZ…` (three or more), colours in seat order. */
export type ChannelId = string;

/** One message as delivered and kept. `id` counts from 1 within its channel only. */
export interface PressMessage {
  readonly id: number;
  readonly channel: ChannelId;
  readonly from: MemberId;
  /** A spectator's display name (players are named by their seat in the room state). */
  readonly name?: string;
  /** Plain text, at most 500 characters; never HTML. */
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

/** A channel as one member sees it: its messages and that member's read state. */
export interface ChannelView extends ChannelInfo {
  readonly messages: readonly PressMessage[];
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

/** `proposed` until every invitee accepts, then `in_force`, finally `ended`. */
export type PactStatus = 'proposed' | 'in_force' | 'ended';
/** Why a pact ended. */
export type PactEndReason = 'declined' | 'withdrawn' | 'left' | 'betrayed' | 'expired' | 'eliminated' | 'game_over';
/** What happened to a pact (the `event` of a `pact` message). */
export type PactEvent = 'proposed' | 'accepted' | 'declined' | 'withdrawn' | 'in_force' | 'left' | 'eliminated' | 'expired';
/** What a traitor did to a fellow member's piece or chief. */
export type BetrayalAct = 'kill' | 'displace' | 'encircle';

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

/** What happened to a draw offer. */
export type DrawEvent = 'offered' | 'accepted' | 'declined' | 'lapsed' | 'passed';

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
  | { readonly kind: 'channel'; readonly channel: ChannelId; readonly members: readonly Colour[]; readonly by: Colour; readonly ply: number; readonly at: number }
  | { readonly kind: 'pact'; readonly pactId: string; readonly event: PactEvent; readonly by: Colour | null; readonly ply: number; readonly at: number }
  | ({ readonly kind: 'betrayal' } & Betrayal)
  | { readonly kind: 'draw'; readonly event: DrawEvent; readonly offer: number; readonly by: Colour | null; readonly ply: number; readonly at: number };

/** Everything revealed after the game (`press_reveal`). */
export interface PressReveal {
  /** False when `reveal_press_after_game` is off: private, group and spectator talk stay hidden. */
  readonly conversations: boolean;
  /** Every channel whose content is revealed (table always; the others when `conversations`). */
  readonly channels: readonly ChannelInfo[];
  readonly pacts: readonly PactView[];
  readonly betrayals: readonly Betrayal[];
  /** Messages, channel openings, pact events, betrayals and draw events in the order they happened. */
  readonly timeline: readonly RevealItem[];
}

// ---- what the room sends ----------------------------------------------------------------------

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
}
/** A server → client press message type. */
export type PressServerMessage = keyof PressServerMessages;

/** One message for the room to `client.send(type, payload)` to each client in `to` (never empty). */
export type Delivery = {
  [K in PressServerMessage]: { readonly to: readonly MemberId[]; readonly type: K; readonly payload: PressServerMessages[K] };
}[PressServerMessage];

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

/** The answer to a press action: the deliveries to send, or the rejection for the sender. */
export type PressResult =
  | { readonly ok: true; readonly deliveries: Delivery[]; /** Every active player accepted a draw: call `drawByAgreement`. */ readonly drawAgreed?: true }
  | { readonly ok: false; readonly error: PressRejection };
