/**
 * A match's accepted events, in order, as it keeps them for the rest of its game: the storage
 * seam (what the store has, or is about to have) and the source of an undo (a failed append
 * rebuilds the match from the events before it).
 *
 * Memory: nearly every event is a turn, and a turn's event is its time and its move, which the
 * game holds already as the move list's string. So a turn costs the log 12 bytes in two typed
 * arrays (its time, its move's index in the game) and a small integer in the list of events;
 * any other event is kept as it came. A turn's event is made again when it is read (`TurnEvent`:
 * its intent rebuilt from the move's string, the turn as the engine wrote it, which replays to
 * the same position). A room at move 150 holds about 31 KB less than with the decoded messages
 * (the event, the intent, the turn and its square strings: about 230 bytes a turn), 10 KB of it
 * against a `TurnEvent` object per turn (bench:room `--from-move 150`).
 */
import { type Board, boardOf, type Colour, parseTurn } from '@djambi/shared';
import type { Game } from './game.js';
import type { Intent, MatchEvent } from './types.js';

/** An accepted turn's event: its time and the move list's entry of the turn (not the message it came in). */
export class TurnEvent implements MatchEvent {
  constructor(
    readonly at: number,
    /** The move list's string: `"<colour> <turn>"`. */
    private readonly move: string,
    /** The move's index in the game's move list. */
    readonly index: number,
    /** A bot played it for its absent player. */
    readonly standIn: boolean,
    /** The game's board, whose cell names the move has. */
    private readonly board: Board,
  ) {}

  get intent(): Intent {
    const space = this.move.indexOf(' ');
    const colour = this.move.slice(0, space) as Colour;
    const turn = parseTurn(this.move.slice(space + 1), this.board);
    if (!turn.ok) throw new Error(`corrupt move "${this.move}": ${turn.error.message}`);
    return this.standIn ? { type: 'turn', colour, turn: turn.value, standIn: true } : { type: 'turn', colour, turn: turn.value };
  }

  /** What the store writes: a plain event, as any other. */
  toJSON(): MatchEvent {
    return { at: this.at, intent: this.intent };
  }
}

/** A stand-in turn's move index is kept with this bit set. */
const STAND_IN = 0x4000_0000;

/** The events of one match. */
export class EventLog {
  /** Per event: its index in `others` (0 or more), or for a turn `-1 - t`, where t counts the turns. */
  private readonly order: number[] = [];
  private readonly others: MatchEvent[] = [];
  /** Per turn: its time, and its move's index in the game (with `STAND_IN`). */
  private times = new Float64Array(16);
  private moves = new Int32Array(16);
  private turns = 0;

  constructor(private readonly game: Game) {}

  get length(): number {
    return this.order.length;
  }

  push(event: MatchEvent): void {
    if (!(event instanceof TurnEvent)) {
      this.order.push(this.others.length);
      this.others.push(event);
      return;
    }
    if (this.turns === this.times.length) {
      const times = new Float64Array(this.turns * 2);
      times.set(this.times);
      this.times = times;
      const moves = new Int32Array(this.turns * 2);
      moves.set(this.moves);
      this.moves = moves;
    }
    this.times[this.turns] = event.at;
    this.moves[this.turns] = event.standIn ? event.index | STAND_IN : event.index;
    this.order.push(-1 - this.turns);
    this.turns++;
  }

  /** Event `i` (0-based). */
  get(i: number): MatchEvent {
    const k = this.order[i];
    if (k >= 0) return this.others[k];
    const t = -1 - k;
    const index = this.moves[t] & ~STAND_IN;
    return new TurnEvent(this.times[t], this.game.move(index), index, (this.moves[t] & STAND_IN) !== 0, boardOf(this.game.rules));
  }

  /** Events `start` to `end` (not included; the last one by default), made for the caller. */
  slice(start: number, end = this.order.length): MatchEvent[] {
    const out: MatchEvent[] = [];
    for (let i = Math.max(0, start); i < Math.min(end, this.order.length); i++) out.push(this.get(i));
    return out;
  }
}
