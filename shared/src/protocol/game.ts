/**
 * The game and lobby protocol as schemas: what a client sends (`turn`, `start`, `resign`,
 * `swap`, `ready`, `name`, `time`), the create and join options, what the server sends (`seat`,
 * `seat_lost`, `rejected`, `server_restart`, `time`), the room listing, and the join error codes
 * (docs/PROTOCOL.md). The server checks with them, the client decodes with them.
 */
import * as v from 'valibot';
import { parseRules, seatsOf } from '../position.js';
import { type Colour, COLOURS, DEFAULT_RULES, type Rules, type TurnInput } from '../types.js';
import { isPlainObject, isRecord, message, type Output } from './schema.js';

// ---- limits -----------------------------------------------------------------------------------

/** Longest square string passed on to the engine (a real square has 2 characters). */
export const MAX_SQUARE_CHARS = 4;
/** Longest display name, after cleaning. */
export const MAX_NAME_CHARS = 24;
/** Longest display name a client may send, before cleaning (UTF-16 units: room for invisible characters and spaces). */
export const MAX_RAW_NAME_CHARS = 4 * MAX_NAME_CHARS;
/** A seat key is 32 hex characters; some slack is allowed, anything longer is refused. */
export const MAX_SEAT_KEY_CHARS = 64;
/** Longest clock total, seconds (7 days). */
export const MAX_CLOCK_SECONDS = 7 * 24 * 3600;
/** Largest clock increment, seconds (1 day). */
export const MAX_INCREMENT_SECONDS = 24 * 3600;
/**
 * Largest payload of a game or lobby message (every client message but the press's), in bytes:
 * the msgpack after the frame's type. The server measures the frame before decoding it and
 * refuses a larger one unread (`payload_too_large`); a legal message is a few hundred bytes at most.
 */
export const MAX_PAYLOAD_BYTES = 1024;

// ---- names ------------------------------------------------------------------------------------

/**
 * Drops control characters, bidi controls and isolates (which can reverse how the rest of a line
 * reads), and invisible format characters (zero-width spaces, soft hyphens, word joiners,
 * tags...), keeping only the zero-width joiner that emoji sequences need; line and paragraph
 * separators become spaces.
 */
export function stripInvisible(text: string): string {
  return text.replace(/[\u2028\u2029]/g, ' ').replace(/(?!\u200d)[\p{Cc}\p{Cf}\u115f\u1160\u3164\uffa0]/gu, '');
}

/** A display name as shown: invisible characters dropped, white space collapsed, trimmed. */
export function cleanDisplayName(text: string): string {
  // The client renders names as text, never HTML; what is dropped here could still mislead.
  return stripInvisible(text).replace(/\s+/g, ' ').trim();
}

// ---- pieces of messages -----------------------------------------------------------------------

/** A seat colour `R` `B` `Y` `G` `P` `W`, as the server sends it (the client only needs to know it is one). */
export const ColourSchema = v.picklist(COLOURS);
/** A seat colour in a client's message, refused with a text (kept apart so the client bundles no refusal texts). */
const ColourField = v.picklist(COLOURS, '"colour" must be one of R, B, Y, G, P, W');

const square = /* @__NO_SIDE_EFFECTS__ */ (key: string) => {
  const text = `"${key}" must be a square such as "e5"`;
  return v.nullish(v.pipe(v.string(text), v.minLength(1, text), v.maxLength(MAX_SQUARE_CHARS, text)));
};

const version = /* @__NO_SIDE_EFFECTS__ */ () => {
  const text = '"version" must be a non-negative integer';
  return v.nullish(v.pipe(v.number(text), v.safeInteger(text), v.minValue(0, text)));
};

/** The square fields of a turn message, in the order its checked `turn` has them. */
export const SQUARE_KEYS = ['from', 'to', 'placement', 'exit', 'reporterTarget'] as const;

// ---- client → server --------------------------------------------------------------------------

/**
 * `turn`: `{ from, to, placement?, exit?, reporterTarget?, version? }` or `{ pass: true,
 * version? }` (squares as `"e5"`; legality is the engine's). Decodes to `{ turn, version? }`.
 */
export const TurnMessage = v.pipe(
  message({
    from: square('from'),
    to: square('to'),
    placement: square('placement'),
    exit: square('exit'),
    reporterTarget: square('reporterTarget'),
    pass: v.optional(v.literal(true, '"pass" must be true')),
    version: version(),
  }),
  v.rawTransform(({ dataset, addIssue, NEVER }): { turn: TurnInput; version?: number } => {
    const m = dataset.value;
    const at = (key: string): [v.ObjectPathItem] => [{ type: 'object', origin: 'value', input: m, key, value: m[key as keyof typeof m] }];
    const ver = m.version ?? undefined;
    if (m.pass) {
      const extra = SQUARE_KEYS.find((key) => m[key] !== undefined && m[key] !== null);
      if (extra === undefined) return ver === undefined ? { turn: { pass: true } } : { turn: { pass: true }, version: ver };
      addIssue({ message: `a pass has no "${extra}"`, path: at(extra) });
      return NEVER;
    }
    const missing = m.from == null ? 'from' : m.to == null ? 'to' : null;
    if (missing !== null) {
      addIssue({ message: 'a turn needs "from" and "to"', path: at(missing) });
      return NEVER;
    }
    const turn: Record<string, string> = {};
    for (const key of SQUARE_KEYS) {
      const sq = m[key];
      if (sq !== undefined && sq !== null) turn[key] = sq;
    }
    return ver === undefined ? { turn: turn as unknown as TurnInput } : { turn: turn as unknown as TurnInput, version: ver };
  }),
);
/** A checked `turn` message: one complete turn and the state version it was made on. */
export type TurnMessage = Output<typeof TurnMessage>;
/** A `turn` message as a client sends it. */
export type TurnMessageInput = v.InferInput<typeof TurnMessage>;

/** `start`, `resign` and the other messages without data: none, `null` or `{}`. */
export const EmptyMessage = message({});
/** A message without data. */
export type EmptyMessage = Output<typeof EmptyMessage>;

/** `swap { colour }`: move to, or ask to swap with, the seat of that colour. */
export const SwapMessage = message({ colour: ColourField });
/** A checked `swap` message. */
export type SwapMessage = Output<typeof SwapMessage>;

/** `ready { ready }`: shows the sender as ready or not. */
export const ReadyMessage = message({ ready: v.boolean('"ready" must be true or false') });
/** A checked `ready` message. */
export type ReadyMessage = Output<typeof ReadyMessage>;

const nameText = `"name" must be 1..${MAX_NAME_CHARS} printable characters`;
/** `name { name }`: renames the sender's seat; the name is cleaned (`cleanDisplayName`), 1..24 characters. */
export const NameMessage = message({
  name: v.pipe(
    v.string(nameText),
    v.maxLength(MAX_RAW_NAME_CHARS, nameText),
    v.transform(cleanDisplayName),
    v.minLength(1, nameText),
    v.maxLength(MAX_NAME_CHARS, nameText),
  ),
});
/** A checked `name` message (the name cleaned). */
export type NameMessage = Output<typeof NameMessage>;

// ---- create and join options ------------------------------------------------------------------

/** Keys accepted in join options. */
export const JOIN_KEYS = ['name', 'colour', 'spectate', 'seatKey', 'hostToken', 'device'] as const;
/** Keys accepted only when creating a room (`hostHash` is set by `POST /api/rooms`). */
export const CREATE_KEYS = [
  'rules',
  'clock',
  'visibility',
  'press_visibility',
  'reveal_press_after_game',
  'hostHash',
  'bots',
  'autostart',
  'stand_in',
] as const;

/** Computer player levels, weakest first. */
export const BOT_LEVELS = ['easy', 'normal', 'hard'] as const;
/** A computer player's level. */
export type BotLevel = (typeof BOT_LEVELS)[number];
/** A bot level (`easy`, `normal`, `hard`). */
export const BotLevelSchema = v.picklist(BOT_LEVELS, '"level" must be one of easy, normal, hard');

/** `add_bot { colour, level }`: before the start, the host puts a computer player on a free seat. */
export const AddBotMessage = message({ colour: ColourField, level: BotLevelSchema });
/** A checked `add_bot` message. */
export type AddBotMessage = Output<typeof AddBotMessage>;
/** `remove_bot { colour }`: before the start, the host frees a computer player's seat. */
export const RemoveBotMessage = message({ colour: ColourField });
/** A checked `remove_bot` message. */
export type RemoveBotMessage = Output<typeof RemoveBotMessage>;

/** `remove_seat { colour }`: before the start, the host frees another player's seat. */
export const RemoveSeatMessage = message({ colour: ColourField });
/** A checked `remove_seat` message. */
export type RemoveSeatMessage = Output<typeof RemoveSeatMessage>;

/** Clock presets offered at creation, as `clock` create options (`day`: 1 day, +1 day per move). */
export const CLOCK_PRESETS = {
  '3+2': { initialSeconds: 180, incrementSeconds: 2 },
  '10+5': { initialSeconds: 600, incrementSeconds: 5 },
  '30+20': { initialSeconds: 1800, incrementSeconds: 20 },
  day: { initialSeconds: 24 * 3600, incrementSeconds: 24 * 3600 },
} as const satisfies Record<string, { initialSeconds: number; incrementSeconds: number }>;
/** The name of a clock preset. */
export type ClockPreset = keyof typeof CLOCK_PRESETS;

const joinName = `"name" must be a string of at most ${MAX_NAME_CHARS} characters`;
const seatKeyText = '"seatKey" must be a seat key string';
const hostTokenText = '"hostToken" must be a host token string';
/** Shortest and longest per-browser device token (`device` join option). */
export const MIN_DEVICE_CHARS = 16;
/** Longest per-browser device token. */
export const MAX_DEVICE_CHARS = 64;
const deviceText = `"device" must be ${MIN_DEVICE_CHARS} to ${MAX_DEVICE_CHARS} letters, digits, "-" or "_"`;
/**
 * Join options (`joinById(code, options)`, also the joining part of `create`): `name?`,
 * `colour?`, `spectate?`, `seatKey?`, `hostToken?` (the token `POST /api/rooms` returned: the
 * seat it takes is the host's), `device?` (a random token this browser keeps for every game: a
 * player the host removed may not take a seat again from it); `null` reads as absent. Decodes with `spectate` a boolean.
 */
export const JoinOptions = v.pipe(
  message(
    {
      name: v.nullish(
        v.pipe(v.string(joinName), v.maxLength(MAX_RAW_NAME_CHARS, joinName), v.transform(cleanDisplayName), v.maxLength(MAX_NAME_CHARS, joinName)),
      ),
      colour: v.nullish(ColourField),
      spectate: v.nullish(v.boolean('"spectate" must be a boolean')),
      seatKey: v.nullish(v.pipe(v.string(seatKeyText), v.minLength(1, seatKeyText), v.maxLength(MAX_SEAT_KEY_CHARS, seatKeyText))),
      hostToken: v.nullish(v.pipe(v.string(hostTokenText), v.minLength(1, hostTokenText), v.maxLength(MAX_SEAT_KEY_CHARS, hostTokenText))),
      device: v.nullish(
        v.pipe(
          v.string(deviceText),
          v.minLength(MIN_DEVICE_CHARS, deviceText),
          v.maxLength(MAX_DEVICE_CHARS, deviceText),
          v.regex(/^[A-Za-z0-9_-]+$/, deviceText),
        ),
      ),
    },
    'options',
  ),
  v.check((o) => !(o.spectate && (o.seatKey != null || o.colour != null)), '"spectate" cannot be combined with "seatKey" or "colour"'),
  v.transform((o): { name?: string; colour?: Colour; spectate: boolean; seatKey?: string; hostToken?: string; device?: string } => ({
    name: o.name ?? undefined,
    colour: o.colour ?? undefined,
    spectate: o.spectate === true,
    seatKey: o.seatKey ?? undefined,
    hostToken: o.hostToken ?? undefined,
    device: o.device ?? undefined,
  })),
);
/** Checked join options. */
export type JoinOptions = Output<typeof JoinOptions>;
/** Join options as a client sends them. */
export type JoinOptionsInput = v.InferInput<typeof JoinOptions>;

const seconds = /* @__NO_SIDE_EFFECTS__ */ (name: string, min: number, max: number) => {
  const text = `"${name}" must be a number of seconds in [${min}, ${max}]`;
  return v.pipe(v.number(text), v.finite(text), v.minValue(min, text), v.maxValue(max, text));
};
const clockText = '"clock" must be { initialSeconds, incrementSeconds } or null';
/** A clock option: total seconds (1 s .. 7 days) and an increment per turn (0 .. 1 day, default 0). */
export const ClockOptions = v.pipe(
  v.custom<Record<string, unknown>>(isPlainObject, clockText),
  v.strictObject(
    {
      initialSeconds: seconds('clock.initialSeconds', 1, MAX_CLOCK_SECONDS),
      incrementSeconds: v.nullish(seconds('clock.incrementSeconds', 0, MAX_INCREMENT_SECONDS), 0),
    },
    (issue) => (issue.expected === 'never' ? `unknown clock option ${JSON.stringify(String(issue.input).slice(0, 32))}` : clockText),
  ),
);
/** A checked clock option. */
export type ClockOptions = Output<typeof ClockOptions>;

/** Rule options checked by the engine's `parseRules` (defaults filled); its message on failure. */
const RulesOption = v.pipe(
  v.custom<Partial<Rules> | null | undefined>(() => true),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const rules = parseRules(dataset.value ?? {});
    if (rules.ok) return rules.value;
    addIssue({ message: rules.error.message });
    return NEVER;
  }),
);

/** The values of `press_visibility` (docs/PRESS.md, "Visibility"). */
export const PRESS_VISIBILITIES = ['hidden', 'existence'] as const;

/** The room visibilities: `public` rooms are listed in `GET /api/rooms`. */
export const ROOM_VISIBILITIES = ['private', 'public'] as const;
/** Whether a room is listed. */
export type RoomVisibility = (typeof ROOM_VISIBILITIES)[number];

const hostHashText = '"hostHash" must be the SHA-256 (hex) of a host token';
const botsText = '"bots" must map seat colours (R, B, Y, G) to levels (easy, normal, hard) or to { level, personality? }';
/** Bot personalities: `loyal` keeps its pacts, `cautious` guards its chief and leaves a pact openly when it no longer pays, `treacherous` breaks pacts when that pays. */
export const BOT_PERSONALITIES = ['loyal', 'cautious', 'treacherous'] as const;
/** A computer player's personality (a secret of the bot: never shown to the other players). */
export type BotPersonality = (typeof BOT_PERSONALITIES)[number];
/** One bot seat of the `bots` create option, its personality absent when the room picks one from its seed. */
export interface BotSeatOption {
  readonly level: BotLevel;
  readonly personality?: BotPersonality;
}
const BotSeatSchema = v.union(
  [
    v.picklist(BOT_LEVELS, botsText),
    v.pipe(
      v.custom<Record<string, unknown>>(isPlainObject, botsText),
      v.strictObject({ level: v.picklist(BOT_LEVELS, botsText), personality: v.optional(v.picklist(BOT_PERSONALITIES, botsText)) }, botsText),
    ),
  ],
  botsText,
);
/** An optional bot seat per colour; marked pure so that a bundle not using `BotsOption` drops it all. */
const botSeatEntries = /* @__NO_SIDE_EFFECTS__ */ () =>
  Object.fromEntries(COLOURS.map((c) => [c, v.optional(BotSeatSchema)])) as Record<Colour, v.OptionalSchema<typeof BotSeatSchema, undefined>>;
/**
 * The `bots` create option: seat colour → level, e.g. `{ "B": "easy", "Y": "normal" }`, or →
 * `{ level, personality? }` (`{ "B": { "level": "hard", "personality": "treacherous" } }`).
 * Decodes every seat to a `BotSeatOption`.
 */
export const BotsOption = v.pipe(
  v.custom<Record<string, unknown>>(isPlainObject, botsText),
  v.strictObject(botSeatEntries(), botsText),
  v.transform((o) => {
    const out: Partial<Record<Colour, BotSeatOption>> = {};
    for (const c of COLOURS) {
      const seat = o[c];
      if (seat !== undefined) out[c] = typeof seat === 'string' ? { level: seat } : seat;
    }
    return out;
  }),
);
/**
 * The create-only options of a room (`POST /api/rooms` body; with the join options, the options
 * of `client.create`): `rules?`, `clock?`, `visibility?`, `press_visibility?`,
 * `reveal_press_after_game?`, `bots?` (seat colour → bot level or `{ level, personality? }`),
 * `autostart?` (start once every seat is taken, e.g. one person against three bots), `stand_in?`
 * (a bot plays for a player who is away; on by default). A bad `rules` is the engine's `bad_rules` (the issue's path is
 * `rules`); every other issue is `bad_options`.
 */
export const CreateOptions = v.pipe(
  message(
    {
      rules: v.optional(RulesOption, {}),
      clock: v.nullish(
        v.pipe(
          v.custom<false | Record<string, unknown>>((c) => c === false || isPlainObject(c), clockText),
          v.transform((c) => (c === false ? null : c)),
          v.nullable(ClockOptions),
        ),
        null,
      ),
      visibility: v.nullish(v.picklist(ROOM_VISIBILITIES, '"visibility" must be "private" or "public"'), 'private'),
      press_visibility: v.nullish(v.picklist(PRESS_VISIBILITIES, '"press_visibility" must be "hidden" or "existence"'), 'hidden'),
      reveal_press_after_game: v.nullish(v.boolean('"reveal_press_after_game" must be true or false'), true),
      hostHash: v.nullish(v.pipe(v.string(hostHashText), v.maxLength(64, hostHashText), v.regex(/^[0-9a-f]{64}$/, hostHashText)), null),
      bots: v.nullish(BotsOption, {}),
      autostart: v.nullish(v.boolean('"autostart" must be true or false'), false),
      stand_in: v.nullish(v.boolean('"stand_in" must be true or false'), true),
    },
    'options',
  ),
  v.check((o) => Object.keys(o.bots).every((c) => seatsOf(o.rules).includes(c as Colour)), '"bots" names a seat this game does not have'),
);
/** Checked create options, defaults filled. */
export type CreateOptions = Output<typeof CreateOptions>;
/** Create options as a client sends them. */
export type CreateOptionsInput = v.InferInput<typeof CreateOptions>;

// ---- server → client --------------------------------------------------------------------------

/** `seat { colour, seatKey }`: to the seat holder only, after taking, swapping or reclaiming a seat. */
export const SeatMessage = v.object({ colour: ColourSchema, seatKey: v.string() });
/** A `seat` message. */
export type SeatMessage = Output<typeof SeatMessage>;

/** `seat_lost { colour, reason }`: the seat was reclaimed by another connection (`reclaimed`) or the host freed it (`removed`). */
export const SeatLostMessage = v.object({ colour: ColourSchema, reason: v.string() });
/** A `seat_lost` message. */
export type SeatLostMessage = Output<typeof SeatLostMessage>;

/**
 * `rejected { type, code, message, retryAfterMs?, path? }`: to the sender of a refused message.
 * `path` names the bad field of a `bad_payload` (`"from"`, `"clock.initialSeconds"`).
 */
export const RejectedMessage = v.object({
  type: v.custom<string | number>((x) => typeof x === 'string' || typeof x === 'number'),
  code: v.string(),
  message: v.string(),
  retryAfterMs: v.optional(v.number()),
  path: v.optional(v.string()),
});
/** A `rejected` message. */
export type RejectedMessage = Output<typeof RejectedMessage>;

/**
 * `time { now }`: the answer to a client's `time` (no payload), to that client only: the server
 * clock, epoch ms (the clock of `clock.turnStartedAt`, `seats[c].since` and the rematch deadline),
 * for the client to estimate its own clock's offset from a round trip.
 */
export const TimeMessage = v.object({ now: v.pipe(v.number(), v.finite()) });
/** A `time` message. */
export type TimeMessage = Output<typeof TimeMessage>;

/** Kinds of record entries. */
export const ENTRY_KINDS = ['turn', 'pass', 'resign', 'timeout', 'draw'] as const;
/** The kind of a record entry. */
export type EntryKind = (typeof ENTRY_KINDS)[number];

// ---- the room listing -------------------------------------------------------------------------

/** The phases of a room. */
export const ROOM_PHASES = ['waiting', 'playing', 'over'] as const;
/** Where a room is. */
export type RoomPhase = (typeof ROOM_PHASES)[number];

/** Public description of a room: listing metadata, `GET /api/rooms` items and `GET /api/rooms/CODE`. */
export const RoomListing = v.object({
  code: v.string(),
  phase: v.picklist(ROOM_PHASES),
  visibility: v.picklist(ROOM_VISIBILITIES),
  press_visibility: v.picklist(PRESS_VISIBILITIES),
  reveal_press_after_game: v.boolean(),
  players: v.number(),
  seats: v.array(v.object({ colour: ColourSchema, name: v.string(), presence: v.string() })),
  seatsTaken: v.number(),
  spectators: v.number(),
  clock: v.nullable(v.object({ initialSeconds: v.number(), incrementSeconds: v.number() })),
  rules: v.custom<Record<string, unknown>>(isRecord),
  moves: v.number(),
  createdAt: v.number(),
  /** Connections, as the matchmaker counts them (HTTP answers only). */
  clients: v.optional(v.number()),
  /** The invite link (`GET /api/rooms/CODE` only). */
  invite: v.optional(v.string()),
});
/** A listed room. */
export type RoomListing = Output<typeof RoomListing>;

/** `GET /api/rooms`: one page of public rooms, and the cursor of the next page (or null). */
export const RoomListingPage = v.object({ rooms: v.array(v.custom<unknown>(() => true)), next: v.nullable(v.string()) });
/** A page of the listing (each room still to be decoded with `RoomListing`). */
export type RoomListingPage = Output<typeof RoomListingPage>;

/** `POST /api/rooms` answer: the new room's code and invite link. */
export const CreatedRoom = v.object({
  code: v.string(),
  invite: v.optional(v.string()),
  url: v.optional(v.string()),
  /** The host token: join with `{ hostToken }` to take the host's seat (kept by the creator only). */
  hostToken: v.optional(v.string()),
});
/** A created room. */
export type CreatedRoom = Output<typeof CreatedRoom>;

/** An HTTP API error body: `{ error: { code, message } }`. */
export const HttpErrorBody = v.object({ error: v.object({ code: v.string(), message: v.string() }) });
/** An HTTP API error body. */
export type HttpErrorBody = Output<typeof HttpErrorBody>;

// ---- the synced state ---------------------------------------------------------------------------

/** The fields of the state's `RulesState`: the rule options, and the board's own (empty on other boards). */
const RULES_STATE_KEYS: readonly string[] = [...Object.keys(DEFAULT_RULES), 'board', 'vertex_step', 'hostage_seat'];

/**
 * The rule options a room's `RulesState` (its `toJSON()`) holds: its fields, but the board's own
 * options where the state writes them empty (`board` and `vertex_step` `''`, `hostage_seat` `0`),
 * so that `parseRules` reads the result. Not checked: the caller parses it.
 */
export function rulesOfState(state: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isRecord(state)) return out;
  for (const key of RULES_STATE_KEYS) {
    const value = state[key];
    if (value !== undefined && value !== null && value !== '' && !(key === 'hostage_seat' && value === 0)) out[key] = value;
  }
  return out;
}
