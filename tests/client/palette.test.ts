/**
 * The army palette (render/theme.ts) for colour-blind players: the six fills simulated for
 * protanopia, deuteranopia and tritanopia (Machado, Oliveira & Fernandes 2009, severity 1.0, on
 * linear RGB) stay apart in CIELAB, and each piece's ink reads on its fill.
 */
import { ALL_COLOURS, type AnyColour } from '@djambi/shared';
import { ARMY, BOARD } from '../../client/src/render/theme.js';

type Rgb = readonly [number, number, number];
type Matrix = readonly [Rgb, Rgb, Rgb];

/** Machado et al. 2009, severity 1.0. */
const VISIONS: Record<string, Matrix | null> = {
  normal: null,
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};

/**
 * Least CIE76 ΔE between two fills, in every vision. About 2.3 is a just noticeable difference
 * side by side; 20 keeps two small discs apart at a glance, across the board, in a different
 * light (the best six-colour palettes that keep red, blue, yellow and green recognisable reach
 * about 21 for all four visions).
 */
const MIN_DELTA_E = 20;
/** WCAG 2 contrast for text (the piece's letter is small text): 4.5:1. */
const MIN_INK_CONTRAST = 4.5;

const linear = (hex: number): Rgb =>
  [16, 8, 0].map((shift) => {
    const c = ((hex >> shift) & 255) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as unknown as Rgb;

const simulate = (m: Matrix | null, c: Rgb): Rgb =>
  m ? (m.map((row) => Math.min(1, Math.max(0, row[0] * c[0] + row[1] * c[1] + row[2] * c[2]))) as unknown as Rgb) : c;

/** CIELAB (D65) of a linear sRGB colour. */
function lab([r, g, b]: Rgb): Rgb {
  const f = (t: number): number => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  const x = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
  const y = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
  const z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}

const luminance = (c: Rgb): number => 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
const contrast = (a: number, b: number): number => {
  const [hi, lo] = [luminance(linear(a)), luminance(linear(b))].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

const PAIRS: [AnyColour, AnyColour][] = ALL_COLOURS.flatMap((a, i) => ALL_COLOURS.slice(i + 1).map((b): [AnyColour, AnyColour] => [a, b]));

describe('army palette', () => {
  test.each(Object.keys(VISIONS))(`every two fills are at least ΔE ${MIN_DELTA_E} apart in %s vision`, (vision) => {
    const m = VISIONS[vision];
    for (const [a, b] of PAIRS) {
      const la = lab(simulate(m, linear(ARMY[a].fill)));
      const lb = lab(simulate(m, linear(ARMY[b].fill)));
      const delta = Math.hypot(la[0] - lb[0], la[1] - lb[1], la[2] - lb[2]);
      expect({ pair: a + b, far: delta >= MIN_DELTA_E }).toEqual({ pair: a + b, far: true });
    }
  });

  test.each(ALL_COLOURS)(`%s: the ink has at least ${MIN_INK_CONTRAST}:1 contrast on the fill`, (colour) => {
    expect(contrast(ARMY[colour].ink, ARMY[colour].fill)).toBeGreaterThanOrEqual(MIN_INK_CONTRAST);
  });

  test('R, B, Y and G stay red, blue, yellow and green (their hue in normal vision)', () => {
    const hue = (c: AnyColour): number => {
      const [, a, b] = lab(linear(ARMY[c].fill));
      return ((Math.atan2(b, a) * 180) / Math.PI + 360) % 360;
    };
    const within = (h: number, from: number, to: number): boolean => h >= from && h <= to;
    expect(within(hue('R'), 15, 50)).toBe(true);
    expect(within(hue('Y'), 70, 100)).toBe(true);
    expect(within(hue('G'), 130, 200)).toBe(true);
    expect(within(hue('B'), 260, 310)).toBe(true);
  });

  test('every fill stands off the board: its outline, at least, contrasts with the light and the dark cells', () => {
    for (const c of ALL_COLOURS)
      for (const cell of [BOARD.light, BOARD.dark, BOARD.mid])
        expect(Math.max(contrast(ARMY[c].fill, cell), contrast(ARMY[c].line, cell))).toBeGreaterThanOrEqual(3);
  });
});
