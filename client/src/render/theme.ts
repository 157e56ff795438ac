/** Colours of the board and the armies. */
import type { Colour } from '@djambi/shared';

/** Army colours: fill, outline and the colour of symbols drawn on them. */
export const ARMY: Record<Colour, { fill: number; line: number; ink: number; css: string }> = {
  R: { fill: 0xd23a2f, line: 0x6e140f, ink: 0xffffff, css: '#d23a2f' },
  B: { fill: 0x2f6fd2, line: 0x0f2c6e, ink: 0xffffff, css: '#2f6fd2' },
  Y: { fill: 0xf2c230, line: 0x7a5a00, ink: 0x2a2100, css: '#e0ae10' },
  G: { fill: 0x2f9e4f, line: 0x0f4d22, ink: 0xffffff, css: '#2f9e4f' },
  P: { fill: 0x8e44ad, line: 0x3d1350, ink: 0xffffff, css: '#8e44ad' },
  W: { fill: 0xf4f4f0, line: 0x4a4a4a, ink: 0x1a1a1a, css: '#9a9a94' },
};

/** Board and highlight colours. */
export const BOARD = {
  background: 0x1e1f24,
  light: 0xe9dcc0,
  dark: 0xc7b28e,
  maze: 0x3b2a4a,
  mazeLine: 0xe3c16f,
  coord: 0x5b4a30,
  coordOnDark: 0xf5ecd8,
  lastTurn: 0x9bc53d,
  selected: 0x3a8fd6,
  option: 0x1d5fa0,
  capture: 0xc0392b,
  chosen: 0xe67e22,
  corpse: 0x8a8a8a,
  corpseLine: 0x3c3c3c,
  corpseInk: 0x2a2a2a,
} as const;
