/**
 * The headless replay: a game record (from the archive or imported) turned into the move list
 * the session and the timeline replay, the `#ply=` links, and the after-game press (with its
 * older pages from the archive) placed between the moves by its ply. No DOM: tested in Node.
 */
import {
  applyEvent,
  COLOURS,
  initialPosition,
  geometryOfRules,
  isRecord,
  makeTurn,
  parseRecord,
  parseRules,
  type Colour,
  type GameRecord,
  type RecordEvent,
  type MoveTurn,
  type PressMessage,
  type PressPage,
  type PressReveal,
  type RevealItem,
  type Rules,
  type SquareName,
} from '@djambi/shared';
import type { MoveRecord } from './snapshot.js';

/** A record replayed: its rules, its move list and the ply before each entry. */
export interface ReplayGame {
  readonly rules: Rules;
  readonly moves: readonly MoveRecord[];
  /** `plies[i]`: turns played before entry i (the position's `ply`), to place the press. */
  readonly plies: readonly number[];
  /** The record itself, for export (text with `makeRecord`, or JSON). */
  readonly record: GameRecord;
}

/** Why a record could not be shown: a text, and where in the input when known (1-based). */
export interface RecordProblem {
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: RecordProblem };

/**
 * Replay a record with the engine into a move list. An illegal event stops the replay with an
 * error naming it (`index` of the event, 0-based, to locate it in the input).
 */
export function replayGame(record: GameRecord): Outcome<ReplayGame> & { readonly failedAt?: number } {
  let pos = initialPosition(record.rules);
  const moves: MoveRecord[] = [];
  const plies: number[] = [];
  for (let i = 0; i < record.events.length; i++) {
    const e = record.events[i];
    const colour: Colour | '' = e.type === 'resign' ? e.colour : e.type === 'turn' ? (pos.toMove ?? '') : '';
    const res = applyEvent(pos, e);
    if (!res.ok) return { ok: false, error: { message: `event ${i + 1}: ${res.error.message}` }, failedAt: i };
    plies.push(pos.ply);
    moves.push(moveOf(e, colour, pos));
    pos = res.value.position;
  }
  return { ok: true, value: { rules: record.rules, moves, plies, record } };
}

function moveOf(e: RecordEvent, colour: Colour | '', before: Parameters<typeof makeTurn>[1]): MoveRecord {
  if (e.type === 'draw') return { kind: 'draw', colour: '', text: '' };
  if (e.type === 'resign') return { kind: e.timeout ? 'timeout' : 'resign', colour: e.colour, text: '' };
  if ('pass' in e.turn) return { kind: 'pass', colour, text: 'pass' };
  return { kind: 'turn', colour, text: makeTurn(e.turn, before) };
}

// ---------------------------------------------------------------------------------------------
// Import

/**
 * Read a pasted or uploaded record: the text form (docs/NOTATION.md) or the JSON form
 * `{ rules, events }` of `GET /api/games/CODE/record?format=json`; then replay it. A malformed
 * record is an error with its line and column; never a throw.
 */
export function importRecord(input: string): Outcome<ReplayGame> {
  const text = input.replace(/^\uFEFF/, '');
  if (text.trim() === '') return { ok: false, error: { message: 'empty' } };
  if (text.trimStart().startsWith('{')) return importJson(text);
  const parsed = parseRecord(text);
  if (!parsed.ok) return { ok: false, error: { message: withoutPlace(parsed.error.message), line: parsed.error.line, column: parsed.error.column } };
  const game = replayGame(parsed.value);
  if (game.ok || game.failedAt === undefined) return game;
  const at = eventPositions(text)[game.failedAt];
  return { ok: false, error: at ? { message: game.error.message, ...at } : game.error };
}

/**
 * An error message without the place it names (a record error's leading `line L, column C: `, a
 * JSON error's `at position N (line L column C)`): the place is the error's `line` and `column`,
 * which the page says once.
 */
export function withoutPlace(message: string): string {
  return message
    .replace(/^line \d+, column \d+: /, '')
    .replace(/\s*(?:at position \d+\s*)?\(line \d+ column \d+\)/, '')
    .replace(/\s*at position \d+/, '');
}

/** Where each event of a text record starts (the words after its tags and its `Djambi` line). */
export function eventPositions(text: string): { line: number; column: number }[] {
  const out: { line: number; column: number }[] = [];
  const lines = text.split('\n');
  const header = lines.findIndex((l) => l.trim() !== '' && !l.trim().startsWith('['));
  for (let l = Math.max(header, 0) + 1; l < lines.length; l++) {
    const re = /\S+/g;
    for (let m = re.exec(lines[l]); m; m = re.exec(lines[l])) out.push({ line: l + 1, column: m.index + 1 });
  }
  return out;
}

/** Line and column (1-based) of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset));
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

function importJson(text: string): Outcome<ReplayGame> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const at = lineColumn(text, jsonErrorOffset(text));
    return { ok: false, error: { message: `not valid JSON (${withoutPlace(message)})`, ...at } };
  }
  const record = readJsonRecord(value);
  if (!record.ok) return record;
  const game = replayGame(record.value);
  return game.ok ? game : { ok: false, error: game.error };
}

/**
 * Offset of the first JSON syntax error in `text` (browsers' `JSON.parse` messages do not all
 * give one): a small scanner of the JSON grammar, run only after `JSON.parse` failed.
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const lit = (word: string): void => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i++;
    }
  };
  const str = (): void => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] < ' ') fail();
      i += text[i] === '\\' ? 2 : 1;
    }
    if (i >= text.length) fail();
    i++;
  };
  const num = (): void => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) fail();
    i += (m as RegExpExecArray)[0].length;
  };
  const value = (depth: number): void => {
    if (depth > 500) fail();
    ws();
    const ch = text[i];
    if (ch === '{' || ch === '[') {
      const close = ch === '{' ? '}' : ']';
      i++;
      ws();
      if (text[i] === close) return void i++;
      for (;;) {
        if (close === '}') {
          ws();
          if (text[i] !== '"') fail();
          str();
          ws();
          if (text[i] !== ':') fail();
          i++;
        }
        value(depth + 1);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === close) return void i++;
        else fail();
      }
    }
    if (ch === '"') return str();
    if (ch === 't') return lit('true');
    if (ch === 'f') return lit('false');
    if (ch === 'n') return lit('null');
    num();
  };
  try {
    value(0);
    ws();
    return Math.min(i, text.length);
  } catch (at) {
    return typeof at === 'number' ? at : text.length;
  }
}

/** The JSON form checked field by field: `{ rules, events: RecordEvent[] }`. */
function readJsonRecord(value: unknown): Outcome<GameRecord> {
  const fail = (message: string): Outcome<GameRecord> => ({ ok: false, error: { message } });
  if (!isRecord(value)) return fail('a JSON record is an object { rules, events }');
  const rules = parseRules(isRecord(value.rules) ? value.rules : {});
  if (!rules.ok) return fail(`rules: ${rules.error.message}`);
  if (!Array.isArray(value.events)) return fail('events: not a list');
  const events: RecordEvent[] = [];
  // The cells of the record's own board: `c7` on the square board, `E5` or `D13` on a hex board.
  const cells = geometryOfRules(rules.value).byName;
  const isCell = (x: unknown): x is SquareName => cells.has(x);
  for (let i = 0; i < value.events.length; i++) {
    const e = readEvent(value.events[i], isCell);
    if (!e) return fail(`events[${i}] (event ${i + 1}): not a turn, resignation or draw`);
    events.push(e);
  }
  const tags = isRecord(value.tags) ? Object.entries(value.tags).filter((e): e is [string, string] => typeof e[1] === 'string') : [];
  return { ok: true, value: { rules: rules.value, events, ...(tags.length > 0 ? { tags: Object.fromEntries(tags) } : {}) } };
}

function readEvent(e: unknown, isSquare: (x: unknown) => x is SquareName): RecordEvent | null {
  if (!isRecord(e)) return null;
  if (e.type === 'draw') return { type: 'draw' };
  if (e.type === 'resign') {
    if (!(COLOURS as readonly unknown[]).includes(e.colour)) return null;
    return { type: 'resign', colour: e.colour as Colour, ...(e.timeout === true ? { timeout: true } : {}) };
  }
  if (e.type !== 'turn' || !isRecord(e.turn)) return null;
  const t = e.turn;
  if (t.pass === true) return { type: 'turn', turn: { pass: true } };
  if (!isSquare(t.from) || !isSquare(t.to)) return null;
  const turn: { -readonly [K in keyof MoveTurn]: MoveTurn[K] } = { from: t.from, to: t.to };
  for (const key of ['placement', 'exit', 'reporterTarget'] as const) {
    const sq = t[key];
    if (sq === undefined || sq === null) continue;
    if (!isSquare(sq)) return null;
    turn[key] = sq;
  }
  return { type: 'turn', turn };
}

// ---------------------------------------------------------------------------------------------
// Links to a move

/** The move of a `#ply=N` hash, clamped to `0..max`; null without a (valid) one. */
export function parsePlyHash(hash: string, max: number): number | null {
  const m = /(?:^#|[#&])ply=(\d{1,7})(?:&|$)/.exec(hash);
  if (!m) return null;
  return Math.max(0, Math.min(max, Number(m[1])));
}

/** The hash of a link to the position after `n` moves. */
export function plyHash(n: number): string {
  return `#ply=${n}`;
}

// ---------------------------------------------------------------------------------------------
// Stepping

/** Where to step. */
export type ReplayStep = 'first' | 'prev' | 'next' | 'last';

/** The position index of a replay: 0 is the start, `total` the end. */
export class ReplayCursor {
  private at: number;

  constructor(
    readonly total: number,
    start = 0,
  ) {
    this.at = clamp(start, total);
  }

  /** Moves played on the shown position. */
  get index(): number {
    return this.at;
  }

  get atEnd(): boolean {
    return this.at >= this.total;
  }

  /** Go to a position; true when it changed. */
  go(n: number): boolean {
    const next = clamp(n, this.total);
    const changed = next !== this.at;
    this.at = next;
    return changed;
  }

  /** Step; true when it changed. */
  step(where: ReplayStep): boolean {
    const n = where === 'first' ? 0 : where === 'prev' ? this.at - 1 : where === 'next' ? this.at + 1 : this.total;
    return this.go(n);
  }
}

function clamp(n: number, total: number): number {
  return Number.isFinite(n) ? Math.max(0, Math.min(total, Math.trunc(n))) : 0;
}

// ---------------------------------------------------------------------------------------------
// The press between the moves

/** Anything with a `ply` (a reveal timeline item: a message, a pact event, …). */
export interface PlyStamped {
  readonly ply: number;
}

/**
 * The turns played before an item shows in the story: its `ply`, except a betrayal's, which is
 * the 0-based index of the turn that made it, so that it comes after that turn.
 */
export function storyPly(item: PlyStamped & { readonly kind?: string }): number {
  return item.kind === 'betrayal' ? item.ply + 1 : item.ply;
}

/** The seats of a private or group channel, from the reveal, or else from its id (`dm:BY`, `g:RBY`), in seat order. */
export function channelMembers(reveal: PressReveal | null, id: string): Colour[] {
  const members = reveal?.channels.find((c) => c.id === id)?.members ?? [...id.slice(id.indexOf(':') + 1)];
  return COLOURS.filter((c) => (members as readonly string[]).includes(c));
}

/** One row of the interleaved story: a move (by index) or a press item. */
export type StoryRow<T extends PlyStamped> =
  | { readonly kind: 'move'; readonly index: number }
  | { readonly kind: 'press'; readonly item: T /** Moves played when it happened: shown from this position on. */; readonly after: number };

/**
 * The moves and the press in one list: an item with `ply: p` (sent when p turns had been played)
 * comes after every entry played before turn p and before the first entry of turn p or later;
 * items keep their order. `plies[i]` is the turns played before entry i.
 */
export function interleave<T extends PlyStamped>(plies: readonly number[], items: readonly T[]): StoryRow<T>[] {
  const rows: StoryRow<T>[] = [];
  let k = 0;
  for (let i = 0; i < plies.length; i++) {
    while (k < items.length && storyPly(items[k]) <= plies[i]) rows.push({ kind: 'press', item: items[k++], after: i });
    rows.push({ kind: 'move', index: i });
  }
  while (k < items.length) rows.push({ kind: 'press', item: items[k++], after: plies.length });
  return rows;
}

// ---------------------------------------------------------------------------------------------
// The whole revealed press, page by page

/** A message of the reveal's timeline. */
type RevealMessage = Extract<RevealItem, { kind: 'message' }>;

/** A page to ask the archive for: the messages of `channel` older than id `before`. */
export interface OlderRequest {
  readonly channel: string;
  readonly before: number;
}

/** True when `m` happened before timeline item `item` (by turn, then time; a channel's own messages by id). */
function comesBefore(m: PressMessage, item: RevealItem): boolean {
  if (item.kind === 'message' && item.channel === m.channel) return m.id < item.id;
  if (m.ply !== item.ply) return m.ply < item.ply;
  return m.at <= item.at;
}

/**
 * The revealed press of an archived game as the replay shows it: the reveal's timeline (the
 * latest 50 messages per channel) and the older pages of each revealed channel loaded so far
 * (`GET /api/games/CODE/reveal?channel=&before=`), each message placed by its turn and time.
 */
export class RevealStory {
  private items: RevealItem[];
  /** Per revealed channel with older messages on the server: the oldest id held. */
  private readonly oldest = new Map<string, number>();

  constructor(readonly reveal: PressReveal) {
    this.items = [...reveal.timeline];
    for (const c of reveal.channels) {
      if (!c.more) continue;
      const ids = this.items.filter((i): i is RevealMessage => i.kind === 'message' && i.channel === c.id).map((m) => m.id);
      if (ids.length > 0) this.oldest.set(c.id, Math.min(...ids));
    }
  }

  /** The timeline with every page loaded so far, in the order things happened. */
  get timeline(): readonly RevealItem[] {
    return this.items;
  }

  /** The pages still to load: one per channel that has older messages than those held. */
  older(): OlderRequest[] {
    return [...this.oldest].map(([channel, before]) => ({ channel, before }));
  }

  /**
   * Adds a page the archive answered to `older()`'s request for its channel; false (and nothing
   * changes) for a page nobody asked for or whose messages do not end just before the oldest held.
   */
  addPage(page: PressPage): boolean {
    const before = this.oldest.get(page.channel);
    if (before === undefined || page.before !== before) return false;
    const ms = page.messages;
    const contiguous = ms.every((m, i) => m.channel === page.channel && m.id === before - ms.length + i);
    if (!contiguous || (ms.length === 0 && page.more)) return false;
    if (page.more) this.oldest.set(page.channel, ms[0].id);
    else this.oldest.delete(page.channel);
    const out: RevealItem[] = [];
    let k = 0;
    for (const item of this.items) {
      while (k < ms.length && comesBefore(ms[k], item)) out.push({ kind: 'message', ...ms[k++] });
      out.push(item);
    }
    while (k < ms.length) out.push({ kind: 'message', ...ms[k++] });
    this.items = out;
    return true;
  }
}
