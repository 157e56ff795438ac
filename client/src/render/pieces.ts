/**
 * Piece artwork: a disc in the army colour with a drawn symbol per kind and the kind's letter.
 * Corpses are grey, face down, crossed out. Drawn once per (colour, kind, alive) in a 100×100
 * unit square centred on (0, 0) and shared by every piece that looks the same.
 */
import { Container, GraphicsContext, Graphics, Text, TextStyle } from 'pixi.js';
import type { AnyColour, Controller, Kind } from '@djambi/shared';
import { S } from '../i18n/strings.js';
import { SYMBOL_OUTLINE, SYMBOLS } from './symbols.js';
import { ARMY, BOARD } from './theme.js';

/** Size of the unit square the art is drawn in. */
export const UNIT = 100;

const contexts = new Map<string, GraphicsContext>();

/** Symbol of a kind (`symbols.ts`), drawn in `ink` around (0, -6), about 48 units wide. */
function drawSymbol(g: GraphicsContext, kind: Kind, ink: number, line: number): void {
  const stroke = { width: SYMBOL_OUTLINE, color: line, alignment: 0.5 } as const;
  for (const part of SYMBOLS[kind]) {
    const color = part.tone === 'ink' ? ink : line;
    if ('lines' in part) {
      const l = part.lines;
      for (let i = 0; i < l.length; i += 4) g.moveTo(l[i], l[i + 1]).lineTo(l[i + 2], l[i + 3]);
      g.stroke({ width: part.width, color });
      continue;
    }
    if ('poly' in part) g.poly([...part.poly]);
    else {
      const [x, y, w, h, r] = part.rect;
      if (r) g.roundRect(x, y, w, h, r);
      else g.rect(x, y, w, h);
    }
    g.fill(color);
    if (!part.bare) g.stroke(stroke);
  }
}

/** The shared drawing of a living piece or a corpse. */
function contextFor(colour: AnyColour, kind: Kind, alive: boolean): GraphicsContext {
  const key = `${colour}${kind}${alive ? 1 : 0}`;
  let ctx = contexts.get(key);
  if (ctx) return ctx;
  ctx = new GraphicsContext();
  if (alive) {
    const army = ARMY[colour];
    ctx.circle(0, 2, 42).fill({ color: 0x000000, alpha: 0.25 });
    ctx.circle(0, 0, 41).fill(army.fill).stroke({ width: 4, color: army.line });
    ctx.save();
    ctx.setTransform(0.85, 0, 0, 0.85, 0, -5);
    drawSymbol(ctx, kind, army.ink, army.line);
    ctx.restore();
  } else {
    // Face down: a grey, flat, crossed-out disc; the small symbol tells what it was.
    ctx.circle(0, 0, 38).fill(BOARD.corpse).stroke({ width: 3, color: BOARD.corpseLine });
    ctx.moveTo(-24, -24).lineTo(24, 24).moveTo(24, -24).lineTo(-24, 24).stroke({ width: 7, color: BOARD.corpseLine, cap: 'round' });
    // A light badge in the middle keeps the letter readable (a chief's corpse matters).
    ctx.circle(0, 0, 14).fill(0xd8d8d8).stroke({ width: 2, color: BOARD.corpseLine });
  }
  contexts.set(key, ctx);
  return ctx;
}

/**
 * How a living piece shows who plays its army: a ring in the controller's colour (a captured
 * army), grey hatching (a frozen army), a pale dashed ring (a hostage army), or nothing.
 */
export type ControlMark = AnyColour | 'frozen' | 'hostage' | null;

/** The mark of a piece of `army` whose army is controlled by `controller`. */
export function controlMark(army: AnyColour, controller: Controller | null | undefined): ControlMark {
  return !controller || controller === army ? null : controller;
}

/** Colour (hex) of a mark's ring, for the test hook. */
export function markColour(mark: ControlMark): string | null {
  if (!mark) return null;
  if (mark === 'frozen') return '#7d7d7d';
  if (mark === 'hostage') return '#e8e8e8';
  return ARMY[mark].css;
}

const markContexts = new Map<string, GraphicsContext>();

/** The shared drawing of a mark, around and over the disc. */
function markContextFor(mark: Exclude<ControlMark, null>): GraphicsContext {
  let ctx = markContexts.get(mark);
  if (ctx) return ctx;
  ctx = new GraphicsContext();
  if (mark === 'frozen') {
    // Frozen: a grey veil with hatching over the disc, in a grey ring.
    ctx.circle(0, 0, 41).fill({ color: 0x9a9a9a, alpha: 0.55 });
    const r = 40;
    for (let c = -48; c <= 48; c += 16) {
      const d = Math.sqrt(2 * r * r - c * c);
      const x1 = (-c - d) / 2;
      const x2 = (-c + d) / 2;
      ctx.moveTo(x1, x1 + c).lineTo(x2, x2 + c);
    }
    ctx.stroke({ width: 4, color: 0x3c3c3c, alpha: 0.8 });
    ctx.circle(0, 0, 46).stroke({ width: 6, color: 0x7d7d7d });
  } else if (mark === 'hostage') {
    for (let i = 0; i < 12; i++) ctx.arc(0, 0, 47, (i * Math.PI) / 6, (i * Math.PI) / 6 + Math.PI / 10).stroke({ width: 5, color: 0xe8e8e8 });
  } else {
    // Captured: a ring in the controller's colour, outlined so it reads on every square.
    ctx.circle(0, 0, 47).stroke({ width: 9, color: ARMY[mark].line });
    ctx.circle(0, 0, 47).stroke({ width: 6, color: ARMY[mark].fill });
  }
  markContexts.set(mark, ctx);
  return ctx;
}

const letterStyles = new Map<string, TextStyle>();

function letterStyle(fill: number, size: number): TextStyle {
  const key = `${fill}:${size}`;
  let style = letterStyles.get(key);
  if (!style) {
    style = new TextStyle({ fontFamily: 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif', fontSize: size, fontWeight: '800', fill });
    letterStyles.set(key, style);
  }
  return style;
}

/** A drawable piece; `set` redraws it for another look (a kill turns it into a corpse). */
export class PieceSprite extends Container {
  private readonly body = new Graphics();
  private readonly ring = new Graphics();
  private readonly veil = new Graphics();
  private readonly letter: Text;
  private look = '';
  /** The control mark drawn now. */
  mark: ControlMark = null;

  constructor(colour: AnyColour, kind: Kind, alive: boolean) {
    super();
    this.letter = new Text({ text: '', style: letterStyle(0xffffff, 24), resolution: 3 });
    this.letter.anchor.set(0.5);
    this.ring.visible = false;
    this.veil.visible = false;
    this.addChild(this.ring, this.body, this.letter, this.veil);
    this.set(colour, kind, alive);
  }

  /** Show who plays this piece's army (corpses carry no mark). */
  setMark(mark: ControlMark): void {
    if (mark === this.mark) return;
    this.mark = mark;
    const ring = mark && mark !== 'frozen' ? mark : null;
    this.ring.visible = !!ring;
    if (ring) this.ring.context = markContextFor(ring);
    this.veil.visible = mark === 'frozen';
    if (mark === 'frozen') this.veil.context = markContextFor('frozen');
  }

  /** Show the piece as this colour, kind and state. */
  set(colour: AnyColour, kind: Kind, alive: boolean): void {
    const look = `${colour}${kind}${alive}`;
    if (look === this.look) return;
    this.look = look;
    this.body.context = contextFor(colour, kind, alive);
    this.letter.text = S.kindLetter(kind);
    if (alive) {
      this.letter.style = letterStyle(ARMY[colour].ink, 22);
      this.letter.position.set(0, 27);
      this.letter.alpha = 1;
    } else {
      this.letter.style = letterStyle(BOARD.corpseInk, 20);
      this.letter.position.set(0, 1);
      this.letter.alpha = 1;
    }
  }
}
