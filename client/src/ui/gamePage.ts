/**
 * The game page `/g/CODE`: joins the room (reclaiming a stored seat without questions), shows
 * the seats and the invite before the start, then the board, the status, the move list and the
 * actions. Wires the connection (truth), the controller (what the viewer may do) and the board.
 */
import {
  COLOURS,
  pactBreaches,
  parseFen,
  parseTurn,
  pieces as piecesOf,
  type Colour,
  type Effect,
  type PieceInfo,
  type Position,
  type Square,
  type Turn,
} from '@djambi/shared';
import { AnimationGate } from '../game/animationGate.js';
import { GameController, type ControllerView } from '../game/controller.js';
import { PressModel } from '../game/press.js';
import { lastTurnSquares, type GameSnapshot } from '../game/snapshot.js';
import { Timeline } from '../game/timeline.js';
import { S } from '../i18n/strings.js';
import { GameConnection, type LinkState } from '../net/connection.js';
import { saveSeat, type StoredSeat } from '../net/seatStore.js';
import { BoardView, type BoardScene } from '../render/board.js';
import { BoardAccess } from './boardAccess.js';
import { h, link, replace, setText } from './dom.js';
import { moveText, renderMoves, renderSeats, renderStatus } from './panels.js';
import { PressPanel } from './pressPanel.js';
import { qrSvg } from './qr.js';
import { TurnSignal } from './signal.js';

/** Test and benchmark hook on `window.djambi`. */
export interface DjambiDebug {
  ready: boolean;
  /** `performance.now()` when the board first showed the room's position. */
  readyAt: number | null;
  /** `performance.now()` when the board first accepted a move from this viewer. */
  interactiveAt: number | null;
  squareCenter(square: Square): { x: number; y: number } | null;
  state(): {
    fen: string;
    seat: Colour | null;
    view: Colour;
    phase: string;
    moves: number;
    renderer: string;
    toMove: string;
    prompt: string;
    interactive: boolean;
    selected: Square | null;
  };
  /** The negotiation as this page holds it (tabs, unread counts, …). */
  press(): ReturnType<PressModel['summary']>;
  recordFrames(on: boolean): { samples: readonly number[]; intervals: readonly number[] };
  animating(): boolean;
}

declare global {
  interface Window {
    djambi?: DjambiDebug;
  }
}

const pref = {
  get: (k: string, d: boolean): boolean => {
    try {
      const v = localStorage.getItem(`djambi:${k}`);
      return v === null ? d : v === '1';
    } catch {
      return d;
    }
  },
  set: (k: string, v: boolean): void => {
    try {
      localStorage.setItem(`djambi:${k}`, v ? '1' : '0');
    } catch {
      /* ignore */
    }
  },
};

function savedName(): string {
  try {
    return localStorage.getItem('djambi:name') ?? '';
  } catch {
    return '';
  }
}

/** Render the game page; returns its cleanup. */
export function renderGame(root: HTMLElement, code: string): () => void {
  const page = new GamePage(root, code);
  return () => page.dispose();
}

class GamePage {
  private snap: GameSnapshot | null = null;
  private seat: StoredSeat | null = null;
  private livePos: Position | null = null;
  private liveFen = '';
  private readonly timeline = new Timeline();
  private viewIndex: number | null = null;
  private chosenView: Colour | null = null;
  private board: BoardView | null = null;
  private shownPieces: readonly PieceInfo[] = [];
  /** The turn animating on the board; any input finishes it first and redraws the board. */
  private readonly animation = new AnimationGate(() => this.refreshBoard());
  /** While a new state is taken in, the board waits (so the turn can be animated). */
  private holdBoard = false;
  private wasMyTurn = false;
  private sound = pref.get('sound', false);
  private message = '';
  private link: LinkState = { kind: 'connecting' };
  private hadDrop = false;
  private joinMode: 'spectator' | 'seated' | 'joining' = 'joining';
  private disposed = false;
  private readonly controller: GameController;
  private readonly conn: GameConnection;
  private readonly signal: TurnSignal;
  private readonly access: BoardAccess;
  private readonly ticker: ReturnType<typeof setInterval>;
  private readonly onKey = (e: KeyboardEvent): void => this.key(e);
  private readonly press: PressModel;
  private readonly pressPanel: PressPanel;
  /** Wide screens put the talk in its own column left of the board; otherwise it follows the seats. */
  private readonly wide = window.matchMedia(WIDE_LAYOUT);
  /** Phones: once the game is on, the talk goes right under the board. */
  private readonly narrow = window.matchMedia(NARROW_LAYOUT);
  private readonly onWide = (): void => this.placeTalk();
  private readonly boardCol = h('section', { class: 'board-col' });
  private readonly onVisibility = (): void => this.updateViewing();
  private feedVisible = false;
  private unreadShown = 0;
  private readonly feedObserver: IntersectionObserver | null;

  // DOM
  private readonly banner = h('div', { id: 'net-banner', class: 'banner', role: 'status', hidden: true });
  private readonly boardHost = h('div', { id: 'board', class: 'board' });
  private readonly prompt = h('p', { id: 'prompt', class: 'prompt', 'aria-live': 'polite' });
  private readonly buttons = {
    undo: h('button', { type: 'button', id: 'undo' }, S.controls.undo),
    cancel: h('button', { type: 'button', id: 'cancel' }, S.controls.cancel),
    noKill: h('button', { type: 'button', id: 'no-kill' }, S.controls.noKill),
    confirm: h('button', { type: 'button', id: 'confirm', class: 'primary' }, S.controls.confirm),
  };
  private readonly keyInput = h('input', {
    id: 'square-input',
    autocomplete: 'off',
    spellcheck: 'false',
    autocapitalize: 'none',
    placeholder: S.controls.keyboardPlaceholder,
    'aria-describedby': 'square-hint',
  });
  private readonly joinBox = h('section', { id: 'join', class: 'card', hidden: true });
  private readonly lobbyBox = h('section', { id: 'lobby', class: 'card', hidden: true });
  private readonly statusBox = h('section', { id: 'status', class: 'card', 'aria-label': S.status.title });
  private readonly seatsBox = h('section', { id: 'seats', class: 'card', 'aria-label': S.game.seatsTitle });
  private readonly movesList = h('div', { id: 'moves', class: 'moves-scroll' });
  private readonly actionsBox = h('section', { id: 'actions', class: 'card actions' });
  private readonly viewSelect = h(
    'select',
    { id: 'view-from', 'aria-label': S.game.viewAs, title: S.game.flipHint },
    ...COLOURS.map((c) => h('option', { value: c }, S.colour(c))),
  );
  private readonly live = h('p', { class: 'sr-only', 'aria-live': 'polite', id: 'announce' });
  private readonly talkCol = h('aside', { class: 'talk-col' });
  private readonly talkBadge = h('span', { class: 'badge', hidden: true });
  private readonly talkLink = h(
    'a',
    {
      href: '#talk',
      id: 'talk-link',
      class: 'talk-link',
      // Not a navigation (the router would reload the page): bring the talk into view.
      onclick: ((e: MouseEvent) => {
        e.preventDefault();
        this.pressPanel.element.scrollIntoView({ block: 'start', behavior: 'smooth' });
        (this.pressPanel.element.querySelector('[role="tab"][aria-selected="true"]') as HTMLElement | null)?.focus({ preventScroll: true });
      }) as EventListener,
    },
    S.press.headerLink,
    ' ',
    this.talkBadge,
  );

  constructor(
    private readonly root: HTMLElement,
    private readonly code: string,
  ) {
    this.signal = new TurnSignal(() => S.title.yourTurn(code));
    this.signal.setTitle(S.title.game(code));
    this.controller = new GameController({
      confirm: pref.get('confirm', false),
      onSubmit: (turn, version) => this.conn.sendTurn(turn, version),
      breaches: (pos, turn) => this.breaches(pos, turn),
    });
    this.access = new BoardAccess(this.animation.guard((sq: Square) => this.controller.click(sq)));
    consumeSeatLink(code);
    this.press = new PressModel((type, payload) => this.conn.send(type, payload));
    this.pressPanel = new PressPanel(this.press, { seatName: (c) => this.seatName(c) });
    this.press.subscribe(() => this.refreshTalkBadge());
    this.press.subscribe(() => this.controller.pactsChanged());
    this.conn = new GameConnection(code, {
      state: (s) => this.onState(s),
      seat: (seat) => this.onSeat(seat),
      rejected: (c, m, type, retry) => this.onRejected(c, m, type, retry),
      played: () => undefined,
      link: (l) => this.onLink(l),
      press: (type, payload) => this.press.receive(type, payload),
    });
    this.feedObserver =
      typeof IntersectionObserver === 'function'
        ? new IntersectionObserver(
            (entries) => {
              for (const e of entries) this.feedVisible = e.isIntersecting;
              this.updateViewing();
            },
            { threshold: 0.3 },
          )
        : null;
    this.controller.subscribe((v) => this.onControllerView(v));
    this.buildDom();
    this.ticker = setInterval(() => this.tick(), 1000);
    document.addEventListener('keydown', this.onKey);
    document.addEventListener('visibilitychange', this.onVisibility);
    this.wide.addEventListener('change', this.onWide);
    this.narrow.addEventListener('change', this.onWide);
    this.placeTalk();
    if (this.feedObserver) this.feedObserver.observe(this.pressPanel.feed);
    else this.feedVisible = true;
    this.updateViewing();
    this.installDebug();
    void this.createBoard();
    void this.start();
  }

  dispose(): void {
    this.disposed = true;
    clearInterval(this.ticker);
    document.removeEventListener('keydown', this.onKey);
    document.removeEventListener('visibilitychange', this.onVisibility);
    this.wide.removeEventListener('change', this.onWide);
    this.narrow.removeEventListener('change', this.onWide);
    this.feedObserver?.disconnect();
    this.pressPanel.dispose();
    this.conn.close();
    this.board?.destroy();
    this.signal.dispose();
    if (window.djambi) delete window.djambi;
  }

  // ------------------------------------------------------------------------------------------
  // Setup

  private buildDom(): void {
    const b = this.buttons;
    // Every input first finishes a running animation, and then acts on the position after it.
    const input = <A extends unknown[]>(handler: (...args: A) => unknown) => this.animation.guard((...args: A) => void handler(...args));
    b.undo.addEventListener(
      'click',
      input(() => this.controller.undo()),
    );
    b.cancel.addEventListener(
      'click',
      input(() => this.controller.cancel()),
    );
    b.noKill.addEventListener(
      'click',
      input(() => this.controller.noKill()),
    );
    b.confirm.addEventListener(
      'click',
      input(() => this.controller.confirm()),
    );
    const confirmBox = h('input', { type: 'checkbox', id: 'confirm-toggle', checked: pref.get('confirm', false) });
    confirmBox.addEventListener('change', () => {
      pref.set('confirm', confirmBox.checked);
      this.controller.setConfirm(confirmBox.checked);
    });
    const soundBox = h('input', { type: 'checkbox', id: 'sound-toggle', checked: this.sound });
    soundBox.addEventListener('change', () => {
      this.sound = soundBox.checked;
      pref.set('sound', soundBox.checked);
    });
    const keyForm = h(
      'form',
      { class: 'keyboard' },
      h('label', { for: 'square-input' }, S.controls.keyboardLabel),
      this.keyInput,
      h('small', { id: 'square-hint', class: 'sr-only' }, S.controls.keyboardHint),
    );
    keyForm.addEventListener(
      'submit',
      input((e: SubmitEvent) => {
        e.preventDefault();
        this.controller.input(this.keyInput.value);
        this.keyInput.value = '';
      }),
    );
    this.keyInput.addEventListener(
      'keydown',
      input((e: KeyboardEvent) => {
        if (e.key === 'Backspace' && this.keyInput.value === '') this.controller.undo();
        if (e.key === 'Escape') this.controller.cancel();
      }),
    );
    this.viewSelect.addEventListener(
      'change',
      input(() => {
        this.chosenView = this.viewSelect.value as Colour;
        this.refreshBoard();
      }),
    );
    const nav = h(
      'div',
      { class: 'move-nav', role: 'group', 'aria-label': S.moves.title },
      h('button', { type: 'button', id: 'nav-first', 'aria-label': S.controls.first, onclick: () => this.step('first') }, '«'),
      h('button', { type: 'button', id: 'nav-prev', 'aria-label': S.controls.prev, onclick: () => this.step('prev') }, '‹'),
      h('button', { type: 'button', id: 'nav-next', 'aria-label': S.controls.next, onclick: () => this.step('next') }, '›'),
      h('button', { type: 'button', id: 'nav-last', 'aria-label': S.controls.last, onclick: () => this.step('last') }, '»'),
    );
    replace(
      this.boardCol,
      h('div', { class: 'board-wrap' }, this.boardHost, this.access.element),
      h('div', { class: 'prompt-bar' }, this.prompt, h('div', { class: 'turn-buttons' }, b.noKill, b.undo, b.cancel, b.confirm)),
      h('div', { class: 'options-row' }, keyForm, h('label', {}, confirmBox, ' ', S.controls.confirmToggle), h('label', {}, soundBox, ' ', S.controls.sound)),
    );
    replace(
      this.root,
      h(
        'header',
        { class: 'top game-top' },
        link('/', S.appName, { class: 'brand' }),
        h('h1', {}, S.game.code(this.code)),
        h('nav', {}, h('label', { class: 'view-from' }, `${S.game.viewAs} `, this.viewSelect), this.talkLink, link('/rules', S.game.rulesLink)),
      ),
      this.banner,
      h(
        'main',
        { class: 'game' },
        this.talkCol,
        this.boardCol,
        h(
          'aside',
          { class: 'side' },
          this.joinBox,
          this.lobbyBox,
          this.statusBox,
          this.seatsBox,
          h(
            'section',
            { class: 'card moves-card', 'aria-label': S.moves.title },
            h('div', { class: 'row spread' }, h('h2', {}, S.moves.title), nav),
            this.movesList,
            h(
              'p',
              { class: 'muted record-link' },
              h('a', { id: 'record-link', href: `/api/rooms/${this.code}/record`, target: '_blank', rel: 'noopener' }, S.moves.record),
            ),
          ),
          this.actionsBox,
        ),
      ),
      this.live,
    );
    this.refreshControls(this.controller.view);
  }

  private async createBoard(): Promise<void> {
    // `?renderer=canvas` and `?aa=0` help on machines with a weak or missing GPU.
    const q = new URLSearchParams(location.search);
    const renderer = q.get('renderer');
    const board = await BoardView.create(
      this.boardHost,
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
    this.refreshBoard();
  }

  private async start(): Promise<void> {
    try {
      if (this.conn.storedSeat) {
        this.joinMode = 'seated';
        await this.conn.join({});
      } else {
        this.joinMode = 'spectator';
        await this.conn.join({ spectate: true, name: savedName().trim().slice(0, 24) || undefined });
      }
    } catch (e) {
      const err = e as { code?: string };
      if (err.code !== 'not_found' && this.joinMode === 'seated') {
        this.joinMode = 'spectator';
        await this.conn.join({ spectate: true }).catch(() => this.fatal(S.game.notFound));
      } else this.fatal(S.game.notFound);
    }
    this.refreshJoin();
  }

  private fatal(text: string): void {
    this.message = text;
    replace(this.joinBox, h('p', { class: 'error', role: 'alert' }, text), h('p', {}, link('/', S.nav.home)));
    this.joinBox.hidden = false;
  }

  private installDebug(): void {
    window.djambi = {
      ready: false,
      readyAt: null,
      interactiveAt: null,
      squareCenter: (sq) => this.board?.squareCenter(sq) ?? null,
      state: () => ({
        fen: this.snap?.fen ?? '',
        seat: this.seat?.colour ?? null,
        view: this.viewColour(),
        phase: this.snap?.phase ?? '',
        moves: this.snap?.moves.length ?? 0,
        renderer: this.board?.rendererName ?? '',
        toMove: this.snap?.toMove ?? '',
        prompt: this.prompt.textContent ?? '',
        interactive: this.controller.view.interactive,
        selected: this.controller.view.highlights.selected,
      }),
      press: () => this.press.summary(),
      recordFrames: (on) => this.board?.recordFrames(on) ?? { samples: [], intervals: [] },
      animating: () => this.animation.running,
    };
  }

  // ------------------------------------------------------------------------------------------
  // Events

  private onState(snap: GameSnapshot): void {
    // A new turn while the last one animates: finish that one, the next starts where it ended.
    if (snap.version !== this.snap?.version) this.animation.settle();
    const prev = this.snap;
    this.snap = snap;
    if (snap.fen && snap.fen !== this.liveFen) {
      const parsed = parseFen(snap.fen, snap.rules);
      if (parsed.ok) {
        this.livePos = parsed.value;
        this.liveFen = snap.fen;
      }
    }
    const added = this.timeline.sync(snap.rules, snap.moves);
    const mySeat = this.seat?.colour ?? null;
    const before = this.shownPieces;
    this.holdBoard = true;
    try {
      this.controller.setPosition(this.viewIndex === null ? this.livePos : this.timeline.positionAfter(this.viewIndex), mySeat, {
        started: snap.phase !== 'waiting',
        history: this.viewIndex !== null,
        version: snap.version,
      });
    } finally {
      this.holdBoard = false;
    }
    // Animate a new turn on the live board (not on the first state, nor when looking back).
    const effects = added.flatMap((e) => e.effects);
    if (prev && this.viewIndex === null && added.length > 0 && added.length <= 3 && effects.length > 0 && this.board && before.length) {
      void this.animate(before, effects);
    } else this.refreshBoard();
    if (added.length > 0) {
      this.message = '';
      const last = snap.moves[snap.moves.length - 1];
      if (last) this.live.textContent = S.board.lastMove(`${last.colour ? S.colour(last.colour) : ''} ${moveText(last)}`);
    }
    this.refreshPanels();
    this.refreshJoin();
    this.yourTurnSignal();
    if (prev?.phase !== snap.phase) this.placeTalk();
  }

  private async animate(before: readonly PieceInfo[], effects: readonly Effect[]): Promise<void> {
    const board = this.board!;
    const ended = this.animation.start(() => board.finishAnimation());
    try {
      await board.animate(before, effects, this.scene());
    } finally {
      // Finished early, the gate has redrawn the board already.
      if (ended()) this.refreshBoard();
    }
  }

  private onSeat(seat: StoredSeat | null): void {
    this.seat = seat;
    this.joinMode = seat ? 'seated' : 'spectator';
    if (seat && !this.chosenView) this.viewSelect.value = seat.colour;
    this.controller.setPosition(this.controller.view.position, seat?.colour ?? null, {
      started: this.snap?.phase !== 'waiting',
      history: this.viewIndex !== null,
      version: this.snap?.version,
    });
    this.refreshPanels();
    this.refreshJoin();
  }

  private onRejected(code: string, message: string, type: string, retryAfterMs?: number): void {
    if (this.press.rejected(type, code, message, retryAfterMs)) return;
    if (type === 'turn' || (type === '' && this.controller.view.sending)) {
      // A resend the server had already applied is refused as stale: nothing to say.
      if (!this.controller.rejected(code)) return;
      this.message = S.prompt.rejected(message || code);
    } else this.message = S.prompt.refused(message || code);
    this.refreshControls(this.controller.view);
  }

  private onLink(l: LinkState): void {
    const was = this.link;
    this.link = l;
    // Down, a turn being sent waits; back (a new room), it is sent again.
    this.controller.setLink(l.kind === 'connected' || l.kind === 'moved');
    if (l.kind === 'waiting' || l.kind === 'retrying') this.hadDrop = true;
    if (l.kind === 'connected' && this.hadDrop && was.kind !== 'connected') {
      this.hadDrop = false;
      this.showBanner(S.net.reconnected, false, 'ok');
      setTimeout(() => {
        if (this.link.kind === 'connected') this.banner.hidden = true;
      }, 2500);
      return;
    }
    this.renderBanner();
  }

  private onControllerView(v: ControllerView): void {
    // A new choice clears an old server message.
    if (this.message && v.partial.from) this.message = '';
    this.refreshBoard();
    this.refreshControls(v);
  }

  private key(e: KeyboardEvent): void {
    const target = e.target as HTMLElement | null;
    if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT')) return;
    if (e.key === 'ArrowLeft') this.step('prev');
    else if (e.key === 'ArrowRight') this.step('next');
    else if (e.key === 'Escape') {
      this.animation.settle();
      this.controller.cancel();
    } else return;
    e.preventDefault();
  }

  private tick(): void {
    if (!this.snap) return;
    const needs = this.snap.clock.enabled || this.snap.seats.some((s) => s.presence === 'away' || s.presence === 'reconnecting');
    if (needs) this.refreshPanels();
    if (this.link.kind === 'waiting') this.renderBanner();
  }

  // ------------------------------------------------------------------------------------------
  // History

  private step(where: 'first' | 'prev' | 'next' | 'last'): void {
    this.animation.settle();
    if (!this.snap) return;
    const total = this.timeline.length;
    const cur = this.viewIndex ?? this.snap.moves.length;
    let next = where === 'first' ? 0 : where === 'prev' ? cur - 1 : where === 'next' ? cur + 1 : Number.POSITIVE_INFINITY;
    next = Math.max(0, next);
    this.viewAt(next >= this.snap.moves.length ? null : Math.min(next, total));
  }

  private viewAt(n: number | null): void {
    this.animation.settle();
    this.viewIndex = n;
    const pos = n === null ? this.livePos : this.timeline.positionAfter(n);
    this.controller.setPosition(pos, this.seat?.colour ?? null, { started: this.snap?.phase !== 'waiting', history: n !== null, version: this.snap?.version });
    this.refreshBoard();
    this.refreshPanels();
  }

  // ------------------------------------------------------------------------------------------
  // Rendering

  private viewColour(): Colour {
    return this.chosenView ?? this.seat?.colour ?? 'R';
  }

  private scene(): BoardScene {
    const v = this.controller.view;
    let pieceList: readonly PieceInfo[] = [];
    let last: string[] = [];
    if (this.viewIndex === null) {
      pieceList = this.snap?.pieces.length ? this.snap.pieces : this.livePos ? piecesOf(this.livePos) : [];
      last = lastTurnSquares(this.snap?.lastTurn ?? null);
    } else {
      pieceList = piecesOf(this.timeline.positionAfter(this.viewIndex));
      const entry = this.viewIndex > 0 ? this.timeline.entry(this.viewIndex - 1) : undefined;
      if (entry?.record.kind === 'turn') {
        const t = parseTurn(entry.record.text);
        if (t.ok && 'from' in t.value)
          last = [t.value.from, t.value.to, t.value.placement, t.value.exit, t.value.reporterTarget].filter((s): s is string => !!s);
      }
    }
    return { pieces: pieceList, preview: v.preview, highlights: v.highlights, lastTurn: last };
  }

  private refreshBoard(): void {
    const view = this.viewColour();
    if (this.viewSelect.value !== view) this.viewSelect.value = view;
    const scene = this.scene();
    this.access.update(view, scene.pieces, scene.highlights.options, scene.highlights.selected);
    if (!this.board || this.animation.running || this.holdBoard) return;
    this.board.setView(view);
    this.board.render(scene);
    this.shownPieces = scene.pieces;
    const debug = window.djambi;
    if (debug && this.snap) {
      // Stamped in the frame that draws the board (after the board's own frame callback).
      const interactive = this.controller.view.interactive;
      requestAnimationFrame(() => {
        debug.ready = true;
        debug.readyAt ??= performance.now();
        if (interactive) debug.interactiveAt ??= performance.now();
      });
    }
  }

  private refreshControls(v: ControllerView): void {
    const p = v.prompt;
    let text: string;
    switch (p.key) {
      case 'notYourTurn':
        text = S.prompt.notYourTurn(p.colour ?? 'R');
        break;
      case 'breaksPact':
        text = S.prompt.breaksPact((p.partners ?? []).map((c) => this.seatName(c)));
        break;
      default:
        text = S.prompt[p.key];
    }
    // A server refusal is shown until the next choice; a refused click is flagged once.
    if (this.message) text = `${this.message} ${text}`;
    else if (v.error) text = `${S.prompt.illegal} ${text}`;
    setText(this.prompt, text);
    this.prompt.classList.toggle('mine', v.interactive);
    this.buttons.undo.hidden = !v.canUndo;
    this.buttons.cancel.hidden = !v.canUndo;
    this.buttons.noKill.hidden = !v.canSkipKill;
    this.buttons.confirm.hidden = !(v.pending && !v.sending);
    this.keyInput.disabled = !v.interactive && !v.pending;
  }

  private refreshPanels(): void {
    const snap = this.snap;
    if (!snap) return;
    const now = Date.now();
    const mySeat = this.seat?.colour ?? null;
    const pos = this.viewIndex === null ? this.livePos : this.timeline.positionAfter(this.viewIndex);
    renderStatus(
      this.statusBox,
      snap,
      snap.phase === 'waiting' ? null : pos,
      mySeat,
      now,
      this.viewIndex === null ? null : { index: this.viewIndex, total: snap.moves.length },
    );
    const canSit = snap.phase === 'waiting' && !mySeat && this.joinMode !== 'joining';
    const canSwap = snap.phase === 'waiting' && !!mySeat;
    this.press.setContext({ seat: mySeat, active: snap.phase === 'waiting' ? snap.seats.map((x) => x.colour) : snap.active, phase: snap.phase });
    const partners = this.press.partners();
    renderSeats(
      this.seatsBox,
      snap,
      mySeat,
      now,
      canSit ? (c) => void this.takeSeat(c) : null,
      canSwap ? (c) => this.sendAction('swap', { colour: c }) : null,
      partners.length ? { seats: partners, talk: (c) => this.pressPanel.talkWith(c) } : null,
      canSwap ? (ready) => this.sendAction('ready', { ready }) : null,
    );
    renderMoves(this.movesList, snap.moves, this.viewIndex, this.timeline.length, (n) => this.viewAt(n >= snap.moves.length ? null : n));
    this.renderActions(snap, mySeat);
    this.renderLobby(snap, mySeat);
  }

  private renderActions(snap: GameSnapshot, mySeat: Colour | null): void {
    const items: HTMLElement[] = [];
    const seat = snap.seats.find((s) => s.colour === mySeat);
    if (snap.phase === 'playing' && seat?.active) {
      if (snap.drawOffer?.by) {
        items.push(h('p', { id: 'draw-offer' }, S.game.drawOffered(snap.drawOffer.by as Colour)));
        if (snap.drawOffer.by !== mySeat && !snap.drawOffer.accepted.includes(mySeat!)) {
          // Name the offer answered, so that an answer to an offer that lapsed meanwhile is refused.
          const answer = snap.drawOffer.id > 0 ? { offer: snap.drawOffer.id } : {};
          items.push(h('button', { type: 'button', id: 'draw-accept', onclick: () => this.sendAction('draw_accept', answer) }, S.game.acceptDraw));
          items.push(h('button', { type: 'button', id: 'draw-decline', onclick: () => this.sendAction('draw_decline', answer) }, S.game.declineDraw));
        }
      } else {
        items.push(h('button', { type: 'button', id: 'draw-offer-btn', onclick: () => this.sendAction('draw_offer') }, S.game.offerDraw));
      }
      items.push(h('button', { type: 'button', id: 'resign', class: 'danger', onclick: () => this.confirmResign() }, S.game.resign));
    }
    if (!mySeat && snap.phase !== 'waiting') items.push(h('p', { class: 'muted' }, S.game.spectating));
    replace(this.actionsBox, ...items);
    this.actionsBox.hidden = items.length === 0;
  }

  private confirmResign(): void {
    const dialog = h(
      'dialog',
      { id: 'resign-dialog', class: 'dialog' },
      h('p', {}, S.game.resignConfirm),
      h(
        'div',
        { class: 'row' },
        h(
          'button',
          {
            type: 'button',
            id: 'resign-yes',
            class: 'danger',
            onclick: () => {
              this.sendAction('resign');
              dialog.close();
              dialog.remove();
            },
          },
          S.game.yes,
        ),
        h(
          'button',
          {
            type: 'button',
            id: 'resign-no',
            onclick: () => {
              dialog.close();
              dialog.remove();
            },
          },
          S.game.no,
        ),
      ),
    );
    document.body.appendChild(dialog);
    dialog.showModal();
  }

  private renderLobby(snap: GameSnapshot, mySeat: Colour | null): void {
    const box = this.lobbyBox;
    const invite = `${location.origin}/g/${this.code}`;
    const free = snap.seats.filter((s) => !s.taken).length;
    const items: HTMLElement[] = [];
    if (snap.phase === 'waiting') {
      items.push(h('h2', {}, S.game.invite));
      const inviteInput = h('input', { id: 'invite-link', value: invite, readonly: true, 'aria-label': S.game.copyLink });
      const copied = h('span', { class: 'muted', 'aria-live': 'polite' });
      items.push(
        h(
          'div',
          { class: 'row' },
          inviteInput,
          h('button', { type: 'button', id: 'copy-link', onclick: () => copy(invite, inviteInput, copied) }, S.game.copyLink),
          copied,
        ),
      );
      if (box.dataset.qr !== invite) box.dataset.qr = invite;
      items.push(h('div', { class: 'qr-wrap' }, qrSvg(invite, S.game.qrLabel)));
      if (free > 0) items.push(h('p', { class: 'muted', id: 'waiting-note' }, S.game.waitingForPlayers(free)));
      else if (mySeat) items.push(h('button', { type: 'button', id: 'start', class: 'primary', onclick: () => this.sendAction('start') }, S.game.start));
      else items.push(h('p', { class: 'muted' }, S.game.waitingForStart));
    }
    if (mySeat && this.seat && snap.phase !== 'over') {
      const seatLink = `${invite}#seat=${this.seat.colour}.${this.seat.seatKey}`;
      const copied = h('span', { class: 'muted', 'aria-live': 'polite' });
      items.push(
        h(
          'details',
          { class: 'seat-link' },
          h('summary', {}, S.game.seatLink),
          h('p', { class: 'hint' }, S.game.seatLinkHint),
          h('button', { type: 'button', id: 'copy-seat-link', onclick: () => copy(seatLink, null, copied) }, S.game.seatLink),
          copied,
        ),
      );
    }
    // Keep an open <details> open across refreshes.
    const wasOpen = box.querySelector('details')?.open ?? false;
    const key = `${snap.phase}|${free}|${mySeat}|${invite}`;
    if (box.dataset.key !== key) {
      box.dataset.key = key;
      replace(box, ...items);
      const d = box.querySelector('details');
      if (d && wasOpen) d.open = true;
    }
    box.hidden = items.length === 0;
  }

  private refreshJoin(): void {
    const snap = this.snap;
    const box = this.joinBox;
    if (!snap || this.seat || snap.phase !== 'waiting' || this.message === S.game.notFound) {
      if (this.message !== S.game.notFound) box.hidden = true;
      return;
    }
    if (box.dataset.built === '1') {
      box.hidden = false;
      return;
    }
    box.dataset.built = '1';
    const name = h('input', { id: 'player-name', maxlength: 24, value: savedName(), placeholder: S.game.namePlaceholder, autocomplete: 'nickname' });
    const error = h('p', { class: 'error', role: 'alert', id: 'join-error' });
    const form = h(
      'form',
      {},
      h('label', { for: 'player-name' }, S.game.yourName),
      name,
      h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary', id: 'take-seat' }, S.game.takeSeat)),
      error,
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.takeSeat(undefined);
    });
    replace(box, form);
    box.hidden = false;
  }

  private async takeSeat(colour: Colour | undefined): Promise<void> {
    const nameInput = document.getElementById('player-name') as HTMLInputElement | null;
    const name = (nameInput?.value ?? savedName()).trim().slice(0, 24);
    try {
      localStorage.setItem('djambi:name', name);
    } catch {
      /* ignore */
    }
    const error = document.getElementById('join-error');
    if (error) error.textContent = '';
    this.joinMode = 'joining';
    try {
      await this.conn.rejoin({ name: name || undefined, colour });
    } catch (e) {
      const err = e as { code?: string; message?: string };
      if (error) error.textContent = err.message ?? S.errors.generic;
      this.joinMode = 'spectator';
      await this.conn.join({ spectate: true }).catch(() => undefined);
    }
    this.refreshPanels();
  }

  /** Send a room action (start, swap, draw, resign, …); when it cannot go out now, say so. */
  private sendAction(type: string, message?: unknown): void {
    if (this.conn.send(type, message)) return;
    this.message = S.net.notSent;
    this.refreshControls(this.controller.view);
  }

  /** The partners of the viewer's pacts in force that `turn` would betray (as the server will judge it). */
  private breaches(pos: Position, turn: Turn): Colour[] {
    const me = pos.toMove;
    if (!me) return [];
    const bound = new Set<Colour>();
    for (const p of this.press.pactGroups().inForce) if (p.standing.includes(me)) for (const c of p.standing) if (c !== me) bound.add(c);
    const partners = COLOURS.filter((c) => bound.has(c));
    return [...pactBreaches(pos, turn, me, partners).keys()];
  }

  /** A seat's display name: its player's name, else the colour. */
  private seatName(c: Colour): string {
    const seat = this.snap?.seats.find((x) => x.colour === c);
    return seat?.taken && seat.name ? seat.name : S.colour(c);
  }

  /**
   * Put the talk card in the left column (wide screens), right under the board (phones, once
   * the game is on: before, joining comes first), or else after the seats.
   */
  private placeTalk(): void {
    const card = this.pressPanel.element;
    if (this.wide.matches) {
      if (card.parentElement !== this.talkCol) this.talkCol.appendChild(card);
    } else if (this.narrow.matches && this.snap && this.snap.phase !== 'waiting') {
      if (card.previousElementSibling !== this.boardCol) this.boardCol.after(card);
    } else if (card.previousElementSibling !== this.seatsBox) {
      this.seatsBox.after(card);
    }
    this.talkCol.hidden = !this.wide.matches;
  }

  /** A channel counts as read only while its messages are on screen in a visible page. */
  private updateViewing(): void {
    this.press.setViewing(document.visibilityState === 'visible' && this.feedVisible && !this.pressPanel.feed.hidden);
  }

  private refreshTalkBadge(): void {
    const n = this.press.totalUnread;
    // Screen readers hear that something new was said (the feed itself is not a live region).
    if (n > this.unreadShown) this.live.textContent = S.press.unread(n);
    this.unreadShown = n;
    this.talkBadge.hidden = n === 0;
    setText(this.talkBadge, n ? String(n) : '');
    this.talkLink.setAttribute('aria-label', n ? `${S.press.headerLink}: ${S.press.unread(n)}` : S.press.headerLink);
    // The reveal tab hides the feed: whether the channel is in view changes with the tab.
    this.updateViewing();
  }

  private yourTurnSignal(): void {
    const pos = this.livePos;
    const mine = !!pos && this.snap?.phase === 'playing' && !pos.result && pos.toMove !== null && pos.toMove === this.seat?.colour;
    if (mine && !this.wasMyTurn) this.signal.yourTurn(this.sound);
    if (!mine) this.signal.clear();
    this.wasMyTurn = mine;
  }

  private showBanner(text: string, retry: boolean, tone: 'warn' | 'ok' = 'warn'): void {
    const children: (HTMLElement | string)[] = [h('span', {}, text)];
    if (retry) children.push(h('button', { type: 'button', id: 'retry-now', onclick: () => this.conn.retryNow() }, S.net.retryNow));
    replace(this.banner, ...children);
    this.banner.className = `banner ${tone}`;
    this.banner.hidden = false;
  }

  private renderBanner(): void {
    const l = this.link;
    switch (l.kind) {
      case 'waiting':
        if (l.offline) this.showBanner(S.net.offline, true);
        else this.showBanner(S.net.reconnecting(Math.max(0, Math.ceil((l.retryAt - Date.now()) / 1000))), true);
        break;
      case 'retrying':
        this.showBanner(S.net.reconnectingNow, false);
        break;
      case 'failed':
        this.showBanner(S.net.gaveUp, false);
        break;
      case 'moved':
        this.showBanner(S.net.seatLost, false);
        break;
      default:
        if (l.kind === 'connected' || l.kind === 'connecting' || l.kind === 'closed') this.banner.hidden = l.kind !== 'closed' || !this.hadDrop;
    }
  }
}

/** Screens wide enough for a talk column left of the board (as `styles.css`). */
const WIDE_LAYOUT = '(min-width: 1180px) and (orientation: landscape)';
/** Phones held upright (as `styles.css`): one column. */
const NARROW_LAYOUT = '(max-width: 820px), (orientation: portrait)';

/** A seat link (`/g/CODE#seat=R.KEY`) moves the seat to this device: store it and clean the URL. */
function consumeSeatLink(code: string): void {
  const m = /^#seat=([RBYG])\.([A-Za-z0-9_-]{8,64})$/.exec(location.hash);
  if (!m) return;
  saveSeat(code, { colour: m[1] as Colour, seatKey: m[2] });
  history.replaceState(null, '', location.pathname);
}

function copy(text: string, input: HTMLInputElement | null, note: HTMLElement): void {
  const done = (): void => {
    note.textContent = S.game.copied;
    setTimeout(() => (note.textContent = ''), 2000);
  };
  if (navigator.clipboard?.writeText) {
    navigator.clipboard.writeText(text).then(done, () => {
      input?.select();
    });
  } else {
    input?.select();
  }
}
