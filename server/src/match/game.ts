/**
 * The game of a room: an append-only list of accepted record events and the Position derived
 * from it. Every rule is the engine's; this module only sequences calls and auto-plays passes.
 *
 * Memory: the events are kept as their move-list strings (`"R c7-c5"`, `"B pass"`,
 * `"Y resign"`, `"G timeout"`, `"draw"`), the same string instances the schema's `moves`
 * holds; `events()` parses them back into a replayable record.
 */
import {
  applyTrusted,
  type Board,
  geometryOf,
  boardOf,
  drawByAgreement,
  initialPosition,
  isTurn,
  makeRecord,
  recordTags,
  type RecordInfo,
  makeTurn,
  mustPass,
  parseTurn,
  playTurn,
  resign,
  type Colour,
  type Effect,
  type EngineError,
  type GameRecord,
  type Position,
  type RecordEvent,
  type Result,
  type Rules,
  type Turn,
  type TurnInput,
} from '@djambi/shared';

/** How an entry of the move list came about. */
export type EntryKind = 'turn' | 'pass' | 'resign' | 'timeout' | 'draw';

/** One accepted record event as the room shows it. */
export interface Entry {
  /** 0-based index in the event list. */
  readonly index: number;
  readonly kind: EntryKind;
  /** The player concerned (null for a draw by agreement). */
  readonly colour: Colour | null;
  /** The turn for `turn` entries. */
  readonly turn: Turn | null;
  /** Turn notation for turns and passes, '' otherwise. */
  readonly text: string;
  /** The move-list string. */
  readonly move: string;
}

/**
 * An entry just accepted, with what it did and the position after it (neither is kept: a
 * replay recomputes them).
 */
export interface Applied extends Entry {
  readonly effects: readonly Effect[];
  readonly position: Position;
}

/** Fails with `not_your_turn` etc.; codes are the engine's TurnErrorCode values or the room's. */
export type GameResultOf<T> = Result<T, EngineError>;

export class Game {
  position: Position;
  /** The most recent entry, or null. */
  last: Entry | null = null;
  private readonly moves: string[] = [];

  constructor(readonly rules: Rules) {
    this.position = initialPosition(rules);
  }

  /** True once the game has a result. */
  get over(): boolean {
    return this.position.result !== null;
  }

  /** Number of accepted record events. */
  get length(): number {
    return this.moves.length;
  }

  /** The move-list string of event `i`. */
  move(i: number): string {
    return this.moves[i];
  }

  /** The record events so far (the authoritative, append-only game). */
  events(): RecordEvent[] {
    const board = boardOf(this.rules);
    return this.moves.map((m) => parseMove(m, board));
  }

  /** The game record (`replayRecord(record)` gives back `position`). */
  record(): GameRecord {
    return { rules: this.rules, events: this.events() };
  }

  /**
   * The game record as text (docs/NOTATION.md), turns written as in the move list; with `info`,
   * headed by its tags (event, site, date, variant, players, result, termination).
   */
  recordText(info?: RecordInfo): string {
    const texts = this.moves.map((m) => m.slice(m.indexOf(' ') + 1));
    const record = this.record();
    return makeRecord(info ? { ...record, tags: recordTags(record, info, this.position) } : record, texts);
  }

  /**
   * Plays a complete turn for `colour`, then any automatic passes. `trusted`: the turn was
   * validated when it was first accepted (a replayed log), so the engine applies it without its
   * legality search (`applyTrusted`); the outcome is the same.
   */
  play(colour: Colour, turn: TurnInput, _now: number, trusted = false): GameResultOf<Applied[]> {
    if (this.over) return err('game_over', 'the game is over');
    if (this.position.toMove !== colour) return err('not_your_turn', `it is ${this.position.toMove}'s turn`);
    // `applyTrusted` checks the squares itself: a turn it applies is a `Turn`.
    const g = geometryOf(this.position);
    if (!trusted && !isTurn(turn, g)) return err('bad_square', `squares are ${g.nameHint}`);
    const res = trusted ? applyTrusted(this.position, turn) : playTurn(this.position, turn as Turn);
    if (!res.ok) return res;
    const played = turn as Turn;
    const out: Applied[] = [];
    const kind: EntryKind = 'pass' in played ? 'pass' : 'turn';
    this.push(kind, colour, played, makeTurn(played, this.position), res.value.position, res.value.effects, out);
    this.autoPass(out);
    return { ok: true, value: out };
  }

  /** Resigns `colour` (any active player, at any time); `timeout` marks a flag fall. */
  resign(colour: Colour, _now: number, timeout = false): GameResultOf<Applied[]> {
    if (this.over) return err('game_over', 'the game is over');
    const res = resign(this.position, colour);
    if (!res.ok) return res;
    const out: Applied[] = [];
    this.push(timeout ? 'timeout' : 'resign', colour, null, '', res.value.position, res.value.effects, out);
    this.autoPass(out);
    return { ok: true, value: out };
  }

  /** Ends the game as a draw by agreement (the room checks that everyone agreed). */
  agreeDraw(_now: number): GameResultOf<Applied[]> {
    if (this.over) return err('game_over', 'the game is over');
    const res = drawByAgreement(this.position);
    if (!res.ok) return res;
    const out: Applied[] = [];
    this.push('draw', null, null, '', res.value.position, res.value.effects, out);
    return { ok: true, value: out };
  }

  /** Plays the automatic passes of players with no legal move (N-8). */
  private autoPass(out: Applied[]): void {
    // Each pass is a turn; a game cannot pass forever (the engine ends it by N-8 or N-6),
    // but bound the loop anyway so a broken invariant cannot hang the room.
    for (let guard = 0; guard < 1000 && !this.over && mustPass(this.position); guard++) {
      const colour = this.position.toMove!;
      const turn: Turn = { pass: true };
      // `mustPass` has just checked that the pass is legal: no need for `playTurn` to check it again.
      const res = applyTrusted(this.position, turn);
      if (!res.ok) throw new Error(`engine refused an automatic pass: ${res.error.code} ${res.error.message}`);
      this.push('pass', colour, turn, makeTurn(turn, this.position), res.value.position, res.value.effects, out);
    }
  }

  private push(kind: EntryKind, colour: Colour | null, turn: Turn | null, text: string, position: Position, effects: readonly Effect[], out: Applied[]): void {
    const move = kind === 'draw' ? 'draw' : `${colour} ${kind === 'turn' || kind === 'pass' ? text : kind}`;
    const index = this.moves.length;
    this.moves.push(move);
    this.last = { index, kind, colour, turn, text, move };
    this.position = position;
    out.push({ index, kind, colour, turn, text, move, effects, position });
  }
}

/** Parses a move-list string back into a record event. */
export function parseMove(move: string, board: Board = 'square'): RecordEvent {
  if (move === 'draw') return { type: 'draw' };
  const space = move.indexOf(' ');
  const colour = move.slice(0, space) as Colour;
  const what = move.slice(space + 1);
  if (what === 'resign') return { type: 'resign', colour };
  if (what === 'timeout') return { type: 'resign', colour, timeout: true };
  const turn = parseTurn(what, board);
  if (!turn.ok) throw new Error(`corrupt move list entry "${move}": ${turn.error.message}`);
  return { type: 'turn', turn: turn.value };
}

function err(code: string, message: string): { ok: false; error: EngineError } {
  return { ok: false, error: { code, message } };
}
