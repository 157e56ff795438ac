/**
 * Piece artwork: a disc in the army colour with a drawn symbol per kind and the kind's letter.
 * Corpses are grey, face down, crossed out. Drawn once per (colour, kind, alive) in a 100×100
 * unit square centred on (0, 0) and shared by every piece that looks the same.
 */
import { Container, GraphicsContext, Graphics, Text, TextStyle } from 'pixi.js';
import type { AnyColour, Controller, Kind } from '@djambi/shared';
import { S } from '../i18n/strings.js';
import { ARMY, BOARD } from './theme.js';

/** Size of the unit square the art is drawn in. */
export const UNIT = 100;

const contexts = new Map<string, GraphicsContext>();

/** Symbol of a kind, drawn in `ink` around (0, -6), about 48 units wide. */
function drawSymbol(g: GraphicsContext, kind: Kind, ink: number, line: number): void {
  const stroke = { width: 3, color: line, alignment: 0.5 } as const;
  switch (kind) {
    case 'chief': // a crown
      g.poly([-22, 4, -24, -22, -11, -8, 0, -26, 11, -8, 24, -22, 22, 4]).fill(ink).stroke(stroke);
      g.rect(-22, 7, 44, 7).fill(ink).stroke(stroke);
      break;
    case 'assassin': // a dagger, point up
      g.poly([0, -30, 6, -18, 6, 4, -6, 4, -6, -18]).fill(ink).stroke(stroke);
      g.rect(-16, 4, 32, 6).fill(ink).stroke(stroke);
      g.rect(-4, 10, 8, 10).fill(ink).stroke(stroke);
      break;
    case 'reporter': // a megaphone
      g.poly([-20, -10, 6, -24, 6, 12, -20, 2]).fill(ink).stroke(stroke);
      g.rect(-26, -10, 7, 12).fill(ink).stroke(stroke);
      g.poly([-14, 2, -8, 2, -4, 16, -10, 16]).fill(ink).stroke(stroke);
      g.moveTo(12, -14).lineTo(20, -19).moveTo(12, -6).lineTo(22, -6).moveTo(12, 2).lineTo(20, 7).stroke({ width: 4, color: ink });
      break;
    case 'diplomat': // a top hat
      g.rect(-14, -26, 28, 28).fill(ink).stroke(stroke);
      g.rect(-14, -4, 28, 5).fill(line);
      g.roundRect(-25, 2, 50, 8, 4).fill(ink).stroke(stroke);
      break;
    case 'necromobile': // a coffin
      g.poly([-8, -28, 8, -28, 16, -16, 10, 18, -10, 18, -16, -16]).fill(ink).stroke(stroke);
      g.moveTo(0, -20).lineTo(0, 4).moveTo(-7, -12).lineTo(7, -12).stroke({ width: 4, color: line });
      break;
    case 'militant': // a shield
      g.poly([-18, -24, 18, -24, 18, -4, 0, 16, -18, -4]).fill(ink).stroke(stroke);
      g.moveTo(0, -24).lineTo(0, 14).stroke({ width: 3, color: line });
      break;
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
