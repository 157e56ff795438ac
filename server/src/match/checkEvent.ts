/**
 * Whether a value read from a game log is an event this server could have accepted: its shape
 * (`MatchEvent`: a time and an intent of a known type, each field of its type) and the limits
 * the live server holds its messages to (a seat colour of the game, names of at most
 * `MAX_NAME_CHARS`, press payloads that pass their shared schema, press text that `cleanText`
 * accepts). A replay skips those checks (`Match.restore` trusts its log); `Match.restoreValid`
 * runs them first, so that a log damaged on disk or edited by hand ends where it stops making
 * sense instead of being replayed into a wrong match, or thrown on. The reasons name fields and
 * limits, never what a player wrote: they go to the operator's log.
 */
import { BOT_LEVELS, check, MAX_NAME_CHARS, MAX_SQUARE_CHARS, PRESS_CLIENT_MESSAGES, PRESS_CLIENT_SCHEMAS } from '@djambi/shared';
import { cleanText } from '../press/text.js';

/** Longest hash (a seat key's or a host token's SHA-256, 64 hex characters), with slack. */
const MAX_HASH_CHARS = 128;
/** Longest member, spectator id, limit key or rematch code (session ids, `addr:<address>`). */
const MAX_ID_CHARS = 128;
/** Most ids one event draws (new pacts). */
const MAX_IDS = 64;
/** Most hashes one `remove_seat` bars (a key hash and a device hash). */
const MAX_BARRED = 4;

const INTENT_TYPES: ReadonlySet<string> = new Set([
  'take_seat',
  'leave_seat',
  'swap',
  'ready',
  'rename',
  'start',
  'add_bot',
  'remove_bot',
  'remove_seat',
  'pass_host',
  'turn',
  'resign',
  'flag',
  'press',
  'spectate',
  'unspectate',
  'resume',
  'rematch_offer',
  'rematch_answer',
  'rematch_created',
]);
const PRESS_MESSAGES: ReadonlySet<string> = new Set(PRESS_CLIENT_MESSAGES);
const LEVELS: ReadonlySet<string> = new Set(BOT_LEVELS);
const SQUARE_KEYS = ['from', 'to', 'placement', 'exit', 'reporterTarget'] as const;

type Fields = Record<string, unknown>;

const isObject = (x: unknown): x is Fields => typeof x === 'object' && x !== null && !Array.isArray(x);
const isString = (x: unknown, max: number, min = 1): x is string => typeof x === 'string' && x.length >= min && x.length <= max;

/**
 * Why `value` is not an event of a game whose seats are `seats`, or null when it is one (its
 * replay may still be refused by the match: that is `restoreValid`'s second check).
 */
export function invalidEventReason(value: unknown, seats: ReadonlySet<string>): string | null {
  if (!isObject(value)) return 'not an event object';
  if (typeof value.at !== 'number' || !Number.isFinite(value.at) || value.at < 0) return '"at" is not a time';
  if (value.keyHash !== undefined && !isString(value.keyHash, MAX_HASH_CHARS)) return '"keyHash" is not a hash';
  if (value.ids !== undefined && !(Array.isArray(value.ids) && value.ids.length <= MAX_IDS && value.ids.every((id) => isString(id, MAX_ID_CHARS)))) {
    return '"ids" is not a list of ids';
  }
  if (
    value.barred !== undefined &&
    !(Array.isArray(value.barred) && value.barred.length <= MAX_BARRED && value.barred.every((h) => isString(h, MAX_HASH_CHARS)))
  ) {
    return '"barred" is not a list of hashes';
  }
  const intent = value.intent;
  if (!isObject(intent)) return '"intent" is not an object';
  const type = intent.type;
  if (typeof type !== 'string' || !INTENT_TYPES.has(type)) return 'unknown intent type';
  return invalidIntentReason(type, intent, seats);
}

/** `colour` (or another colour field) names a seat of the game. */
function badColour(intent: Fields, key: string, seats: ReadonlySet<string>, nullable: boolean, optional = false): string | null {
  const c = intent[key];
  if ((c === undefined && optional) || (c === null && nullable)) return null;
  return typeof c === 'string' && seats.has(c) ? null : `${type(intent)}: "${key}" is not a seat colour of this game`;
}

const type = (intent: Fields): string => String(intent.type);

function badFlag(intent: Fields, key: string, onlyTrue = false): string | null {
  const x = intent[key];
  if (x === undefined || x === true || (!onlyTrue && x === false)) return null;
  return `${type(intent)}: "${key}" is not ${onlyTrue ? 'true' : 'a boolean'}`;
}

function badName(intent: Fields, optional: boolean): string | null {
  const name = intent.name;
  if (name === undefined && optional) return null;
  return isString(name, MAX_NAME_CHARS, 0) ? null : `${type(intent)}: "name" is not a name of at most ${MAX_NAME_CHARS} characters`;
}

function badTurn(intent: Fields): string | null {
  const turn = intent.turn;
  if (!isObject(turn)) return 'turn: "turn" is not a turn';
  if (turn.pass !== undefined) return turn.pass === true && SQUARE_KEYS.every((k) => turn[k] === undefined) ? null : 'turn: not a pass';
  for (const key of SQUARE_KEYS) {
    const sq = turn[key];
    const required = key === 'from' || key === 'to';
    if ((sq === undefined && !required) || (key === 'reporterTarget' && sq === null)) continue;
    if (!isString(sq, MAX_SQUARE_CHARS)) return `turn: "${key}" is not a square`;
  }
  const version = intent.version;
  if (version !== undefined && !(typeof version === 'number' && Number.isSafeInteger(version) && version >= 0)) return 'turn: "version" is not a version';
  return null;
}

function badPress(intent: Fields): string | null {
  if (!isString(intent.member, MAX_ID_CHARS)) return 'press: "member" is not a member';
  const message = intent.message;
  if (typeof message !== 'string' || !PRESS_MESSAGES.has(message)) return 'press: unknown press message';
  const shape = check(PRESS_CLIENT_SCHEMAS[message as keyof typeof PRESS_CLIENT_SCHEMAS], intent.payload);
  if (!shape.ok) return `press: ${message} payload refused by its schema${shape.error.path ? ` at "${shape.error.path}"` : ''}`;
  if (message === 'press_send') {
    const text = cleanText((intent.payload as { text?: unknown }).text);
    if (!text.ok) return `press: press_send text refused (${text.error.code})`;
  }
  return null;
}

function invalidIntentReason(kind: string, intent: Fields, seats: ReadonlySet<string>): string | null {
  switch (kind) {
    case 'take_seat':
      return (
        badName(intent, true) ??
        badColour(intent, 'colour', seats, false, true) ??
        (intent.hostTokenHash === undefined || isString(intent.hostTokenHash, MAX_HASH_CHARS) ? null : 'take_seat: "hostTokenHash" is not a hash') ??
        (intent.deviceHash === undefined || isString(intent.deviceHash, MAX_HASH_CHARS) ? null : 'take_seat: "deviceHash" is not a hash')
      );
    case 'leave_seat':
    case 'pass_host':
      return badColour(intent, 'colour', seats, false);
    case 'swap':
      return badColour(intent, 'colour', seats, true) ?? badColour(intent, 'to', seats, false);
    case 'ready':
      return badColour(intent, 'colour', seats, true) ?? (typeof intent.ready === 'boolean' ? null : 'ready: "ready" is not a boolean');
    case 'rename':
      return (
        badColour(intent, 'colour', seats, true) ??
        badName(intent, false) ??
        (intent.spectator === undefined || isString(intent.spectator, MAX_ID_CHARS) ? null : 'rename: "spectator" is not a spectator id')
      );
    case 'start':
      return badColour(intent, 'colour', seats, true) ?? badFlag(intent, 'creatorConnected') ?? badFlag(intent, 'auto', true);
    case 'add_bot':
      return (
        badColour(intent, 'colour', seats, true) ??
        badColour(intent, 'target', seats, false) ??
        (typeof intent.level === 'string' && LEVELS.has(intent.level) ? null : 'add_bot: "level" is not a bot level') ??
        badFlag(intent, 'atCreation', true)
      );
    case 'remove_bot':
    case 'remove_seat':
      return badColour(intent, 'colour', seats, true) ?? badColour(intent, 'target', seats, false);
    case 'turn':
      return badColour(intent, 'colour', seats, true) ?? badTurn(intent) ?? badFlag(intent, 'standIn', true);
    case 'resign':
    case 'rematch_offer':
      return badColour(intent, 'colour', seats, true);
    case 'rematch_answer':
      return badColour(intent, 'colour', seats, true) ?? (typeof intent.accept === 'boolean' ? null : 'rematch_answer: "accept" is not a boolean');
    case 'press':
      return badPress(intent);
    case 'spectate':
      return !isString(intent.id, MAX_ID_CHARS)
        ? 'spectate: "id" is not a spectator id'
        : !isString(intent.limitKey, MAX_ID_CHARS)
          ? 'spectate: "limitKey" is not a limit key'
          : badName(intent, true);
    case 'unspectate':
      return isString(intent.id, MAX_ID_CHARS) ? null : 'unspectate: "id" is not a spectator id';
    case 'rematch_created':
      return isString(intent.code, MAX_ID_CHARS) ? null : 'rematch_created: "code" is not a game code';
    default:
      // flag, resume: nothing but the type.
      return null;
  }
}
