/**
 * The symbol of each kind (crown, dagger, megaphone, top hat, coffin, shield) as data, in the
 * piece art's 100-unit square around (0, -6): the board draws it with Pixi (`pieces.ts`), the
 * move list as a small inline SVG (`ui/pieceIcon.ts`), so both show the same shapes, no emoji.
 */
import type { Kind } from '@djambi/shared';

/** Which of a piece's two colours a part takes: its symbol's ink or its army's line colour. */
export type SymbolTone = 'ink' | 'line';

/**
 * A part of a symbol: a filled polygon or (rounded) rectangle, outlined in the line colour unless
 * `bare`, or straight strokes (`lines`: x1, y1, x2, y2, … one segment per four numbers).
 */
export type SymbolPart =
  | { readonly poly: readonly number[]; readonly tone: SymbolTone; readonly bare?: true }
  | { readonly rect: readonly [x: number, y: number, w: number, h: number, radius?: number]; readonly tone: SymbolTone; readonly bare?: true }
  | { readonly lines: readonly number[]; readonly tone: SymbolTone; readonly width: number };

/** The outline's width around filled parts. */
export const SYMBOL_OUTLINE = 3;

/** Each kind's symbol, drawn in order. */
export const SYMBOLS: Readonly<Record<Kind, readonly SymbolPart[]>> = {
  chief: [
    { poly: [-22, 4, -24, -22, -11, -8, 0, -26, 11, -8, 24, -22, 22, 4], tone: 'ink' },
    { rect: [-22, 7, 44, 7], tone: 'ink' },
  ],
  assassin: [
    { poly: [0, -30, 6, -18, 6, 4, -6, 4, -6, -18], tone: 'ink' },
    { rect: [-16, 4, 32, 6], tone: 'ink' },
    { rect: [-4, 10, 8, 10], tone: 'ink' },
  ],
  reporter: [
    { poly: [-20, -10, 6, -24, 6, 12, -20, 2], tone: 'ink' },
    { rect: [-26, -10, 7, 12], tone: 'ink' },
    { poly: [-14, 2, -8, 2, -4, 16, -10, 16], tone: 'ink' },
    { lines: [12, -14, 20, -19, 12, -6, 22, -6, 12, 2, 20, 7], tone: 'ink', width: 4 },
  ],
  diplomat: [
    { rect: [-14, -26, 28, 28], tone: 'ink' },
    { rect: [-14, -4, 28, 5], tone: 'line', bare: true },
    { rect: [-25, 2, 50, 8, 4], tone: 'ink' },
  ],
  necromobile: [
    { poly: [-8, -28, 8, -28, 16, -16, 10, 18, -10, 18, -16, -16], tone: 'ink' },
    { lines: [0, -20, 0, 4, -7, -12, 7, -12], tone: 'line', width: 4 },
  ],
  militant: [
    { poly: [-18, -24, 18, -24, 18, -4, 0, 16, -18, -4], tone: 'ink' },
    { lines: [0, -24, 0, 14], tone: 'line', width: 3 },
  ],
};
