/** The page's test and benchmark hook on `window.djambi` (the e2e tests read it). */
import type { Colour, SquareName } from '@djambi/shared';
import type { GameController } from '../game/controller.js';
import type { PressModel } from '../game/press.js';
import type { GameSession } from '../game/session.js';
import type { BoardView, DrawnPiece } from '../render/board.js';

/** Test and benchmark hook on `window.djambi`. */
export interface DjambiDebug {
  ready: boolean;
  /** `performance.now()` when the board first showed the room's position. */
  readyAt: number | null;
  /** `performance.now()` when the board first accepted a move from this viewer. */
  interactiveAt: number | null;
  squareCenter(square: SquareName): { x: number; y: number } | null;
  state(): DebugState;
  /** The negotiation as this page holds it (tabs, unread counts, …). */
  press(): ReturnType<PressModel['summary']>;
  recordFrames(on: boolean): { samples: readonly number[]; intervals: readonly number[] };
  /** The pieces as the board draws them, with their control marks (a captured army's ring colour). */
  drawn(): DrawnPiece[];
  animating(): boolean;
  /** Hold the board's animations where they stand (true) or let them go on (false): tests act on a turn in flight. */
  holdAnimations(on: boolean): void;
}

/** The page state the tests assert on. */
export interface DebugState {
  /** The live position (replayed from the move list) as FEN; '' before the first state. */
  fen: string;
  seat: Colour | null;
  view: Colour;
  phase: string;
  moves: number;
  renderer: string;
  /** The colour to move while the game is on, else ''. */
  toMove: string;
  prompt: string;
  interactive: boolean;
  selected: SquareName | null;
}

declare global {
  interface Window {
    djambi?: DjambiDebug;
  }
}

/** What the hook reads: the page's session, board, controller, negotiation and prompt. */
export interface DebugSources {
  readonly session: GameSession;
  readonly pane: {
    readonly board: BoardView | null;
    readonly viewColour: Colour;
    readonly animation: { readonly running: boolean };
  };
  readonly controller: GameController;
  readonly press: PressModel;
  readonly prompt: HTMLElement;
}

/** Install the hook. */
export function installDebug({ session, pane, controller, press, prompt }: DebugSources): void {
  window.djambi = {
    ready: false,
    readyAt: null,
    interactiveAt: null,
    squareCenter: (sq) => pane.board?.squareCenter(sq) ?? null,
    state: () => {
      const v = session.view;
      return {
        fen: v.fen,
        seat: v.mySeat,
        view: pane.viewColour,
        phase: v.phase,
        moves: v.moves.length,
        renderer: pane.board?.rendererName ?? '',
        toMove: v.toMove ?? '',
        prompt: prompt.textContent ?? '',
        interactive: controller.view.interactive,
        selected: controller.view.highlights.selected,
      };
    },
    press: () => press.summary(),
    recordFrames: (on) => pane.board?.recordFrames(on) ?? { samples: [], intervals: [] },
    drawn: () => pane.board?.drawnPieces() ?? [],
    animating: () => pane.animation.running,
    holdAnimations: (on) => pane.board?.holdAnimations(on),
  };
}

/** Stamp, in the frame that draws the board, that it shows the room (and accepts moves). */
export function stampReady(interactive: boolean): void {
  const debug = window.djambi;
  if (!debug) return;
  requestAnimationFrame(() => {
    debug.ready = true;
    debug.readyAt ??= performance.now();
    if (interactive) debug.interactiveAt ??= performance.now();
  });
}

export function removeDebug(): void {
  if (window.djambi) delete window.djambi;
}
