/**
 * The Pixi board: any board's cells (the square board's 9×9, the hex boards' hexagons) laid
 * out for the viewer by `game/orientation.ts`, with the maze, the fortress, pieces, highlights,
 * coordinates, click-click and drag with mouse or touch, and animations driven by the engine's
 * effects. It holds no rule: what to highlight and what a click means come from the controller.
 *
 * Rendering is on demand (no idle frames): a change schedules one frame; animations and drags
 * keep frames coming until they end.
 */
import 'pixi.js/events';
import { Application, Container, Graphics, Text, TextStyle, type FederatedPointerEvent } from 'pixi.js';
import type { AnyColour, Colour, Controller, Effect, GeometryName, PieceInfo, SquareName } from '@djambi/shared';
import type { Highlights, Preview } from '../game/controller.js';
import { PointerGesture } from '../game/gesture.js';
import { type BoardLayout, boardLayout, cellIndexOf, nameAtPoint } from '../game/orientation.js';
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

/** The board's cell shades, by `BoardLayout.shades`. */
const SHADES = [BOARD.light, BOARD.dark, BOARD.mid];

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
  private view: AnyColour = 'R';
  private geometry: GeometryName = 'square';
  private board: BoardLayout = boardLayout('square', 'R');
  /** Pixels per board unit, a cell's size in pixels, the board's top-left corner. */
  private unit = 0;
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
  /** The keyboard focus ring (the board's keyboard grid), over everything. */
  private readonly focusLayer = new Graphics();
  private focused: SquareName | null = null;
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
    app.stage.addChild(this.squares, this.lastLayer, this.highlightLayer, this.coords, this.pieceLayer, this.mazeLayer, this.optionLayer, this.focusLayer);
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
  setView(view: AnyColour): void {
    if (view === this.view) return;
    this.view = view;
    this.layout();
  }

  /** Draw this board (a position's `geometry`); the square board until told. */
  setGeometry(geometry: GeometryName): void {
    if (geometry === this.geometry) return;
    this.geometry = geometry;
    this.layout();
  }

  /** Ring the cell holding the keyboard focus (null: none). */
  setFocus(square: SquareName | null): void {
    if (square === this.focused) return;
    this.focused = square;
    this.drawFocus();
    this.requestFrame();
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
    const c = cellIndexOf(this.board, square);
    if (c < 0) return null;
    const rect = this.app.canvas.getBoundingClientRect();
    const [x, y] = this.centre(c);
    return { x: rect.left + x, y: rect.top + y };
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
    const board = (this.board = boardLayout(this.geometry, this.view));
    this.cell = Math.floor(Math.min(w / board.width, h / board.height) * board.cellSize);
    this.unit = this.cell / board.cellSize;
    this.ox = Math.floor((w - this.unit * board.width) / 2);
    this.oy = Math.floor((h - this.unit * board.height) / 2);
    this.drawSquares();
    this.drawCoords();
    this.drawHighlights();
    this.drawFocus();
    this.placePieces();
    this.requestFrame();
  }

  /** The focus ring: the page's accent inside a dark line, readable on every cell and piece. */
  private drawFocus(): void {
    const g = this.focusLayer.clear();
    const c = this.focused ? cellIndexOf(this.board, this.focused) : -1;
    if (c < 0 || this.cell === 0) return;
    const w = Math.max(3, this.cell / 12);
    g.poly(this.poly(c, w / 2)).stroke({ width: w, color: BOARD.focus });
    g.poly(this.poly(c, w + 1)).stroke({ width: 2, color: BOARD.background });
  }

  /** A cell's centre in pixels. */
  private centre(cell: number): [number, number] {
    const [x, y] = this.board.centres[cell];
    return [this.ox + x * this.unit, this.oy + y * this.unit];
  }

  /** A cell's outline in pixels, shrunk `inset` pixels towards its centre. */
  private poly(cell: number, inset = 0): number[] {
    const [cx, cy] = this.centre(cell);
    const k = 1 - (2 * inset) / this.cell;
    return this.board.polygons[cell].map((v, i) => {
      const c = i % 2 === 0 ? cx : cy;
      return c + ((i % 2 === 0 ? this.ox : this.oy) + v * this.unit - c) * k;
    });
  }

  private drawSquares(): void {
    const g = this.squares.clear();
    const board = this.board;
    const s = this.cell;
    // The frame: every cell's outline widened, under the cells.
    for (const c of board.centres.keys()) g.poly(this.poly(c)).stroke({ width: 4, color: BOARD.frame, join: 'miter' });
    for (const c of board.centres.keys()) g.poly(this.poly(c)).fill(board.geometry.inFortress[c] ? BOARD.fortress : SHADES[board.shades[c]]);
    // The fortress (the large hex board): its cells in stone, each framed in the maze's gold.
    const lw = Math.max(1, s / 30);
    for (const c of board.geometry.fortress) g.poly(this.poly(c, lw * 1.5)).stroke({ width: lw, color: BOARD.mazeLine, alpha: 0.8 });
    // The maze: a dark cell with a spiral along its sides' directions.
    const m = board.geometry.maze;
    const outline = this.poly(m);
    const n = outline.length / 2;
    g.poly(outline).fill(BOARD.maze);
    let [x, y] = this.centre(m);
    const pts: number[] = [x, y];
    const step = s / 12;
    for (let i = 0; i < n + 5; i++) {
      const j = (2 * i) % outline.length;
      const dx = outline[(j + 2) % outline.length] - outline[j];
      const dy = outline[(j + 3) % outline.length] - outline[j + 1];
      const len = (Math.floor(i / (n / 2)) + 1) * step;
      const d = Math.hypot(dx, dy);
      x += (dx / d) * len;
      y += (dy / d) * len;
      pts.push(x, y);
    }
    g.poly(pts, false).stroke({ width: Math.max(1.5, s / 26), color: BOARD.mazeLine, alpha: 0.9 });
    g.poly(this.poly(m, 1)).stroke({ width: lw, color: BOARD.mazeLine });
    // Over the pieces: a double frame and a small diamond in each corner.
    const z = this.mazeLayer.clear();
    const w = Math.max(2, s / 18);
    z.poly(this.poly(m, w / 2)).stroke({ width: w, color: BOARD.maze, alpha: 0.9 });
    z.poly(this.poly(m, w * 1.5)).stroke({ width: Math.max(1, w / 2), color: BOARD.mazeLine });
    const k = s * 0.09;
    const [mx, my] = this.centre(m);
    for (let i = 0; i < outline.length; i += 2) {
      const vx = outline[i] - mx;
      const vy = outline[i + 1] - my;
      const t = 1 - (1.3 * k * Math.SQRT2) / Math.hypot(vx, vy);
      const cx = mx + vx * t;
      const cy = my + vy * t;
      z.poly([cx, cy - k, cx + k, cy, cx, cy + k, cx - k, cy])
        .fill(BOARD.mazeLine)
        .stroke({ width: 1, color: BOARD.maze });
    }
  }

  private drawCoords(): void {
    for (const child of this.coords.removeChildren()) child.destroy();
    const board = this.board;
    const { alpha, size, minPixels, weight } = board.labelStyle;
    const font = { fontFamily: 'system-ui, sans-serif', fontSize: Math.max(minPixels, Math.round(this.cell * size)), fontWeight: weight };
    const style = new TextStyle({ ...font, fill: BOARD.coord });
    const styleDark = new TextStyle({ ...font, fill: BOARD.coordOnDark });
    this.coords.alpha = alpha;
    for (const l of board.labels) {
      const t = new Text({ text: l.text, style: l.cell === board.geometry.maze ? styleDark : style, resolution: 2 });
      t.anchor.set(l.anchorX, l.anchorY);
      t.position.set(this.ox + l.x * this.unit, this.oy + l.y * this.unit);
      this.coords.addChild(t);
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
    const at = (sq: string): number => cellIndexOf(this.board, sq);
    for (const sq of scene.lastTurn) if (at(sq) >= 0) last.poly(this.poly(at(sq))).fill({ color: BOARD.lastTurn, alpha: 0.42 });
    const h = scene.highlights;
    if (h.selected && at(h.selected) >= 0) hl.poly(this.poly(at(h.selected))).fill({ color: BOARD.selected, alpha: 0.5 });
    for (const sq of h.chosen) if (at(sq) >= 0) hl.poly(this.poly(at(sq))).fill({ color: BOARD.chosen, alpha: 0.45 });
    if (h.optionKind === 'piece') return; // movable pieces are not marked (as on lichess)
    const occupied = new Set(scene.pieces.map((p) => p.square));
    const colour = h.optionKind === 'reporter' ? BOARD.capture : h.optionKind === 'destination' ? BOARD.option : BOARD.chosen;
    for (const sq of h.options) {
      const c = at(sq);
      if (c < 0) continue;
      const [cx, cy] = this.centre(c);
      if (occupied.has(sq) && h.optionKind !== 'placement' && h.optionKind !== 'exit') {
        // A target: a bracket in each corner of the cell, and its outline.
        const w = Math.max(2, s * 0.07);
        const tint = { color: h.optionKind === 'destination' ? BOARD.capture : colour, alpha: 0.85 };
        const p = this.poly(c);
        const k = 0.28 * Math.hypot(p[2] - p[0], p[3] - p[1]);
        for (let i = 0; i < p.length; i += 2) {
          const next = (i + 2) % p.length;
          const prev = (i + p.length - 2) % p.length;
          const toward = (j: number): number[] => {
            const d = Math.hypot(p[j] - p[i], p[j + 1] - p[i + 1]);
            return [p[i] + ((p[j] - p[i]) * k) / d, p[i + 1] + ((p[j + 1] - p[i + 1]) * k) / d];
          };
          opt.poly([p[i], p[i + 1], ...toward(next), ...toward(prev)]).fill(tint);
        }
        opt.poly(this.poly(c, w / 2)).stroke({ width: w, color: tint.color, alpha: 0.6 });
      } else if (h.optionKind === 'placement' || h.optionKind === 'exit') {
        opt.poly(this.poly(c, s * 0.3)).fill({ color: colour, alpha: 0.65 });
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
      const [x, y] = this.centre(Math.max(0, cellIndexOf(this.board, scene.preview.moved.get(p.square) ?? p.square)));
      if (lifted.has(p.square)) {
        // Waiting to be placed: small and faint in the corner of its square.
        sprite.scale.set(scale * 0.5);
        sprite.alpha = 0.75;
        sprite.position.set(x + this.cell * 0.28, y - this.cell * 0.28);
        sprite.zIndex = 3;
      } else {
        sprite.scale.set(scale);
        sprite.alpha = 1;
        sprite.position.set(x, y);
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
    // Hex cell names pass through `SquareName` until the engine's outputs are typed with `CellName`.
    return nameAtPoint(this.board, (e.global.x - this.ox) / this.unit, (e.global.y - this.oy) / this.unit) as SquareName | null;
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
    const c = cellIndexOf(this.board, to);
    if (c < 0) return Promise.resolve();
    const [toX, toY] = this.centre(c);
    return new Promise((resolve) => {
      sprite.zIndex = 5;
      this.tweens.push({
        sprite,
        fromX: sprite.x,
        fromY: sprite.y,
        toX,
        toY,
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
