/** Colours of the board and the armies. */
import type { AnyColour } from '@djambi/shared';

/**
 * Army colours in seat order: fill, outline and the colour of symbols drawn on them. The six
 * fills stay at least 20 CIE76 ΔE apart for normal, protan, deutan and tritan vision, and every
 * ink has at least 4.5:1 contrast on its fill (tests/client/palette.test.ts).
 */
export const ARMY: Record<AnyColour, { fill: number; line: number; ink: number; css: string }> = {
  R: { fill: 0xb5281f, line: 0x5a0f0a, ink: 0xffffff, css: '#b5281f' },
  B: { fill: 0x1d3f8f, line: 0x0a1a45, ink: 0xffffff, css: '#1d3f8f' },
  Y: { fill: 0xf2c230, line: 0x7a5a00, ink: 0x2a2100, css: '#e0ae10' },
  G: { fill: 0x0b7a5a, line: 0x033a2a, ink: 0xffffff, css: '#0b7a5a' },
  P: { fill: 0xc05fc9, line: 0x5a1f60, ink: 0x1a1a1a, css: '#a545ae' },
  W: { fill: 0xf0f0f0, line: 0x4a4a4a, ink: 0x1a1a1a, css: '#6b6b6b' },
};

/** Board and highlight colours. */
export const BOARD = {
  background: 0x1e1f24,
  frame: 0x5a4630,
  light: 0xe9dcc0,
  dark: 0xc7b28e,
  mid: 0xd8c7a7,
  maze: 0x3b2a4a,
  mazeLine: 0xe3c16f,
  fortress: 0x9c8aa3,
  coord: 0x5b4a30,
  coordOnDark: 0xf5ecd8,
  lastTurn: 0x9bc53d,
  selected: 0x3a8fd6,
  option: 0x1d5fa0,
  capture: 0xc0392b,
  chosen: 0xe67e22,
  /** The keyboard focus ring (the page's `--accent`). */
  focus: 0xe3c16f,
  corpse: 0x8a8a8a,
  corpseLine: 0x3c3c3c,
  corpseInk: 0x2a2a2a,
} as const;
