/**
 * Click-click and drag, mouse and touch alike, without the DOM or Pixi: the board reports
 * presses, moves and releases on squares, the gesture turns them into the controller's clicks
 * and drops. Every press first settles the board (finishes a running animation), so that what
 * it decides, from the position after the animation, is what the controller acts on.
 */
import type { SquareName } from '@djambi/shared';

/** What the gesture asks and tells. */
export interface GestureTarget {
  /** Finish a running animation: the board then shows the position the controller holds. */
  settle(): void;
  /** A piece the viewer can move now stands on the square. */
  canDrag(square: SquareName): boolean;
  /** The square selected now. */
  selected(): SquareName | null;
  click(square: SquareName): void;
  drop(from: SquareName, to: SquareName): void;
}

/** How a press ended. */
export type GestureEnd = 'clicked' | 'dropped' | 'returned' | 'none';

/** How far (CSS pixels) the pointer must travel before a press becomes a drag. */
export const DRAG_THRESHOLD = 5;

interface Press {
  readonly from: SquareName;
  /** Pressed on a piece that can move: it was selected on press and may be dragged. */
  readonly movable: boolean;
  /** That piece was already selected before the press (a second tap deselects it). */
  readonly selectedBefore: boolean;
  readonly startX: number;
  readonly startY: number;
  moved: boolean;
}

/** One pointer's gesture on the board. */
export class PointerGesture {
  private press: Press | null = null;

  constructor(private readonly target: GestureTarget) {}

  /** The square of the piece pressed (and perhaps dragged), when it can move. */
  get pressed(): SquareName | null {
    return this.press?.movable ? this.press.from : null;
  }

  /** A press at (x, y) on `square` (null: off the board). A movable piece is selected at once. */
  down(square: SquareName | null, x: number, y: number): void {
    this.target.settle();
    this.press = null;
    if (!square) return;
    const movable = this.target.canDrag(square);
    const selectedBefore = movable && this.target.selected() === square;
    if (movable && !selectedBefore) this.target.click(square);
    this.press = { from: square, movable, selectedBefore, startX: x, startY: y, moved: false };
  }

  /** The pointer moved to (x, y). True when the pressed piece follows it (a drag). */
  move(x: number, y: number): boolean {
    const p = this.press;
    if (!p?.movable) return false;
    if (!p.moved && Math.hypot(x - p.startX, y - p.startY) < DRAG_THRESHOLD) return false;
    p.moved = true;
    return true;
  }

  /** The release on `square` (null: off the board). */
  up(square: SquareName | null): GestureEnd {
    const p = this.press;
    this.press = null;
    if (!p) return 'none';
    if (p.moved) {
      if (!square || square === p.from) return 'returned';
      this.target.drop(p.from, square);
      return 'dropped';
    }
    if (!square) return 'none';
    // On a movable piece the press already selected it: a tap on it again deselects it.
    if (p.movable && square === p.from && !p.selectedBefore) return 'none';
    if (!p.movable && square !== p.from) return 'none';
    this.target.click(square);
    return 'clicked';
  }
}
