/**
 * A screen-reader and keyboard twin of the canvas: a grid of 81 labelled buttons in display
 * order (visually hidden, focusable). Activating one is a click on that square.
 */
import { isSquare, MAZE, type Colour, type Controller, type PieceInfo, type SquareName } from '@djambi/shared';
import { squareAt } from '../game/orientation.js';
import { S } from '../i18n/strings.js';
import { h } from './dom.js';

export class BoardAccess {
  readonly element: HTMLElement;
  private readonly buttons: HTMLButtonElement[] = [];
  private view: Colour | null = null;

  constructor(onSquare: (sq: SquareName) => void) {
    const rows: HTMLElement[] = [];
    for (let row = 0; row < 9; row++) {
      const cells: HTMLElement[] = [];
      for (let col = 0; col < 9; col++) {
        const b = h('button', { type: 'button', class: 'sq', tabindex: -1 });
        b.addEventListener('click', () => {
          const sq = b.dataset.square;
          if (isSquare(sq)) onSquare(sq);
        });
        b.addEventListener('keydown', (e) => this.arrow(e, row, col));
        this.buttons.push(b);
        cells.push(h('div', { role: 'gridcell' }, b));
      }
      rows.push(h('div', { role: 'row' }, ...cells));
    }
    this.buttons[72].tabIndex = 0;
    this.element = h('div', { role: 'grid', class: 'sr-only board-access', 'aria-label': S.board.label }, ...rows);
  }

  /** Update labels for a view and the pieces and options shown (`control`: who plays each army). */
  update(
    view: Colour,
    pieces: readonly PieceInfo[],
    options: readonly SquareName[],
    selected: SquareName | null,
    control: Readonly<Partial<Record<Colour, Controller | null>>> = {},
  ): void {
    const at = new Map(pieces.map((p) => [p.square, p]));
    const opts = new Set(options);
    this.view = view;
    this.buttons.forEach((b, i) => {
      const sq = squareAt({ col: i % 9, row: Math.floor(i / 9) }, view)!;
      const p = at.get(sq);
      b.dataset.square = sq;
      const by = p?.alive ? control[p.colour] : null;
      // A piece of an army played by another player, or frozen, says so.
      const mark =
        !p || !by || by === p.colour || by === 'hostage'
          ? ''
          : by === 'frozen'
            ? ` (${S.table.frozenLabel(p.colour)})`
            : ` (${S.table.controlledByLabel(p.colour, by)})`;
      const label = S.squareLabel(sq, p ? `${S.pieceLabel(p.colour, p.kind, p.alive)}${mark}` : null, sq === MAZE);
      const full = `${label}${sq === selected ? S.board.selectedSuffix : ''}${opts.has(sq) ? S.board.optionSuffix : ''}`;
      if (b.getAttribute('aria-label') !== full) b.setAttribute('aria-label', full);
    });
  }

  private arrow(e: KeyboardEvent, row: number, col: number): void {
    const d: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const step = d[e.key];
    if (!step || !this.view) return;
    e.preventDefault();
    const r = Math.min(8, Math.max(0, row + step[0]));
    const c = Math.min(8, Math.max(0, col + step[1]));
    const next = this.buttons[r * 9 + c];
    for (const b of this.buttons) b.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  }
}
