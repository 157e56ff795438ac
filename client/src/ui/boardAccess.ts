/**
 * A screen-reader and keyboard twin of the canvas: a grid of labelled buttons, one per cell, in
 * the board's reading order on screen (visually hidden, focusable). Activating one is a click on
 * that cell; the arrow keys move to the nearest cell that way on screen, on any board, and only
 * the focus (the page's history keys leave them alone). The grid stays hidden over the board: the
 * canvas draws the focused cell (`onFocus`), so focusing it neither shows boxes nor scrolls.
 */
import { type AnyColour, type Colour, type Controller, GEOMETRIES, type GeometryName, type PieceInfo, type SquareName } from '@djambi/shared';
import { type BoardLayout, boardLayout, cellToward, readingOrder, seatOf } from '../game/orientation.js';
import { S } from '../i18n/strings.js';
import { h } from './dom.js';

/** Screen steps of the arrow keys. */
const ARROWS: Readonly<Record<string, readonly [number, number]>> = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

export class BoardAccess {
  readonly element: HTMLElement;
  /** Buttons by cell. */
  private buttons: HTMLButtonElement[] = [];
  private layout: BoardLayout | null = null;
  /** The board and seat the grid is laid out for. */
  private laidOut = '';
  /** A run of presses of one arrow: the coordinate across it that the run keeps to, and where it stands. */
  private run: { key: string; across: number; at: number } | null = null;

  constructor(
    private readonly onSquare: (sq: SquareName) => void,
    /** The cell holding the keyboard focus, or null when the focus left the grid. */
    private readonly onFocus: (sq: SquareName | null) => void = () => undefined,
  ) {
    this.element = h('div', { role: 'grid', class: 'sr-only board-access', 'aria-label': S.board.label });
    this.element.addEventListener('focusin', (e) => this.onFocus(((e.target as HTMLElement).dataset.square ?? null) as SquareName | null));
    this.element.addEventListener('focusout', (e) => {
      if (!this.element.contains(e.relatedTarget as Node | null)) this.onFocus(null);
    });
    this.relayout('square', 'R');
  }

  /** Update labels for a board, a view and the pieces and options shown (`control`: who plays each army). */
  update(
    view: AnyColour,
    pieces: readonly PieceInfo[],
    options: readonly SquareName[],
    selected: SquareName | null,
    control: Readonly<Partial<Record<Colour, Controller | null>>> = {},
    geometry: GeometryName = 'square',
  ): void {
    const layout = this.relayout(geometry, view);
    const names = layout.geometry.names;
    const at = new Map(pieces.map((p) => [p.square, p]));
    const opts = new Set(options);
    this.buttons.forEach((b, cell) => {
      const sq = names[cell] as SquareName;
      const p = at.get(sq);
      const by = p?.alive ? control[p.colour] : null;
      // A piece of an army played by another player, or frozen, says so.
      const mark =
        !p || !by || by === p.colour || by === 'hostage'
          ? ''
          : by === 'frozen'
            ? ` (${S.table.frozenLabel(p.colour)})`
            : ` (${S.table.controlledByLabel(p.colour, by)})`;
      const label = S.squareLabel(sq, p ? `${S.pieceLabel(p.colour, p.kind, p.alive)}${mark}` : null, cell === layout.geometry.maze);
      const full = `${label}${sq === selected ? S.board.selectedSuffix : ''}${opts.has(sq) ? S.board.optionSuffix : ''}`;
      if (b.getAttribute('aria-label') !== full) b.setAttribute('aria-label', full);
    });
  }

  /** The layout for this board and view; the grid is rebuilt when either changes. */
  private relayout(geometry: GeometryName, view: AnyColour): BoardLayout {
    const key = `${geometry}/${seatOf(GEOMETRIES[geometry], view)}`;
    if (this.layout && key === this.laidOut) return this.layout;
    const layout = boardLayout(geometry, view);
    this.layout = layout;
    this.laidOut = key;
    this.run = null;
    const focused = this.buttons.indexOf(document.activeElement as HTMLButtonElement);
    const buttons: HTMLButtonElement[] = [];
    const rows = readingOrder(layout).map((row) =>
      h(
        'div',
        { role: 'row' },
        ...row.map((cell) => {
          const b = h('button', { type: 'button', class: 'sq', tabindex: -1 });
          b.dataset.square = layout.geometry.names[cell];
          b.addEventListener('click', () => this.onSquare(layout.geometry.names[cell] as SquareName));
          b.addEventListener('keydown', (e) => this.arrow(e, cell));
          buttons[cell] = b;
          return h('div', { role: 'gridcell' }, b);
        }),
      ),
    );
    this.buttons = buttons;
    this.element.replaceChildren(...rows);
    // The first cell of the bottom row takes the focus first (the square board's a9 for Red).
    const first = buttons[rows.length ? readingOrder(layout).at(-1)![0] : 0];
    if (first) first.tabIndex = 0;
    if (focused >= 0 && buttons[focused]) this.focus(focused);
    return layout;
  }

  private focus(cell: number): void {
    for (const b of this.buttons) b.tabIndex = -1;
    const next = this.buttons[cell];
    next.tabIndex = 0;
    next.focus({ preventScroll: true });
  }

  private arrow(e: KeyboardEvent, cell: number): void {
    const step = ARROWS[e.key];
    const layout = this.layout;
    if (!step || !layout) return;
    e.preventDefault();
    const [x, y] = layout.centres[cell];
    if (this.run?.key !== e.key || this.run.at !== cell) this.run = { key: e.key, across: step[0] === 0 ? x : y, at: cell };
    const next = cellToward(layout, cell, step[0], step[1], this.run.across);
    if (next < 0) return;
    this.run.at = next;
    this.focus(next);
  }
}
