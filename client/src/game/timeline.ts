/**
 * The game's positions, rebuilt from the move list with the engine: the position after every
 * entry (to step back through the game) and the effects of every turn (to animate it). The
 * position after the last entry is the live position (the schema's board fields are not read).
 */
import {
  drawByAgreement,
  initialPosition,
  parseTurn,
  playTurn,
  resign,
  type Colour,
  type Effect,
  type Position,
  type Result,
  type Rules,
} from '@djambi/shared';
import type { MoveRecord } from './snapshot.js';

/** One replayed entry of the move list. */
export interface TimelineEntry {
  readonly record: MoveRecord;
  /** The position after the entry. */
  readonly position: Position;
  readonly effects: readonly Effect[];
}

/** Replays the move list incrementally. */
export class Timeline {
  private rulesKey = '';
  private start: Position | null = null;
  private entries: TimelineEntry[] = [];
  /** Index of the first entry that could not be replayed (-1: all replayed). */
  private broken = -1;

  /** Bring the timeline up to date with the move list; returns the entries added. */
  sync(rules: Rules, moves: readonly MoveRecord[]): TimelineEntry[] {
    const key = JSON.stringify(rules);
    const known = this.entries.length;
    const samePrefix = key === this.rulesKey && moves.length >= known && this.entries.every((e, i) => sameRecord(e.record, moves[i]));
    if (!samePrefix) {
      this.rulesKey = key;
      this.start = initialPosition(rules);
      this.entries = [];
      this.broken = -1;
    }
    const added: TimelineEntry[] = [];
    if (this.broken >= 0) return added;
    for (let i = this.entries.length; i < moves.length; i++) {
      const before = this.positionAfter(i);
      const res = replay(before, moves[i]);
      if (!res.ok) {
        this.broken = i;
        break;
      }
      const entry = { record: moves[i], position: res.value.position, effects: res.value.effects };
      this.entries.push(entry);
      added.push(entry);
    }
    return added;
  }

  /** Number of entries replayed. */
  get length(): number {
    return this.entries.length;
  }

  /** The position after the first `n` entries (0 is the start). */
  positionAfter(n: number): Position {
    if (n <= 0 || this.entries.length === 0) return this.start!;
    return this.entries[Math.min(n, this.entries.length) - 1].position;
  }

  /** Every replayed entry, in order. */
  get all(): readonly TimelineEntry[] {
    return this.entries;
  }

  /** The entry at an index. */
  entry(i: number): TimelineEntry | undefined {
    return this.entries[i];
  }
}

function sameRecord(a: MoveRecord, b: MoveRecord | undefined): boolean {
  return !!b && a.kind === b.kind && a.colour === b.colour && a.text === b.text;
}

function replay(pos: Position, record: MoveRecord): Result<{ position: Position; effects: Effect[] }> {
  switch (record.kind) {
    case 'turn':
    case 'pass': {
      const turn = record.kind === 'pass' && !record.text ? { ok: true as const, value: { pass: true as const } } : parseTurn(record.text, pos.geometry);
      if (!turn.ok) return turn;
      return playTurn(pos, turn.value);
    }
    case 'resign':
    case 'timeout':
      return record.colour ? resign(pos, record.colour as Colour) : { ok: false, error: { code: 'bad_record', message: 'no colour' } };
    case 'draw':
      return drawByAgreement(pos);
    default:
      return { ok: false, error: { code: 'bad_record', message: `unknown entry ${record.kind}` } };
  }
}
