/**
 * The negotiation ("press") wire protocol shared by server and client: message names, payload
 * schemas (valibot; the types are inferred from them) and the few constants both sides need
 * (docs/PRESS.md). The server builds these payloads and validates what it receives with
 * `PRESS_CLIENT_SCHEMAS`; the client decodes every press message with `PRESS_SERVER_SCHEMAS`.
 */
import * as v from 'valibot';
import { ColourSchema, MAX_PAYLOAD_BYTES, PRESS_VISIBILITIES } from './protocol/game.js';
import { message, type Output } from './protocol/schema.js';
import type { Colour } from './types.js';

/** An opaque spectator id chosen by the room (e.g. the Colyseus session id); never a colour. */
export type SpectatorId = string;
/** Who takes part in the press: a seat colour for a seated player, else a spectator id. */
export type MemberId = Colour | SpectatorId;

/** `hidden`: nobody learns that a private or group channel exists; `existence`: everyone may. */
export type PressVisibility = (typeof PRESS_VISIBILITIES)[number];
/** The phases of a room as the press sees them. */
export const PRESS_PHASES = ['waiting', 'playing', 'over'] as const;
/** Where the room is: before the start, during the game, after the result. */
export type PressPhase = (typeof PRESS_PHASES)[number];

/** The kinds of channel. */
export const CHANNEL_KINDS = ['table', 'spectators', 'private', 'group'] as const;
/** The four kinds of channel. */
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** Who is writing, as the write permission sees it. */
export interface Writer {
  /** Holds a seat of the game. */
  readonly seat: boolean;
  /** May use the spectators channel (a spectator, an eliminated player, anyone after the game). */
  readonly readsSpectators: boolean;
  /** A seat still in the game. */
  readonly active: boolean;
}

/** The answer of `mayWrite`: allowed, or the refusal code. */
export type WriteVerdict = 'ok' | 'not_allowed' | 'game_not_started' | 'game_over' | 'not_active';

/**
 * May `writer` post in a channel of `kind` in `phase`? The one copy of the press's write
 * permission: the server refuses with the verdict, the client offers a message box only on `ok`
 * (membership of a private or group channel is the channel's own list).
 */
export function mayWrite(kind: ChannelKind, writer: Writer, phase: PressPhase): WriteVerdict {
  if (kind === 'table') return writer.seat ? 'ok' : 'not_allowed';
  if (kind === 'spectators') return writer.readsSpectators ? 'ok' : 'not_allowed';
  if (phase === 'waiting') return 'game_not_started';
  if (phase === 'over') return 'game_over';
  return writer.active ? 'ok' : 'not_active';
}
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
/** Longest channel or pact id a client may send (UTF-16 units). */
export const MAX_PRESS_ID_CHARS = 40;
/** Longest pact, in rounds (`pact_propose.rounds`). */
export const MAX_PACT_ROUNDS = 1000;
/**
 * Largest payload of a press message from a client (`press_*`, `pact_*`, `draw_*`), in bytes:
 * the msgpack after the frame's type, measured by the server before decoding (`payload_too_large`).
 * A legal `press_send` (2000 UTF-16 units of text at most, 3 bytes each in UTF-8) fits.
 */
export const MAX_PRESS_PAYLOAD_BYTES = 8 * 1024;

// ---- pacts and draws: value lists -------------------------------------------------------------

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
/** Events of a draw offer. */
export const DRAW_EVENTS = ['offered', 'accepted', 'declined', 'lapsed', 'passed'] as const;
/** What happened to a draw offer. */
export type DrawEvent = (typeof DRAW_EVENTS)[number];

// ---- schemas of the server's payloads ---------------------------------------------------------

const id = v.string();
const count = v.number();
const colours = v.array(ColourSchema);

/** One message as delivered and kept. `id` counts from 1 within its channel only. */
export const PressMessage = v.object({
  id: count,
  channel: id,
  from: id,
  /** A spectator's display name (players are named by their seat in the room state). */
  name: v.optional(v.string()),
  /** Plain text, at most `MAX_MESSAGE_CHARS` characters; never HTML. */
  text: v.string(),
  /** Turns played when it was sent (0 before the first turn). */
  ply: count,
  /** Server time, epoch ms. */
  at: count,
});
/** One press message. */
export type PressMessage = Output<typeof PressMessage>;

/** A channel without its messages. `members` is null for `table` and `spectators`. */
export const ChannelInfo = v.object({
  id,
  kind: v.picklist(CHANNEL_KINDS),
  members: v.nullable(colours),
  /** The seat that opened a private or group channel. */
  openedBy: v.nullable(ColourSchema),
  /** Turns played when it was opened (0 for the built-in channels). */
  ply: count,
});
/** A channel without its messages. */
export type ChannelInfo = Output<typeof ChannelInfo>;

/** A channel as one member sees it: its latest messages and that member's read state. */
export const ChannelView = v.object({
  ...ChannelInfo.entries,
  /** The latest messages (at most `HISTORY_MESSAGES`), oldest first. */
  messages: v.array(PressMessage),
  /** True when the server holds older messages than `messages[0]`: ask for them with `press_page`. */
  more: v.boolean(),
  /** Highest message id this member has read (0: none). */
  readUpTo: count,
  /** Messages from others after `readUpTo`. */
  unread: count,
});
/** A channel as one member sees it. */
export type ChannelView = Output<typeof ChannelView>;

/** What `press_visibility: 'existence'` shows to a non-member: who talk together, nothing else. */
export const ChannelExistence = v.object({ channel: id, members: colours });
/** A channel's existence. */
export type ChannelExistence = Output<typeof ChannelExistence>;

/** A pact as its members (and, once an announced pact is in force, everyone) see it. */
export const PactView = v.object({
  id,
  proposer: ColourSchema,
  /** Every party, proposer included, in seat order; fixed at the proposal. */
  members: colours,
  /** Length in rounds, or null for no limit. */
  rounds: v.nullable(count),
  announced: v.boolean(),
  status: v.picklist(PACT_STATUSES),
  /** Members who have accepted (the proposer at once). */
  accepted: colours,
  /** Members still bound by the pact (in force: not left, not traitors, not eliminated). */
  standing: colours,
  /** Normal turns left before it expires (null: no limit, or not in force). */
  turnsLeft: v.nullable(count),
  /** Rounds left before it expires, counted up (a round: as many normal turns as players were active when it came into force; null as `turnsLeft`). */
  roundsLeft: v.optional(v.nullable(count), null),
  /** True once a member has betrayed it. */
  broken: v.boolean(),
  proposedPly: count,
  inForcePly: v.nullable(count),
  endedPly: v.nullable(count),
  endReason: v.nullable(v.picklist(PACT_END_REASONS)),
});
/** A pact. */
export type PactView = Output<typeof PactView>;

/** One betrayal: `traitor` harmed `victim` during turn `ply` while both were bound by `pactId`. */
export const Betrayal = v.object({
  pactId: id,
  traitor: ColourSchema,
  victim: ColourSchema,
  /** 0-based index of the turn (the position's `ply` before it), as in `Elimination.ply`. */
  ply: count,
  /** The turn in notation, as the room's move list shows it. */
  turnText: v.string(),
  acts: v.array(v.picklist(BETRAYAL_ACTS)),
  at: count,
});
/** A betrayal. */
export type Betrayal = Output<typeof Betrayal>;

/** The pending draw offer. `id` counts offers in the room (offers are public). */
export const DrawOfferView = v.object({
  id: count,
  by: ColourSchema,
  accepted: colours,
  /** Turns played when it was made. */
  ply: count,
});
/** A draw offer. */
export type DrawOfferView = Output<typeof DrawOfferView>;

/** One item of the after-game story, in the order it happened. */
export const RevealItem = v.variant('kind', [
  v.object({ kind: v.literal('message'), ...PressMessage.entries }),
  v.object({ kind: v.literal('channel'), channel: id, members: colours, by: ColourSchema, ply: count, at: count }),
  v.object({ kind: v.literal('pact'), pactId: id, event: v.picklist(PACT_EVENTS), by: v.nullable(ColourSchema), ply: count, at: count }),
  v.object({ kind: v.literal('betrayal'), ...Betrayal.entries }),
  v.object({ kind: v.literal('draw'), event: v.picklist(DRAW_EVENTS), offer: count, by: v.nullable(ColourSchema), ply: count, at: count }),
]);
/** An item of the reveal's timeline. */
export type RevealItem = Output<typeof RevealItem>;

/** A revealed channel: its info, and whether the timeline left out older messages of it. */
export const RevealChannel = v.object({
  ...ChannelInfo.entries,
  /** True when the timeline holds only the latest `HISTORY_MESSAGES` of this channel: page the rest with `press_page`. */
  more: v.boolean(),
});
/** A revealed channel. */
export type RevealChannel = Output<typeof RevealChannel>;

/** Everything revealed after the game (`press_reveal`). */
export const PressReveal = v.object({
  /** False when `reveal_press_after_game` is off: private, group and spectator talk stay hidden. */
  conversations: v.boolean(),
  /** Every channel whose content is revealed (table always; the others when `conversations`). */
  channels: v.array(RevealChannel),
  pacts: v.array(PactView),
  betrayals: v.array(Betrayal),
  /**
   * Channel openings, pact events, betrayals, draw events and, per revealed channel, its latest
   * `HISTORY_MESSAGES` messages, in the order they happened.
   */
  timeline: v.array(RevealItem),
});
/** The reveal. */
export type PressReveal = Output<typeof PressReveal>;

/** Everything one member may see now (sent on join, reconnect, seat reclaim and elimination). */
export const PressHistory = v.object({
  you: id,
  role: v.picklist(['player', 'spectator']),
  phase: v.picklist(PRESS_PHASES),
  visibility: v.picklist(PRESS_VISIBILITIES),
  channels: v.array(ChannelView),
  /** Other channels' existence (only with `press_visibility: 'existence'`). */
  existing: v.array(ChannelExistence),
  pacts: v.array(PactView),
  betrayals: v.array(Betrayal),
  draw: v.nullable(DrawOfferView),
  /** Set once the game is over. */
  reveal: v.nullable(PressReveal),
});
/** A member's press history. */
export type PressHistory = Output<typeof PressHistory>;

/** `press_page` from the server, to the requester only: the latest messages older than `before`. */
export const PressPage = v.object({
  channel: id,
  /** The `before` of the request. */
  before: count,
  /** Oldest first; contiguous ids ending at most at `before - 1`. */
  messages: v.array(PressMessage),
  /** True when the server holds still older messages of this channel. */
  more: v.boolean(),
});
/** A page of older messages. */
export type PressPage = Output<typeof PressPage>;

// ---- message names and payloads ---------------------------------------------------------------

/** The schema of each server → client press message's payload (what the client decodes with). */
export const PRESS_SERVER_SCHEMAS = {
  press_message: v.object({ message: PressMessage }),
  press_channel: v.object({ channel: ChannelInfo }),
  press_exists: ChannelExistence,
  press_unread: v.object({ channel: id, readUpTo: count, unread: count }),
  press_history: PressHistory,
  pact: v.object({ event: v.picklist(PACT_EVENTS), by: v.nullable(ColourSchema), pact: PactView }),
  betrayal: v.object({ betrayal: Betrayal, pact: PactView }),
  draw: v.object({ event: v.picklist(DRAW_EVENTS), by: v.nullable(ColourSchema), offer: DrawOfferView }),
  press_reveal: PressReveal,
  press_page: PressPage,
} as const;
/** Server → client message types of the press and their payloads. */
export type PressServerMessages = { [K in keyof typeof PRESS_SERVER_SCHEMAS]: Output<(typeof PRESS_SERVER_SCHEMAS)[K]> };
/** A server → client press message type. */
export type PressServerMessage = keyof PressServerMessages;
/** Every server → client press message type (what a client listens for): the keys of the schemas. */
export const PRESS_SERVER_MESSAGES = Object.keys(PRESS_SERVER_SCHEMAS) as readonly PressServerMessage[];

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

const PRESS_CLIENT_TYPES: ReadonlySet<unknown> = /* @__PURE__ */ new Set(PRESS_CLIENT_MESSAGES);
/**
 * Largest payload a client may send with a message of `type`, in bytes (`payload_too_large`
 * past it): `MAX_PRESS_PAYLOAD_BYTES` for the press's messages, `MAX_PAYLOAD_BYTES` for every
 * other type, known or not.
 */
export function maxPayloadBytes(type: unknown): number {
  return PRESS_CLIENT_TYPES.has(type) ? MAX_PRESS_PAYLOAD_BYTES : MAX_PAYLOAD_BYTES;
}

// The builders below are marked free of side effects so that a bundle which imports this
// module only to decode server messages (the client) drops the client → server schemas.

/** A channel or pact id in a client payload: a string of 1..`MAX_PRESS_ID_CHARS` units (`what`: its name in the refusal). */
const clientId = /* @__NO_SIDE_EFFECTS__ */ (what: string) =>
  v.pipe(
    v.string(`"${what}" must be a ${what} id`),
    v.minLength(1, `"${what}" must be a ${what} id`),
    v.maxLength(MAX_PRESS_ID_CHARS, `"${what}" must be a ${what} id`),
  );
/** A safe integer from `min` (and up to `max`), refused with `text`. */
const integer = /* @__NO_SIDE_EFFECTS__ */ (text: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  v.pipe(v.number(text), v.safeInteger(text), v.minValue(min, text), v.maxValue(max, text));
/**
 * A list of 1..4 strings of at most `MAX_PRESS_ID_CHARS` units, its length checked before its
 * items (the colours are checked against the game's seats by the server: `bad_members`).
 */
const seatList = /* @__NO_SIDE_EFFECTS__ */ (what: string) => {
  const text = `"${what}" must be a list of 1 to 6 seat colours`;
  return v.pipe(
    v.custom<unknown[]>(Array.isArray, text),
    v.minLength(1, text),
    v.maxLength(6, text),
    v.array(v.pipe(v.string(text), v.maxLength(MAX_PRESS_ID_CHARS, text)), text),
  );
};
/** Message text: a string that fits a press payload (the server's own text rules then give `message_too_long`, `bad_text`…). */
const messageText = /* @__NO_SIDE_EFFECTS__ */ () =>
  v.pipe(
    v.string('"text" must be a string'),
    v.maxLength(MAX_PRESS_PAYLOAD_BYTES, `"text" must be a string of at most ${MAX_PRESS_PAYLOAD_BYTES} UTF-16 units`),
  );

/** `press_page` from the client: up to `limit` messages of `channel` older than message id `before`. */
export const PressPageRequest = message({
  channel: clientId('channel'),
  /** A message id (an integer from 1): the answer holds messages with smaller ids only. */
  before: integer('"before" must be a message id (an integer from 1)', 1),
  /** 1..`MAX_PAGE_MESSAGES`; default `PAGE_MESSAGES`. */
  limit: v.optional(integer(`"limit" must be an integer from 1 to ${MAX_PAGE_MESSAGES}`, 1, MAX_PAGE_MESSAGES)),
});
/** A `press_page` request. */
export type PressPageRequest = Output<typeof PressPageRequest>;

const pactRef = message({ pact: clientId('pact') });
const offerRef = message({ offer: v.optional(integer('"offer" must be an offer id', 1)) });
/**
 * The shape of each client → server press message (docs/PROTOCOL.md, "Client → server"): the
 * server's `Press.handle` checks every payload with these first (`bad_payload`, with the path of
 * the bad field), then the press's own rules give their codes (`bad_members`, `message_too_long`,
 * `bad_text`…: here the text is only a string that fits a press payload; its length in characters
 * and its characters are the server's `cleanText`). Every string, list and number is bounded and
 * every object strict, so a check reads a few fields whatever it is given.
 */
export const PRESS_CLIENT_SCHEMAS = {
  press_send: message({ channel: clientId('channel'), text: messageText() }),
  press_open: message({ members: seatList('members') }),
  press_read: message({ channel: clientId('channel'), upTo: integer('"upTo" must be a message id (an integer from 0)', 0) }),
  press_page: PressPageRequest,
  pact_propose: message({
    with: seatList('with'),
    rounds: v.nullish(integer(`"rounds" must be an integer from 1 to ${MAX_PACT_ROUNDS}, or null`, 1, MAX_PACT_ROUNDS)),
    announce: v.optional(v.boolean('"announce" must be true or false')),
  }),
  pact_accept: pactRef,
  pact_decline: pactRef,
  pact_leave: pactRef,
  draw_offer: message({}),
  draw_accept: offerRef,
  draw_decline: offerRef,
} as const satisfies Record<PressClientMessage, v.GenericSchema>;
/** The payload a client sends with each press message type. */
export type PressClientPayloads = { [K in PressClientMessage]: v.InferInput<(typeof PRESS_CLIENT_SCHEMAS)[K]> };
/** A press payload as the server reads it once its schema has accepted it. */
export type PressClientPayload<K extends PressClientMessage> = Output<(typeof PRESS_CLIENT_SCHEMAS)[K]>;

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
  /** With `bad_payload`: the bad field as a dotted path (`"channel"`, `"with.1"`), when there is one. */
  readonly path?: string;
}
