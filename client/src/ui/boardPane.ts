/**
 * The board pane: the Pixi board, its screen-reader twin, the "view as" select and the
 * animation gate. Draws the session's pieces and last move with the controller's highlights,
 * and animates a new turn from the engine's effects.
 */
import { COLOURS, controllerOf, seatsOf, type Colour, type Controller, type Effect, type GeometryName, type PieceInfo, type SquareName } from '@djambi/shared';
import { AnimationGate } from '../game/animationGate.js';
import { boardLayout } from '../game/orientation.js';
import type { GameController } from '../game/controller.js';
import type { GameSession } from '../game/session.js';
import { S } from '../i18n/strings.js';
import { BoardView, type BoardScene } from '../render/board.js';
import { BoardAccess } from './boardAccess.js';
import type { Guard } from './controlsView.js';
import { stampReady } from './debugHook.js';
import { h } from './dom.js';

export class BoardPane {
  readonly element: HTMLElement;
  /** The "view as" select: one option per seat of the game (filled when its rules are known). */
  readonly viewSelect = h('select', { id: 'view-from', 'aria-label': S.game.viewAs, title: S.game.flipHint });
  /** The seats the select lists, as `'RBY'`. */
  private listedSeats = '';
  /** The board and view the host's height was fitted to. */
  private fittedTo = '';
  /** The turn animating on the board; any input finishes it first and redraws the board. */
  readonly animation = new AnimationGate(() => this.refresh());
  /** Every input first finishes a running animation, and then acts on the position after it. */
  readonly input: Guard = (handler) => this.animation.guard((...args) => void handler(...args));
  board: BoardView | null = null;
  private readonly host = h('div', { id: 'board', class: 'board' });
  private readonly access: BoardAccess;
  private chosenView: Colour | null = null;
  /** The keyboard grid's focused cell, ringed on the canvas. */
  private focused: SquareName | null = null;
  private shownPieces: readonly PieceInfo[] = [];
  /** While a new state is taken in, the board waits (so the turn can be animated). */
  private holding = false;
  private disposed = false;

  constructor(
    private readonly controller: GameController,
    private readonly session: GameSession,
  ) {
    this.access = new BoardAccess(
      this.animation.guard((sq: SquareName) => controller.click(sq)),
      (sq) => {
        this.focused = sq;
        this.board?.setFocus(sq);
      },
    );
    this.element = h('div', { class: 'board-wrap' }, this.host, this.access.element);
    // The choice is read before the input finishes a running animation: the redraw that ends it
    // puts the select back to the view shown so far.
    const choose = this.input((colour: Colour) => {
      this.chosenView = colour;
      this.refresh();
    });
    this.viewSelect.addEventListener('change', () => choose(this.viewSelect.value as Colour));
  }

  async create(): Promise<void> {
    // `?renderer=canvas` and `?aa=0` help on machines with a weak or missing GPU.
    const q = new URLSearchParams(location.search);
    const renderer = q.get('renderer');
    const board = await BoardView.create(
      this.host,
      {
        settle: () => void this.animation.settle(),
        click: (sq) => this.controller.click(sq),
        drop: (from, to) => this.controller.drop(from, to),
        canDrag: (sq) => this.controller.canDrag(sq),
      },
      {
        renderer: renderer === 'canvas' || renderer === 'webgl' || renderer === 'webgpu' ? renderer : undefined,
        antialias: q.get('aa') !== '0',
      },
    );
    if (this.disposed) {
      board.destroy();
      return;
    }
    this.board = board;
    board.setFocus(this.focused);
    this.refresh();
  }

  dispose(): void {
    this.disposed = true;
    this.board?.destroy();
  }

  /** The colour the board is seen from: the chosen one, else the seat, else the game's first seat. */
  get viewColour(): Colour {
    const rules = this.session.view.snapshot?.rules;
    return this.chosenView ?? this.session.view.mySeat ?? (rules ? seatsOf(rules)[0] : 'R');
  }

  /** A seat was given: face it unless the viewer chose a side. */
  faceSeat(colour: Colour): void {
    if (!this.chosenView) this.viewSelect.value = colour;
  }

  /**
   * Take in a new state with the board held (`update` changes what is shown), then animate
   * `effects` from the pieces shown before, or else just redraw.
   */
  takeIn(update: () => readonly Effect[] | null): void {
    const before = this.shownPieces;
    let effects: readonly Effect[] | null;
    this.holding = true;
    try {
      effects = update();
    } finally {
      this.holding = false;
    }
    if (effects && this.board && before.length) void this.animate(this.board, before, effects);
    else this.refresh();
  }

  refresh(): void {
    const view = this.viewColour;
    const rules = this.session.view.snapshot?.rules;
    const seats = rules ? seatsOf(rules) : [view];
    if (seats.join('') !== this.listedSeats) {
      this.listedSeats = seats.join('');
      this.viewSelect.replaceChildren(...seats.map((c) => h('option', { value: c }, S.colour(c))));
    }
    if (this.viewSelect.value !== view) this.viewSelect.value = view;
    const scene = this.scene();
    const geometry = this.session.view.shown?.geometry ?? 'square';
    this.access.update(view, scene.pieces, scene.highlights.options, scene.highlights.selected, scene.control, geometry);
    this.fitHeight(geometry, view);
    if (!this.board || this.animation.running || this.holding) return;
    this.board.setGeometry(geometry);
    this.board.setView(view);
    this.board.render(scene);
    this.shownPieces = scene.pieces;
    // Stamped in the frame that draws the board (after the board's own frame callback).
    if (this.session.view.snapshot) stampReady(this.controller.view.interactive);
  }

  /**
   * A board taller than wide (the hex boards, a corner at the bottom) gets a taller host where the
   * page's width limits the board (a phone held upright), so its cells are as wide as they can be.
   */
  private fitHeight(geometry: GeometryName, view: Colour): void {
    const key = `${geometry}/${view}`;
    if (key === this.fittedTo) return;
    this.fittedTo = key;
    const { width, height } = boardLayout(geometry, view);
    this.host.style.height = height > width * 1.01 ? `min(calc(var(--board) * ${(height / width).toFixed(3)}), calc(100dvh - 11rem))` : '';
  }

  private scene(): BoardScene {
    const c = this.controller.view;
    const v = this.session.view;
    const control: Partial<Record<Colour, Controller | null>> = {};
    if (v.shown) for (const army of COLOURS) control[army] = controllerOf(v.shown, army);
    return { pieces: v.pieces, preview: c.preview, highlights: c.highlights, lastTurn: v.lastMove, control };
  }

  private async animate(board: BoardView, before: readonly PieceInfo[], effects: readonly Effect[]): Promise<void> {
    const ended = this.animation.start(() => board.finishAnimation());
    try {
      await board.animate(before, effects, this.scene());
    } finally {
      // Finished early, the gate has redrawn the board already.
      if (ended()) this.refresh();
    }
  }
}
