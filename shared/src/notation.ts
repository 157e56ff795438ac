import { BOARD_GAMES, boardOf, GEOMETRIES, geometryOf, geometryOfRules, isGeometryName } from './board/boards.js';
import { cellIndex, type GeometryName } from './board/geometry.js';
import {
  ABSENT,
  COLOUR_LETTERS,
  FROZEN,
  HOSTAGE,
  draft,
  initialPosition as initialFor,
  parseRules,
  seatsOf,
  setupPosition,
  type PieceSetup,
  type Position,
} from './position.js';
import { drawByAgreement, playTurn, resign } from './turn.js';
import {
  ALL_COLOURS,
  BOARDS,
  DEFAULT_RULES,
  KINDS,
  type AnyColour,
  type Board,
  type Colour,
  type EngineError,
  type GameResult,
  type MoveTurn,
  type Result,
  type Rules,
  type SquareName,
  type Turn,
  COLOUR_NAMES,
} from './types.js';

/**
 * Notation errors. A record's errors also give where the bad text starts: `line` and `column`,
 * both counted from 1 (the message then begins with `line L, column C:`).
 */
export type NotationError = EngineError<'bad_notation'> & { readonly line?: number; readonly column?: number };

const bad = <T>(message: string): Result<T, NotationError> => ({ ok: false, error: { code: 'bad_notation', message } });

/** A record error at a place in the text. */
const badAt = <T>(line: number, column: number, message: string): Result<T, NotationError> => ({
  ok: false,
  error: { code: 'bad_notation', message: `line ${line}, column ${column}: ${message}`, line, column },
});

/** The white-space separated words of a line, with their 1-based columns. */
function wordsOf(line: string): { text: string; column: number }[] {
  const out: { text: string; column: number }[] = [];
  const re = /\S+/g;
  for (let m = re.exec(line); m; m = re.exec(line)) out.push({ text: m[0], column: m.index + 1 });
  return out;
}

/** Kind letters: chief, assassin, reporter, diplomat, necromobile, militant. */
const KIND_LETTERS = 'cardnm';

// ---------------------------------------------------------------------------------------------
// Positions

/**
 * One-line position text (docs/NOTATION.md), e.g. the standard start:
 * `RcRaRm3BmBaBc/RrRdRm3BmBdBr/RmRmRn3BnBmBm/9/9/9/GmGmGn3YnYmYm/GrGdGm3YmYdYr/GcGaGm3YmYaYc RBYG RBYG R n R 0 0 *`
 *
 * The server writes the text of every position it reaches, so it is built as character codes
 * in one scratch array and made into a single string: no partial strings per piece or field.
 */
export function makeFen(pos: Position): string {
  const g = geometryOf(pos);
  const rows = g.rows;
  const c = FEN_CODES;
  let n = 0;
  for (let r = 0; r < rows.length; r++) {
    if (r > 0) c[n++] = SLASH;
    const row = rows[r];
    let empty = 0;
    for (let k = 0; k < row.length; k++) {
      const i = pos.board[row[k]];
      if (i < 0) {
        empty++;
        continue;
      }
      if (empty) n = putCount(c, n, empty);
      empty = 0;
      c[n++] = (pos.alive[i] ? LIVING_CODES : DEAD_CODES)[pos.army[i]];
      c[n++] = KIND_CODES[pos.kind[i]];
    }
    if (empty) n = putCount(c, n, empty);
  }
  c[n++] = SPACE;
  for (let a = 0; a < g.seats; a++) c[n++] = CONTROL_CODES[pos.control[a] - ABSENT];
  c[n++] = SPACE;
  const start = n;
  for (let a = 0; a < g.seats; a++) if ((pos.activeMask >> a) & 1) c[n++] = LIVING_CODES[a];
  if (n === start) c[n++] = DASH;
  n = putField(c, n, pos.toMove ?? '-');
  n = putField(c, n, pos.turnKind === 'normal' ? 'n' : 'x');
  n = putField(c, n, pos.cursor);
  n = putField(c, n, String(pos.quiet));
  n = putField(c, n, String(pos.ply));
  n = putField(c, n, makeResult(pos.result));
  c.length = n;
  return String.fromCharCode(...c);
}

/** Writes a count of empty cells (1..99) into `c` from `n`; returns the new end. */
function putCount(c: number[], n: number, count: number): number {
  if (count >= 10) c[n++] = DIGIT_0 + ((count / 10) | 0);
  c[n++] = DIGIT_0 + (count % 10);
  return n;
}

/** Writes a space and `text` into `c` from `n`; returns the new end. */
function putField(c: number[], n: number, text: string): number {
  c[n++] = SPACE;
  for (let k = 0; k < text.length; k++) c[n++] = text.charCodeAt(k);
  return n;
}

const SLASH = '/'.charCodeAt(0);
const SPACE = ' '.charCodeAt(0);
const DASH = '-'.charCodeAt(0);
const DIGIT_0 = '0'.charCodeAt(0);
/** A living piece's colour letter by army, then a corpse's. */
const LIVING_CODES: readonly number[] = ALL_COLOURS.map((c) => c.charCodeAt(0));
const DEAD_CODES: readonly number[] = ALL_COLOURS.map((c) => c.toLowerCase().charCodeAt(0));
const KIND_CODES: readonly number[] = Array.from(KIND_LETTERS, (k) => k.charCodeAt(0));
/** Control field letter by controller code - ABSENT. */
const CONTROL_CODES: readonly number[] = Array.from({ length: HOSTAGE - ABSENT + 1 }, (_, k) => {
  const code = k + ABSENT;
  return (code === ABSENT ? '-' : code === FROZEN ? 'f' : code === HOSTAGE ? 'h' : ALL_COLOURS[code]).charCodeAt(0);
});
/** Longest position text but for unbounded counters (the array grows past it if need be). */
const FEN_CAPACITY = 256;
/**
 * `makeFen`'s scratch space. It holds nothing from one call to the next (each call writes it
 * from the start and reads only what it wrote), so sharing it is safe: the engine is synchronous.
 */
const FEN_CODES: number[] = Array.from({ length: FEN_CAPACITY }, () => 0);

function makeResult(r: GameResult | null): string {
  if (!r) return '*';
  return r.kind === 'win' ? `win:${r.winner}` : `draw:${r.reason}`;
}

const DRAW_REASONS = ['no_legal_move', 'agreement', 'no_progress', 'mutual_elimination'] as const;

/** Parse a position written by `makeFen` under the given rules, on their board (`rules.board`, the square one by default). Never throws. */
export function parseFen(text: unknown, rules: Rules = DEFAULT_RULES): Result<Position, NotationError> {
  if (typeof text !== 'string' || text.length > 400) return bad('a position is a line of at most 400 characters');
  if (!Object.hasOwn(BOARD_GAMES, boardOf(rules))) return bad('unknown board');
  const g = geometryOfRules(rules);
  /** The colour letters of the board's armies, in seat order. */
  const letters = ALL_COLOURS.slice(0, g.seats).join('');
  const fields = text.trim().split(/\s+/);
  if (fields.length !== 9) return bad('a position has 9 fields');
  const [board, control, active, toMove, kind, cursor, quiet, ply, result] = fields;
  const ranks = board.split('/');
  if (ranks.length !== g.rows.length) return bad(`the board has ${g.rows.length} ranks`);
  const pieces: PieceSetup[] = [];
  for (let r = 0; r < ranks.length; r++) {
    const row = ranks[r];
    const cells = g.rows[r];
    let file = 0;
    for (let k = 0; k < row.length; ) {
      const ch = row[k];
      if (ch >= '1' && ch <= '9') {
        // A count of empty cells: one number (two digits at most: no row has 100 cells).
        let count = Number(ch);
        k++;
        if (row[k] >= '0' && row[k] <= '9') count = count * 10 + Number(row[k++]);
        file += count;
        continue;
      }
      const ci = letters.indexOf(ch.toUpperCase());
      const ki = KIND_LETTERS.indexOf(row[k + 1] ?? '');
      if (ci < 0 || ki < 0 || file >= cells.length) return bad(`bad piece in rank ${g.rowLabels[r]}`);
      pieces.push({ colour: ALL_COLOURS[ci], kind: KINDS[ki], square: g.names[cells[file]], alive: ch === ch.toUpperCase() });
      file++;
      k += 2;
    }
    if (file !== cells.length) return bad(`rank ${g.rowLabels[r]} does not have ${cells.length} squares`);
  }
  if (control.length !== g.seats || [...control].some((ch) => !letters.includes(ch) && !'fh-'.includes(ch))) return bad('bad control field');
  const ctl: Partial<Record<AnyColour, AnyColour | 'frozen' | 'hostage'>> = {};
  for (let a = 0; a < g.seats; a++) {
    const ch = control[a];
    const has = pieces.some((p) => p.colour === ALL_COLOURS[a]);
    if ((ch === '-') === has) return bad(`control of ${ALL_COLOURS[a]} does not match the board`);
    if (ch !== '-') ctl[ALL_COLOURS[a]] = ch === 'f' ? 'frozen' : ch === 'h' ? 'hostage' : (ch as AnyColour);
  }
  // Active players in seat order: a subsequence of the board's letters.
  const inOrder = new RegExp(`^(-|${[...letters].map((l) => `${l}?`).join('')})$`);
  if (!inOrder.test(active) || active === '') return bad('bad active players field');
  const activeList = active === '-' ? [] : (active.split('') as Colour[]);
  const isLetter = (x: string) => x.length === 1 && letters.includes(x);
  if (!(toMove === '-' || isLetter(toMove)) || !/^[nx]$/.test(kind) || !isLetter(cursor)) return bad('bad turn fields');
  if (!/^\d{1,6}$/.test(quiet) || !/^\d{1,7}$/.test(ply)) return bad('bad counters');
  let parsedResult: GameResult | null = null;
  if (result !== '*') {
    const [k, v] = result.split(':');
    const ranking = [activeList, COLOUR_LETTERS.slice(0, g.seats).filter((c) => !activeList.includes(c))].filter((group) => group.length);
    if (k === 'win' && isLetter(v ?? '')) parsedResult = { kind: 'win', winner: v as Colour, ranking };
    else if (k === 'draw' && (DRAW_REASONS as readonly string[]).includes(v))
      parsedResult = { kind: 'draw', reason: v as (typeof DRAW_REASONS)[number], ranking };
    else return bad('bad result field');
  }
  if ((toMove === '-') !== (parsedResult !== null)) return bad('a finished game has no player to move, and only a finished game');
  if (toMove !== '-' && !activeList.includes(toMove as Colour)) return bad('the player to move is not active');
  const setup = setupPosition(
    {
      pieces,
      control: ctl,
      active: activeList,
      toMove: (toMove === '-' ? cursor : toMove) as Colour,
      turnKind: kind === 'n' ? 'normal' : 'extra',
      cursor: cursor as Colour,
      quiet: Number(quiet),
      ply: Number(ply),
    },
    rules,
  );
  if (!setup.ok) return bad(setup.error.message);
  if (!parsedResult) return { ok: true, value: setup.value };
  const d = draft(setup.value);
  d.result = parsedResult;
  d.toMove = null;
  return { ok: true, value: d };
}

// ---------------------------------------------------------------------------------------------
// Turns

/**
 * A turn as text: `from-to`, or `fromxto` when the destination is occupied (pass the position
 * before the turn to get the `x`), then `>placement`, `^exit` and `*victim` as the turn needs,
 * in the order they are chosen; `pass` for a forced pass. Examples: `c7-c5`, `d5xd4>a5`,
 * `c3xe5^a1`, `f4-f3*g3`.
 */
export function makeTurn(turn: Turn, before?: Position): string {
  if ('pass' in turn) return 'pass';
  const to = before === undefined ? -1 : cellIndex(geometryOf(before), turn.to);
  const capture = before !== undefined && to >= 0 && before.board[to] >= 0;
  let s = `${turn.from}${capture ? 'x' : '-'}${turn.to}`;
  const placeFirst = before?.rules.maze_exit_order === 'act_place_exit';
  // A reporter that entered the fortress kills before it leaves (HEX.md SX-9).
  const killFirst = turn.reporterTarget !== undefined && turn.exit !== undefined;
  if (placeFirst && turn.placement) s += `>${turn.placement}`;
  if (killFirst) s += `*${turn.reporterTarget}`;
  if (turn.exit) s += `^${turn.exit}`;
  if (!placeFirst && turn.placement) s += `>${turn.placement}`;
  if (turn.reporterTarget && !killFirst) s += `*${turn.reporterTarget}`;
  return s;
}

/** A cell name's shape on any board (a letter, then a row number); the board then says which are its cells. */
const CELL = '[A-Za-z][0-9]{1,2}';
const TURN_RE = new RegExp(`^(${CELL})[-x](${CELL})((?:[>^*]${CELL}){0,3})$`);
const CHOICE_RE = new RegExp(`([>^*])(${CELL})`, 'g');

/**
 * Parse turn text written by `makeTurn`, naming cells of a board: a value of the `board` rule
 * option or a geometry's name (the square board by default). Never throws.
 */
export function parseTurn(text: unknown, board: Board | GeometryName = 'square'): Result<Turn, NotationError> {
  if (typeof text !== 'string' || text.length > 40) return bad('a turn is a short text');
  const t = text.trim();
  if (t === 'pass') return { ok: true, value: { pass: true } };
  const m = TURN_RE.exec(t);
  const g = isGeometryName(board) ? GEOMETRIES[board] : (BOARDS as readonly unknown[]).includes(board) ? geometryOfRules({ board: board as Board }) : undefined;
  const isCell = (name: string) => g?.byName.has(name) === true;
  if (!m || !isCell(m[1]) || !isCell(m[2])) return bad(`not a turn: ${JSON.stringify(t.slice(0, 20))}`);
  // The board's names (square names on the square board; see `cellName` for the others).
  const turn: { -readonly [K in keyof MoveTurn]: MoveTurn[K] } = { from: m[1] as SquareName, to: m[2] as SquareName };
  for (const [, sym, sq] of m[3].matchAll(CHOICE_RE)) {
    if (!isCell(sq)) return bad(`not a turn: ${JSON.stringify(t.slice(0, 20))}`);
    const key = sym === '>' ? 'placement' : sym === '^' ? 'exit' : 'reporterTarget';
    if (turn[key] !== undefined) return bad(`${key} given twice`);
    turn[key] = sq as SquareName;
  }
  return { ok: true, value: turn };
}

// ---------------------------------------------------------------------------------------------
// Game records

/** One event of a game: a turn, a resignation (or time-out) or a draw by agreement. */
export type RecordEvent =
  | { readonly type: 'turn'; readonly turn: Turn }
  | { readonly type: 'resign'; readonly colour: Colour; readonly timeout?: boolean }
  | { readonly type: 'draw' };

/**
 * A record's tags, as PGN's: `Event`, `Site`, `Date` (`YYYY.MM.DD`), `Variant` (the board:
 * `square`, `hex3`, `hex5`, `hex6`), one per seat by its colour's name (`Red`, `Blue`, …) giving
 * the player's name, `Result` (the winner's colour letter, `draw`, or `*` while unfinished),
 * `Termination`; a reader keeps any other tag.
 */
export type RecordTags = Readonly<Record<string, string>>;

/** A whole game: its rule options and every event, in order, and its tags if any. Replays deterministically. */
export interface GameRecord {
  readonly rules: Rules;
  readonly events: readonly RecordEvent[];
  readonly tags?: RecordTags;
}

/** What the writer of a record knows about the game besides its moves (see `recordTags`). */
export interface RecordInfo {
  /** The `Event` tag (default `Djambi online`). */
  readonly event?: string;
  /** Where it was played: the game's address. */
  readonly site?: string;
  /** When it was played (epoch ms, written as the UTC date). */
  readonly date?: number;
  /** The players' names by seat. */
  readonly names?: Readonly<Partial<Record<Colour, string>>>;
}

/** How a game ended (`Termination`), from its result and its last event. */
function terminationOf(record: GameRecord, result: GameResult | null): string {
  if (!result) return 'unterminated';
  const last = record.events[record.events.length - 1];
  if (result.kind === 'draw') return result.reason === 'agreement' ? 'draw agreed' : result.reason.replace(/_/g, ' ');
  if (last?.type === 'resign') return last.timeout ? 'time forfeit' : 'resignation';
  return 'normal';
}

/**
 * The tags of a record (in the order they are written): event, site, date, variant, the players
 * by seat, result and termination. `final` is the position the record ends in (replayed when
 * not given; a record that does not replay gets `Result "*"`).
 */
export function recordTags(record: GameRecord, info: RecordInfo = {}, final?: Position): Record<string, string> {
  const replayed = final ? null : replayRecord(record);
  const end = final ?? (replayed?.ok ? replayed.value : null);
  const result = end?.result ?? null;
  const tags: Record<string, string> = { Event: info.event ?? 'Djambi online' };
  if (info.site) tags.Site = info.site;
  if (info.date !== undefined && Number.isFinite(info.date)) {
    const d = new Date(info.date);
    tags.Date = `${d.getUTCFullYear()}.${String(d.getUTCMonth() + 1).padStart(2, '0')}.${String(d.getUTCDate()).padStart(2, '0')}`;
  }
  tags.Variant = boardOf(record.rules);
  for (const c of seatsOf(record.rules)) tags[COLOUR_NAMES[c]] = info.names?.[c] || '?';
  tags.Result = !result ? '*' : result.kind === 'draw' ? 'draw' : result.winner;
  tags.Termination = terminationOf(record, result);
  return tags;
}

/** The tags written first, in this order; the others follow in their own order. */
const TAG_ORDER = ['Event', 'Site', 'Date', 'Variant', ...ALL_COLOURS.map((c) => COLOUR_NAMES[c as Colour]), 'Result', 'Termination'];

const TAG_RE = /^\[([A-Za-z][A-Za-z0-9_]{0,39})\s+"((?:[^"\\]|\\.)*)"\]$/;

/** A tag line: `[Name "value"]`, `"` and `\` escaped with `\`, a line break as a space. */
function makeTag(name: string, value: string): string {
  return `[${name} "${value.replace(/[\r\n]+/g, ' ').replace(/[\\"]/g, (ch) => `\\${ch}`)}"]`;
}

/** Longest record text accepted by `parseRecord`. */
export const MAX_RECORD_LENGTH = 1_000_000;

const RULE_KEYS: readonly (keyof Rules)[] = [
  'players',
  'layout',
  'reporter',
  'self_kill',
  'maze_exit_order',
  'encirclement',
  'neutral_pieces_untouchable',
  'encircled_chief',
  'power_transfer_of_neutral_armies',
  'master_moves',
  'no_progress_rounds',
];

/** The hex games' options (HEX.md), written after the others on the boards that have them. */
const BOARD_KEYS: readonly (keyof Rules)[] = ['vertex_step', 'hostage_seat'];

/**
 * Write a record: its tags if any (`[Name "value"]`, one a line, as PGN's), a `Djambi key=value …`
 * header line with every rule option, then the events. A hex game's header starts with its
 * `board` and ends with its board's own options; a square game's names no board (it reads as
 * before the hex games).
 */
export function makeRecord(record: GameRecord, turnsText?: readonly string[]): string {
  const rules = record.rules;
  const tags = record.tags ?? {};
  const names = [...TAG_ORDER.filter((k) => k in tags), ...Object.keys(tags).filter((k) => !TAG_ORDER.includes(k) && TAG_RE.test(`[${k} ""]`))];
  const tagLines = names.map((k) => `${makeTag(k, tags[k])}\n`).join('');
  const keys = rules.board === undefined ? RULE_KEYS : ['board', ...RULE_KEYS, ...BOARD_KEYS.filter((k) => rules[k] !== undefined)];
  const header = ['Djambi', ...keys.map((k) => `${k}=${String(rules[k as keyof Rules])}`)].join(' ');
  const events = record.events.map((e, i) =>
    e.type === 'turn' ? (turnsText?.[i] ?? makeTurn(e.turn)) : e.type === 'draw' ? 'draw' : `${e.timeout ? 'timeout' : 'resign'}:${e.colour}`,
  );
  return `${tagLines}${header}\n${events.join(' ')}\n`;
}

/**
 * Parse a record written by `makeRecord` (its tags are optional: a record without them reads as
 * before). Never throws; checks syntax, not legality (see `replayRecord`).
 */
export function parseRecord(text: unknown): Result<GameRecord, NotationError> {
  if (typeof text !== 'string' || text.length > MAX_RECORD_LENGTH) return bad('a record is a text of at most 1,000,000 characters');
  const lines = text.split('\n');
  // The tags, one a line, before the `Djambi` line (blank lines between them are allowed).
  const tags: Record<string, string> = {};
  let h = 0;
  for (; h < lines.length; h++) {
    const line = lines[h].trim();
    if (line === '') continue;
    if (!line.startsWith('[')) break;
    const m = TAG_RE.exec(line);
    if (!m) return badAt(h + 1, lines[h].indexOf('[') + 1, `bad tag ${JSON.stringify(line.slice(0, 40))} (a tag reads [Name "value"])`);
    if (m[1] in tags) return badAt(h + 1, lines[h].indexOf('[') + 1, `tag ${m[1]} given twice`);
    tags[m[1]] = m[2].replace(/\\(.)/g, '$1');
  }
  if (h === lines.length) h = 0;
  const header = wordsOf(lines[h]);
  if (header[0]?.text !== 'Djambi') return badAt(h + 1, header[0]?.column ?? 1, 'a record starts with "Djambi" (after its tags)');
  const options: Record<string, unknown> = {};
  const columns: Record<string, number> = {};
  for (const { text: kv, column } of header.slice(1)) {
    const m = /^([a-z_]+)=([a-z_0-9]+)$/.exec(kv);
    if (!m || !(m[1] === 'board' || RULE_KEYS.includes(m[1] as keyof Rules) || BOARD_KEYS.includes(m[1] as keyof Rules)))
      return badAt(h + 1, column, `bad rule option ${JSON.stringify(kv.slice(0, 40))}`);
    const v = m[2];
    options[m[1]] = v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v;
    columns[m[1]] = column;
  }
  const rules = parseRules(options);
  if (!rules.ok) {
    // Point at the first option that is refused on its own, or on the record's board (else at the header).
    const culprit =
      Object.keys(options).find((k) => !parseRules({ [k]: options[k] }).ok) ??
      Object.keys(options).find((k) => k !== 'board' && !parseRules({ ...(options.board === undefined ? {} : { board: options.board }), [k]: options[k] }).ok);
    return badAt(h + 1, culprit ? columns[culprit] : 1, rules.error.message);
  }
  const events: RecordEvent[] = [];
  for (let l = h + 1; l < lines.length; l++) {
    for (const { text: tok, column } of wordsOf(lines[l])) {
      if (tok === 'draw') {
        events.push({ type: 'draw' });
        continue;
      }
      const m = /^(resign|timeout):([RBYGPW])$/.exec(tok);
      if (m) {
        // A P or W seat passes through `Colour` (see there).
        events.push({ type: 'resign', colour: m[2] as Colour, ...(m[1] === 'timeout' ? { timeout: true } : {}) });
        continue;
      }
      const t = parseTurn(tok, boardOf(rules.value));
      if (!t.ok) return badAt(l + 1, column, `event ${events.length + 1}: ${t.error.message}`);
      events.push({ type: 'turn', turn: t.value });
    }
  }
  return { ok: true, value: { rules: rules.value, events, ...(Object.keys(tags).length > 0 ? { tags } : {}) } };
}

/** Apply one record event. */
export function applyEvent(pos: Position, e: RecordEvent) {
  return e.type === 'turn' ? playTurn(pos, e.turn) : e.type === 'resign' ? resign(pos, e.colour) : drawByAgreement(pos);
}

/** Replay a record from the initial position of its rules; an illegal event is an error naming it. */
export function replayRecord(record: GameRecord, start?: Position): Result<Position, EngineError> {
  let pos = start ?? initialFor(record.rules);
  for (let i = 0; i < record.events.length; i++) {
    const r = applyEvent(pos, record.events[i]);
    if (!r.ok) return { ok: false, error: { code: r.error.code, message: `event ${i + 1}: ${r.error.message}` } };
    pos = r.value.position;
  }
  return { ok: true, value: pos };
}
