/**
 * The headless game session: the synced snapshot, the live position, the timeline, the history
 * index, the seat and the link, folded into one view model. No DOM, no Colyseus: tested in Node.
 *
 * One source of truth for the board: the move list (`state.moves`) replayed with the engine.
 * The pieces, the live position, the last-move squares and the animations all come from it,
 * never from the schema's `pieces`, `lastTurn` or `fen`, nor from the `played` message.
 */
import {
  type GeometryName,
  makeFen,
  parseTurn,
  pieces as piecesOf,
  type Colour,
  type Effect,
  type PieceInfo,
  type Position,
  type SquareName,
} from '@djambi/shared';
import type { StoredSeat } from '../net/seatStore.js';
import type { GameSnapshot, MoveRecord } from './snapshot.js';
import { Timeline, type TimelineEntry } from './timeline.js';

/**
 * The link as the connection reports it (`LinkState` in net/connection.ts); the session needs
 * only its kind, and stays free of the net layer.
 */
export interface LinkLike {
  readonly kind: string;
}

/** Where to step in the move list. */
export type Step = 'first' | 'prev' | 'next' | 'last';

/** Everything the views render, derived from the session's inputs. */
export interface SessionView<L extends LinkLike = LinkLike> {
  readonly snapshot: GameSnapshot | null;
  readonly phase: GameSnapshot['phase'] | '';
  readonly seat: StoredSeat | null;
  readonly mySeat: Colour | null;
  readonly link: L;
  /** The position after every synced entry the engine could replay. */
  readonly live: Position | null;
  /** The position on the board: the live one, or the one after `historyIndex` entries. */
  readonly shown: Position | null;
  /** null: the live position; n: the position after the first n entries. */
  readonly historyIndex: number | null;
  readonly pieces: readonly PieceInfo[];
  /** Squares of the turn that led to the shown position (none after a pass, resign, …). */
  readonly lastMove: readonly SquareName[];
  readonly moves: readonly MoveRecord[];
  /** The replayed entries with their engine effects (the move list's descriptions come from them). */
  readonly entries: readonly TimelineEntry[];
  /** Number of entries replayed (the history can step up to it). */
  readonly replayed: number;
  /** The colour to move in the live position while the game is on, else null. */
  readonly toMove: Colour | null;
  /** The viewer's turn in the live position. */
  readonly myTurn: boolean;
  /** The live position's FEN ('' before the first snapshot). */
  readonly fen: string;
  readonly version: number | undefined;
  readonly started: boolean;
  readonly result: GameSnapshot['result'];
  /** The link dropped and is not back: nothing the page shows is live (the status says "reconnecting"). */
  readonly linkDown: boolean;
  /** While the link is down, the (server) time it dropped at: the clocks show their time as of then, not counting on. */
  readonly clockFrozenAt: number | null;
}

/** Link kinds after a drop, until the link is back. */
const DOWN_KINDS: readonly string[] = ['waiting', 'retrying', 'restarting', 'failed'];

/** What a new snapshot changed. */
export interface SnapshotUpdate {
  readonly first: boolean;
  readonly versionChanged: boolean;
  readonly phaseChanged: boolean;
  /** The entries replayed from this snapshot, with their engine effects. */
  readonly added: readonly TimelineEntry[];
  /** Effects to animate on the live board (a few new turns after the first snapshot), else null. */
  readonly animate: readonly Effect[] | null;
}

/** At most this many new entries are animated; more (a reload, a catch-up) just redraw. */
const MAX_ANIMATED = 3;

export class GameSession<L extends LinkLike = LinkLike> {
  private snap: GameSnapshot | null = null;
  private seatHeld: StoredSeat | null = null;
  private linkState = { kind: 'connecting' } as L;
  private dropped = false;
  /** When the link went down (server time), while it is down. */
  private downSince: number | null = null;
  private index: number | null = null;
  private readonly timeline = new Timeline();
  /** The view of the current inputs; every input clears it. */
  private cached: SessionView<L> | null = null;

  /** Take in a synced state. */
  applySnapshot(snap: GameSnapshot): SnapshotUpdate {
    const prev = this.snap;
    this.snap = snap;
    this.cached = null;
    const added = this.timeline.sync(snap.rules, snap.moves);
    const effects = added.flatMap((e) => e.effects);
    const animate = prev && this.index === null && added.length > 0 && added.length <= MAX_ANIMATED && effects.length > 0 ? effects : null;
    return { first: !prev, versionChanged: snap.version !== prev?.version, phaseChanged: prev?.phase !== snap.phase, added, animate };
  }

  setSeat(seat: StoredSeat | null): void {
    this.seatHeld = seat;
    this.cached = null;
  }

  /** Record the link (`now`: the server's time, where the clocks stop while it is down); true when it is back after a drop (once). */
  setLink(link: L, now: number | null = null): boolean {
    const was = this.linkState;
    this.linkState = link;
    this.cached = null;
    if (DOWN_KINDS.includes(link.kind)) this.downSince ??= now;
    else this.downSince = null;
    if (link.kind === 'waiting' || link.kind === 'retrying' || link.kind === 'restarting') this.dropped = true;
    if (link.kind === 'connected' && this.dropped && was.kind !== 'connected') {
      this.dropped = false;
      return true;
    }
    return false;
  }

  /** The link dropped since it was last back. */
  get hadDrop(): boolean {
    return this.dropped;
  }

  /** Show the position after `n` entries (null: the live one). */
  viewMove(n: number | null): void {
    this.cached = null;
    this.index = n === null ? null : Math.max(0, Math.min(n, this.timeline.length));
    if (this.snap && this.index !== null && this.index >= this.snap.moves.length) this.index = null;
  }

  /** Step through the move list; false before the first snapshot. */
  step(where: Step): boolean {
    if (!this.snap) return false;
    const cur = this.index ?? this.snap.moves.length;
    const next = where === 'first' ? 0 : where === 'prev' ? cur - 1 : where === 'next' ? cur + 1 : Number.POSITIVE_INFINITY;
    this.viewMove(Math.max(0, next) >= this.snap.moves.length ? null : Math.max(0, next));
    return true;
  }

  get view(): SessionView<L> {
    this.cached ??= this.build();
    return this.cached;
  }

  private build(): SessionView<L> {
    const snap = this.snap;
    const live = snap ? this.timeline.positionAfter(this.timeline.length) : null;
    const shown = this.index === null ? live : this.timeline.positionAfter(this.index);
    const mySeat = this.seatHeld?.colour ?? null;
    const playing = snap?.phase === 'playing';
    const toMove = playing && live && !live.result ? live.toMove : null;
    const count = this.index ?? this.timeline.length;
    const entry = count > 0 ? this.timeline.entry(count - 1) : undefined;
    return {
      snapshot: snap,
      phase: snap?.phase ?? '',
      seat: this.seatHeld,
      mySeat,
      link: this.linkState,
      live,
      shown,
      historyIndex: this.index,
      pieces: shown ? piecesOf(shown) : [],
      lastMove: entry ? turnSquares(entry.record, entry.position.geometry) : [],
      moves: snap?.moves ?? [],
      entries: this.timeline.all,
      replayed: this.timeline.length,
      toMove,
      myTurn: toMove !== null && toMove === mySeat,
      fen: live ? makeFen(live) : '',
      version: snap?.version,
      started: snap?.phase !== 'waiting',
      result: snap?.result ?? null,
      linkDown: DOWN_KINDS.includes(this.linkState.kind),
      clockFrozenAt: DOWN_KINDS.includes(this.linkState.kind) ? this.downSince : null,
    };
  }
}

/** The squares a move-list turn touched. */
export function turnSquares(record: MoveRecord, board: GeometryName = 'square'): SquareName[] {
  if (record.kind !== 'turn') return [];
  const t = parseTurn(record.text, board);
  if (!t.ok || !('from' in t.value)) return [];
  return [t.value.from, t.value.to, t.value.placement, t.value.exit, t.value.reporterTarget].filter((s): s is SquareName => !!s);
}
