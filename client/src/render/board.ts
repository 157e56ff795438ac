/**
 * The Pixi board: 9×9 squares with the maze, pieces, highlights, coordinates, click-click and
 * drag with mouse or touch, and animations driven by the engine's effects. It holds no rule:
 * what to highlight and what a click means come from the controller.
 *
 * Rendering is on demand (no idle frames): a change schedules one frame; animations and drags
 * keep frames coming until they end.
 */
import 'pixi.js/events';
import { Application, Container, Graphics, Text, TextStyle, type FederatedPointerEvent } from 'pixi.js';
import { MAZE, type Colour, type Controller, type Effect, type PieceInfo, type SquareName } from '@djambi/shared';
import type { Highlights, Preview } from '../game/controller.js';
import { PointerGesture } from '../game/gesture.js';
import { cellOf, edgeLabels, fileRank, squareAt } from '../game/orientation.js';
import { controlMark, markColour, PieceSprite, UNIT, type ControlMark } from './pieces.js';
import { BOARD } from './theme.js';

/** What the board shows. */
export interface BoardScene {
  readonly pieces: readonly PieceInfo[];
  readonly preview: Preview;
  readonly highlights: Highlights;
  /** Squares of the last turn (from, to, placement, exit, victim). */
  readonly lastTurn: readonly SquareName[];
  /** Who plays each army (absent: its own colour); a captured or frozen army is marked. */
  readonly control?: Readonly<Partial<Record<Colour, Controller | null>>>;
}

/** A piece as the board draws it (for the test hook). */
export interface DrawnPiece {
  readonly id: number;
  readonly square: SquareName;
  readonly colour: Colour;
  readonly kind: string;
  readonly alive: boolean;
  /** The control mark: the controller's colour, `frozen`, `hostage`, or null. */
  readonly mark: ControlMark;
  /** The CSS colour of the mark's ring, or null. */
  readonly ringColour: string | null;
}

/** What the board reports. */
export interface BoardHandlers {
  /**
   * Called first on every press: finish a running animation (`finishAnimation`) and show the
   * position after it, so that the press acts on that position.
   */
  settle(): void;
  click(square: SquareName): void;
  drop(from: SquareName, to: SquareName): void;
  canDrag(square: SquareName): boolean;
}

/** Renderer settings (defaults: WebGL if available, antialiased). */
export interface BoardOptions {
  readonly renderer?: 'webgl' | 'webgpu' | 'canvas';
  readonly antialias?: boolean;
}

/** Frame work times (ms) measured while animating, for the benchmark. */
export interface FrameStats {
  readonly samples: readonly number[];
  readonly intervals: readonly number[];
}

const EMPTY_PREVIEW: Preview = { moved: new Map(), lifted: [], killed: [] };
const STEP_MS = 220;

interface Tween {
  sprite: PieceSprite;
  fromX: number;
  fromY: number;
  toX: number;
  toY: number;
  start: number;
  duration: number;
  onDone?: () => void;
  /** Halfway callback (a kill turns the piece into a corpse mid-way). */
  onHalf?: () => void;
  halfDone?: boolean;
  resolve: () => void;
}

/** True when WebGL is missing or runs on a software rasterizer. */
function softwareWebGL(): boolean {
  try {
    const canvas = document.createElement('canvas');
    const gl = (canvas.getContext('webgl2') ?? canvas.getContext('webgl')) as WebGLRenderingContext | null;
    if (!gl) return true;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return /swiftshader|llvmpipe|softpipe|software/i.test(name);
  } catch {
    return false;
  }
}

/** The board view. Create with `BoardView.create`. */
export class BoardView {
  private view: Colour = 'R';
  private size = 0;
  private cell = 0;
  private ox = 0;
  private oy = 0;
  private readonly squares = new Graphics();
  private readonly lastLayer = new Graphics();
  private readonly highlightLayer = new Graphics();
  private readonly coords = new Container();
  private readonly pieceLayer = new Container();
  private readonly optionLayer = new Graphics();
  /** The maze's frame and badge, over the pieces: the maze stays recognisable when occupied. */
  private readonly mazeLayer = new Graphics();
  private readonly sprites = new Map<number, PieceSprite>();
  private scene: BoardScene | null = null;
  private tweens: Tween[] = [];
  private animating = false;
  /** Counts animations, so that one finished early or taken over stops stepping. */
  private animationRun = 0;
  /** The scene a running animation ends on. */
  private finalScene: BoardScene | null = null;
  private raf = 0;
  /** When animations were held (`holdAnimations`), or null when they run. */
  private heldSince: number | null = null;
  private readonly gesture: PointerGesture;
  /** The sprite following the pointer in a drag. */
  private dragSprite: PieceSprite | null = null;
  private dragging = false;
  private readonly resizeObserver: ResizeObserver;
  private recording: { samples: number[]; intervals: number[]; last: number } | null = null;

  private constructor(
    private readonly app: Application,
    private readonly host: HTMLElement,
    handlers: BoardHandlers,
  ) {
    this.gesture = new PointerGesture({
      settle: () => {
        handlers.settle();
        this.finishAnimation();
      },
      canDrag: (sq) => handlers.canDrag(sq),
      selected: () => this.scene?.highlights.selected ?? null,
      click: (sq) => handlers.click(sq),
      drop: (from, to) => handlers.drop(from, to),
    });
    app.stage.addChild(this.squares, this.lastLayer, this.highlightLayer, this.coords, this.pieceLayer, this.mazeLayer, this.optionLayer);
    app.stage.eventMode = 'static';
    app.stage.hitArea = app.screen;
    app.stage.on('pointerdown', (e) => this.pointerDown(e));
    app.stage.on('globalpointermove', (e) => this.pointerMove(e));
    app.stage.on('pointerup', (e) => this.pointerUp(e));
    app.stage.on('pointerupoutside', (e) => this.pointerUp(e));
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(host);
    this.resize();
  }

  /** Create the view inside `host` (which sets its size). */
  static async create(host: HTMLElement, handlers: BoardHandlers, options: BoardOptions = {}): Promise<BoardView> {
    const app = new Application();
    await app.init({
      width: Math.max(1, host.clientWidth),
      height: Math.max(1, host.clientHeight),
      backgroundAlpha: 0,
      antialias: options.antialias ?? true,
      // Software WebGL (SwiftShader, llvmpipe) draws this board about six times slower than
      // Pixi's Canvas renderer: without a real GPU use Canvas, unless a renderer is asked for.
      preference: options.renderer ?? (softwareWebGL() ? 'canvas' : 'webgl'),
      autoDensity: true,
      resolution: Math.min(window.devicePixelRatio || 1, 2),
      autoStart: false,
      sharedTicker: false,
      // Pixi's public opt-out of its default browser extensions (accessibility, DOM containers,
      // filters, spritesheets): the board uses none of them. The one it does use, pointer
      // events, is imported at the top of this file. Saves the page ~11 KB gzip (NEVER_LOADED
      // in tests/tools/bundleSize.ts).
      skipExtensionImports: true,
    });
    app.ticker.stop();
    app.canvas.setAttribute('aria-hidden', 'true');
    app.canvas.style.touchAction = 'none';
    app.canvas.style.display = 'block';
    host.appendChild(app.canvas);
    return new BoardView(app, host, handlers);
  }

  /** The renderer in use (`webgl`, `webgpu` or `canvas`). */
  get rendererName(): string {
    return this.app.renderer.name;
  }

  /** Put this viewer's corner at the bottom. */
  setView(view: Colour): void {
    if (view === this.view) return;
    this.view = view;
    this.layout();
  }

  /** Show a scene at once (finishing any running animation). */
  render(scene: BoardScene): void {
    this.finishTweens();
    this.scene = scene;
    this.drawHighlights();
    this.placePieces();
    this.requestFrame();
  }

  /**
   * Animate a turn: start from `before`, play the effects in order, end on `scene`.
   * Resolves when the animation is over (or was finished early by `finishAnimation`).
   */
  async animate(before: readonly PieceInfo[], effects: readonly Effect[], scene: BoardScene): Promise<void> {
    this.finishTweens();
    const run = ++this.animationRun;
    this.finalScene = scene;
    this.scene = { ...scene, pieces: before, preview: EMPTY_PREVIEW, highlights: { selected: null, chosen: [], options: [], optionKind: null } };
    this.drawHighlights();
    this.placePieces();
    this.animating = true;
    const over = (): boolean => !this.animating || this.animationRun !== run;
    const byId = new Map(before.map((p) => [p.id, p]));
    for (const e of effects) {
      if (over()) return;
      if (e.type === 'move' || e.type === 'exit' || e.type === 'displace' || e.type === 'place') {
        await this.tweenPiece(e.piece, e.to, STEP_MS);
      } else if (e.type === 'kill') {
        const p = byId.get(e.piece);
        const sprite = this.sprites.get(e.piece);
        if (p && sprite)
          await this.fade(sprite, () => {
            sprite.set(p.colour, p.kind, false);
            sprite.setMark(null);
          });
      }
    }
    if (over()) return;
    this.finalScene = null;
    this.render(scene);
  }

  /**
   * Skip a running animation to its end at once: the pieces stand where the turn left them
   * before this returns. True if an animation was running.
   */
  finishAnimation(): boolean {
    const scene = this.finalScene;
    if (!this.animating || !scene) return false;
    this.finalScene = null;
    this.render(scene);
    return true;
  }

  /** Centre of a square in page (CSS) pixels, for tests and tools. */
  squareCenter(square: SquareName): { x: number; y: number } | null {
    const c = cellOf(square, this.view);
    if (!c) return null;
    const rect = this.app.canvas.getBoundingClientRect();
    return { x: rect.left + this.ox + (c.col + 0.5) * this.cell, y: rect.top + this.oy + (c.row + 0.5) * this.cell };
  }

  /** The pieces as drawn now, with their control marks (for the test hook). */
  drawnPieces(): DrawnPiece[] {
    const scene = this.scene;
    if (!scene) return [];
    return scene.pieces.map((p) => {
      const mark = this.sprites.get(p.id)?.mark ?? null;
      return { id: p.id, square: p.square, colour: p.colour, kind: p.kind, alive: p.alive, mark, ringColour: markColour(mark) };
    });
  }

  /**
   * Hold animations where they stand (the e2e tests' hook): a turn's animation still starts, but
   * does not move on until released, so that a test acts on it in flight without racing it.
   * Released, each goes on from where it stood. Input still finishes a held animation at once.
   */
  holdAnimations(on: boolean): void {
    const now = performance.now();
    if (on) {
      this.heldSince ??= now;
      return;
    }
    const since = this.heldSince;
    if (since === null) return;
    for (const t of this.tweens) t.start += now - Math.max(since, t.start);
    this.heldSince = null;
    this.requestFrame();
  }

  /** Start or stop recording frame times. */
  recordFrames(on: boolean): FrameStats {
    const out = this.recording ?? { samples: [], intervals: [], last: 0 };
    this.recording = on ? { samples: [], intervals: [], last: 0 } : null;
    return { samples: out.samples, intervals: out.intervals };
  }

  /** Free the canvas and the GPU resources. */
  destroy(): void {
    cancelAnimationFrame(this.raf);
    this.resizeObserver.disconnect();
    this.app.destroy(true, { children: true });
  }

  // ------------------------------------------------------------------------------------------
  // Layout

  private resize(): void {
    const w = Math.max(1, Math.floor(this.host.clientWidth));
    const h = Math.max(1, Math.floor(this.host.clientHeight));
    this.app.renderer.resize(w, h);
    this.app.stage.hitArea = this.app.screen;
    this.layout();
  }

  private layout(): void {
    const w = this.app.screen.width;
    const h = this.app.screen.height;
    this.size = Math.min(w, h);
    this.cell = Math.floor(this.size / 9);
    this.ox = Math.floor((w - this.cell * 9) / 2);
    this.oy = Math.floor((h - this.cell * 9) / 2);
    this.drawSquares();
    this.drawCoords();
    this.drawHighlights();
    this.placePieces();
    this.requestFrame();
  }

  private cellRect(square: SquareName): { x: number; y: number; s: number } {
    const c = cellOf(square, this.view)!;
    return { x: this.ox + c.col * this.cell, y: this.oy + c.row * this.cell, s: this.cell };
  }

  private drawSquares(): void {
    const g = this.squares.clear();
    const s = this.cell;
    g.rect(this.ox - 2, this.oy - 2, s * 9 + 4, s * 9 + 4).fill(0x5a4630);
    for (let row = 0; row < 9; row++) {
      for (let col = 0; col < 9; col++) {
        const fr = fileRank(squareAt({ col, row }, this.view)!)!;
        // a1 is dark, as on a chessboard.
        const dark = (fr.file + fr.rank) % 2 === 1;
        g.rect(this.ox + col * s, this.oy + row * s, s, s).fill(dark ? BOARD.dark : BOARD.light);
      }
    }
    // The maze: a dark square with a square spiral.
    const m = this.cellRect(MAZE);
    g.rect(m.x, m.y, s, s).fill(BOARD.maze);
    const cx = m.x + s / 2;
    const cy = m.y + s / 2;
    const step = s / 12;
    const pts: number[] = [cx, cy];
    let len = 1;
    let dir = 0;
    let x = cx;
    let y = cy;
    const dirs = [
      [1, 0],
      [0, 1],
      [-1, 0],
      [0, -1],
    ];
    for (let i = 0; i < 9; i++) {
      x += dirs[dir][0] * len * step;
      y += dirs[dir][1] * len * step;
      pts.push(x, y);
      dir = (dir + 1) % 4;
      if (i % 2 === 1) len++;
    }
    g.poly(pts, false).stroke({ width: Math.max(1.5, s / 26), color: BOARD.mazeLine, alpha: 0.9 });
    g.rect(m.x + 1, m.y + 1, s - 2, s - 2).stroke({ width: Math.max(1, s / 30), color: BOARD.mazeLine });
    // Over the pieces: a double frame and a small diamond in each corner.
    const z = this.mazeLayer.clear();
    const w = Math.max(2, s / 18);
    z.rect(m.x + w / 2, m.y + w / 2, s - w, s - w).stroke({ width: w, color: BOARD.maze, alpha: 0.9 });
    z.rect(m.x + w * 1.5, m.y + w * 1.5, s - w * 3, s - w * 3).stroke({ width: Math.max(1, w / 2), color: BOARD.mazeLine });
    const k = s * 0.09;
    for (const [cx2, cy2] of [
      [m.x + k * 1.3, m.y + k * 1.3],
      [m.x + s - k * 1.3, m.y + k * 1.3],
      [m.x + k * 1.3, m.y + s - k * 1.3],
      [m.x + s - k * 1.3, m.y + s - k * 1.3],
    ]) {
      z.poly([cx2, cy2 - k, cx2 + k, cy2, cx2, cy2 + k, cx2 - k, cy2])
        .fill(BOARD.mazeLine)
        .stroke({ width: 1, color: BOARD.maze });
    }
  }

  private drawCoords(): void {
    for (const child of this.coords.removeChildren()) child.destroy();
    const labels = edgeLabels(this.view);
    const size = Math.max(9, Math.round(this.cell * 0.2));
    const style = new TextStyle({ fontFamily: 'system-ui, sans-serif', fontSize: size, fontWeight: '700', fill: BOARD.coord });
    const styleDark = new TextStyle({ fontFamily: 'system-ui, sans-serif', fontSize: size, fontWeight: '700', fill: BOARD.coordOnDark });
    const pad = Math.max(2, this.cell * 0.05);
    for (let i = 0; i < 9; i++) {
      const bsq = squareAt({ col: i, row: 8 }, this.view)!;
      const b = new Text({ text: labels.bottom[i], style: bsq === MAZE ? styleDark : style, resolution: 2 });
      b.anchor.set(1, 1);
      b.position.set(this.ox + (i + 1) * this.cell - pad, this.oy + 9 * this.cell - pad * 0.5);
      const lsq = squareAt({ col: 0, row: i }, this.view)!;
      const l = new Text({ text: labels.left[i], style: lsq === MAZE ? styleDark : style, resolution: 2 });
      l.anchor.set(0, 0);
      l.position.set(this.ox + pad, this.oy + i * this.cell + pad * 0.5);
      this.coords.addChild(b, l);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Highlights and pieces

  private drawHighlights(): void {
    const last = this.lastLayer.clear();
    const hl = this.highlightLayer.clear();
    const opt = this.optionLayer.clear();
    const scene = this.scene;
    if (!scene || this.cell === 0) return;
    const s = this.cell;
    for (const sq of scene.lastTurn) {
      const r = this.cellRect(sq);
      last.rect(r.x, r.y, s, s).fill({ color: BOARD.lastTurn, alpha: 0.42 });
    }
    const h = scene.highlights;
    if (h.selected) {
      const r = this.cellRect(h.selected);
      hl.rect(r.x, r.y, s, s).fill({ color: BOARD.selected, alpha: 0.5 });
    }
    for (const sq of h.chosen) {
      const r = this.cellRect(sq);
      hl.rect(r.x, r.y, s, s).fill({ color: BOARD.chosen, alpha: 0.45 });
    }
    if (h.optionKind === 'piece') return; // movable pieces are not marked (as on lichess)
    const occupied = new Set(scene.pieces.map((p) => p.square));
    const colour = h.optionKind === 'reporter' ? BOARD.capture : h.optionKind === 'destination' ? BOARD.option : BOARD.chosen;
    for (const sq of h.options) {
      const r = this.cellRect(sq);
      const cx = r.x + s / 2;
      const cy = r.y + s / 2;
      if (occupied.has(sq) && h.optionKind !== 'placement' && h.optionKind !== 'exit') {
        // A target: corner brackets around the piece.
        const k = s * 0.28;
        const w = Math.max(2, s * 0.07);
        const c = h.optionKind === 'destination' ? BOARD.capture : colour;
        opt
          .poly([r.x, r.y, r.x + k, r.y, r.x, r.y + k])
          .fill({ color: c, alpha: 0.85 })
          .poly([r.x + s, r.y, r.x + s - k, r.y, r.x + s, r.y + k])
          .fill({ color: c, alpha: 0.85 })
          .poly([r.x, r.y + s, r.x + k, r.y + s, r.x, r.y + s - k])
          .fill({ color: c, alpha: 0.85 })
          .poly([r.x + s, r.y + s, r.x + s - k, r.y + s, r.x + s, r.y + s - k])
          .fill({ color: c, alpha: 0.85 });
        opt.rect(r.x + w / 2, r.y + w / 2, s - w, s - w).stroke({ width: w, color: c, alpha: 0.6 });
      } else if (h.optionKind === 'placement' || h.optionKind === 'exit') {
        opt.rect(r.x + s * 0.3, r.y + s * 0.3, s * 0.4, s * 0.4).fill({ color: colour, alpha: 0.65 });
      } else {
        opt.circle(cx, cy, s * 0.15).fill({ color: colour, alpha: 0.6 });
      }
    }
  }

  private placePieces(): void {
    const scene = this.scene;
    if (!scene || this.cell === 0) return;
    const seen = new Set<number>();
    const scale = (this.cell / UNIT) * 0.92;
    const killed = new Set(scene.preview.killed);
    const lifted = new Set(scene.preview.lifted);
    for (const p of scene.pieces) {
      seen.add(p.id);
      let sprite = this.sprites.get(p.id);
      const alive = p.alive && !killed.has(p.square);
      if (!sprite) {
        sprite = new PieceSprite(p.colour, p.kind, alive);
        this.sprites.set(p.id, sprite);
        this.pieceLayer.addChild(sprite);
      } else sprite.set(p.colour, p.kind, alive);
      sprite.setMark(alive ? controlMark(p.colour, scene.control?.[p.colour]) : null);
      const sq = scene.preview.moved.get(p.square) ?? p.square;
      const r = this.cellRect(sq);
      if (lifted.has(p.square)) {
        // Waiting to be placed: small and faint in the corner of its square.
        sprite.scale.set(scale * 0.5);
        sprite.alpha = 0.75;
        sprite.position.set(r.x + this.cell * 0.78, r.y + this.cell * 0.22);
        sprite.zIndex = 3;
      } else {
        sprite.scale.set(scale);
        sprite.alpha = 1;
        sprite.position.set(r.x + this.cell / 2, r.y + this.cell / 2);
        sprite.zIndex = alive ? 1 : 0;
      }
    }
    for (const [id, sprite] of this.sprites) {
      if (!seen.has(id)) {
        sprite.destroy({ children: true });
        this.sprites.delete(id);
      }
    }
    this.pieceLayer.sortableChildren = true;
  }

  // ------------------------------------------------------------------------------------------
  // Pointer input: click-click and drag, mouse and touch alike

  private squareOf(e: FederatedPointerEvent): SquareName | null {
    if (this.cell === 0) return null;
    const col = Math.floor((e.global.x - this.ox) / this.cell);
    const row = Math.floor((e.global.y - this.oy) / this.cell);
    return squareAt({ col, row }, this.view);
  }

  private pointerDown(e: FederatedPointerEvent): void {
    // The gesture settles the board first: a running animation ends, the scene is the
    // position after it, and the press is decided on that position.
    this.gesture.down(this.squareOf(e), e.global.x, e.global.y);
    const from = this.gesture.pressed;
    const piece = from ? this.scene?.pieces.find((p) => p.square === from && p.alive) : undefined;
    this.dragSprite = piece ? (this.sprites.get(piece.id) ?? null) : null;
    this.dragging = false;
  }

  private pointerMove(e: FederatedPointerEvent): void {
    if (!this.gesture.move(e.global.x, e.global.y)) return;
    this.dragging = true;
    const sprite = this.dragSprite;
    if (!sprite) return;
    sprite.zIndex = 10;
    sprite.position.set(e.global.x, e.global.y);
    this.requestFrame();
  }

  private pointerUp(e: FederatedPointerEvent): void {
    const end = this.gesture.up(this.squareOf(e));
    this.dragSprite = null;
    this.dragging = false;
    if (end === 'returned') this.placePieces();
    if (end === 'returned' || end === 'dropped') this.requestFrame();
  }

  // ------------------------------------------------------------------------------------------
  // Animation and frames

  private tweenPiece(id: number, to: SquareName, duration: number): Promise<void> {
    const sprite = this.sprites.get(id);
    if (!sprite) return Promise.resolve();
    const r = this.cellRect(to);
    return new Promise((resolve) => {
      sprite.zIndex = 5;
      this.tweens.push({
        sprite,
        fromX: sprite.x,
        fromY: sprite.y,
        toX: r.x + this.cell / 2,
        toY: r.y + this.cell / 2,
        start: performance.now(),
        duration,
        onDone: () => (sprite.zIndex = 1),
        resolve,
      });
      this.requestFrame();
    });
  }

  private fade(sprite: PieceSprite, onHalf: () => void): Promise<void> {
    return new Promise((resolve) => {
      this.tweens.push({
        sprite,
        fromX: sprite.x,
        fromY: sprite.y,
        toX: sprite.x,
        toY: sprite.y,
        start: performance.now(),
        duration: STEP_MS * 0.8,
        onHalf,
        resolve,
      });
      this.requestFrame();
    });
  }

  private finishTweens(): void {
    this.animating = false;
    const tweens = this.tweens;
    this.tweens = [];
    for (const t of tweens) {
      if (t.onHalf && !t.halfDone) t.onHalf();
      t.sprite.alpha = 1;
      t.onDone?.();
      t.resolve();
    }
  }

  private requestFrame(): void {
    if (this.raf === 0) this.raf = requestAnimationFrame((now) => this.frame(now));
  }

  private frame(now: number): void {
    this.raf = 0;
    const t0 = performance.now();
    const at = this.heldSince ?? t0;
    const done: Tween[] = [];
    for (const t of this.tweens) {
      const k = Math.min(1, Math.max(0, (at - t.start) / t.duration));
      const ease = 1 - (1 - k) * (1 - k) * (1 - k);
      t.sprite.position.set(t.fromX + (t.toX - t.fromX) * ease, t.fromY + (t.toY - t.fromY) * ease);
      if (t.onHalf) {
        t.sprite.alpha = k < 0.5 ? 1 - k : k;
        if (k >= 0.5 && !t.halfDone) {
          t.halfDone = true;
          t.onHalf();
        }
      }
      if (k >= 1) done.push(t);
    }
    if (done.length) {
      this.tweens = this.tweens.filter((t) => !done.includes(t));
      for (const t of done) {
        t.sprite.alpha = 1;
        t.onDone?.();
        t.resolve();
      }
    }
    this.app.render();
    const rec = this.recording;
    if (rec && this.tweens.length > 0) {
      rec.samples.push(performance.now() - t0);
      if (rec.last) rec.intervals.push(now - rec.last);
      rec.last = now;
    }
    if ((this.tweens.length > 0 && this.heldSince === null) || this.dragging) this.requestFrame();
  }
}
