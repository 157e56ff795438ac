/**
 * The game page `/g/CODE`: joins the room (reclaiming a stored seat without questions), shows
 * the seats and the invite before the start, then the board, the status, the move list and the
 * actions. The composition root: wires the connection (truth), the session (what is shown), the
 * controller (what the viewer may do) and the small views that render them.
 */
import type { Colour } from '@djambi/shared';
import { GameController, type ControllerView } from '../game/controller.js';
import { betrayedPartners } from '../game/pactGuard.js';
import { PressModel } from '../game/press.js';
import { GameSession, type Step } from '../game/session.js';
import type { GameSnapshot } from '../game/snapshot.js';
import { S } from '../i18n/strings.js';
import { GameConnection, type LinkState } from '../net/connection.js';
import type { StoredSeat } from '../net/seatStore.js';
import { ActionsView } from './actionsView.js';
import { BannerView } from './bannerView.js';
import { BoardPane } from './boardPane.js';
import { ControlsView } from './controlsView.js';
import { installDebug, removeDebug } from './debugHook.js';
import { h } from './dom.js';
import { JoinFlow } from './joinFlow.js';
import { TalkLayout } from './layout.js';
import { consumeSeatLink, LobbyView } from './lobbyView.js';
import { MovesView } from './movesView.js';
import { buildShell } from './pageShell.js';
import { moveText } from './panels.js';
import { muteStore, pref } from './prefs.js';
import { PressPanel } from './pressPanel.js';
import { pactsOf, ResultView } from './resultView.js';
import { SeatLinkView } from './seatLinkView.js';
import { TurnSignal } from './signal.js';
import { StatusView } from './statusView.js';

export type { DjambiDebug } from './debugHook.js';

/** What the router gives the game page. */
export interface GamePageOptions {
  /** The room does not exist (any more): the router shows the stored game, if there is one. */
  readonly gone?: () => void;
}

/** Render the game page; returns its cleanup. */
export function renderGame(root: HTMLElement, code: string, options: GamePageOptions = {}): () => void {
  const page = new GamePage(root, code, options);
  return () => page.dispose();
}

class GamePage {
  private readonly session = new GameSession<LinkState>();
  private wasMyTurn = false;
  private readonly controller: GameController;
  private readonly conn: GameConnection;
  private readonly join: JoinFlow;
  private readonly signal: TurnSignal;
  private readonly ticker: ReturnType<typeof setInterval>;
  private readonly stopKeys: () => void;
  private readonly press: PressModel;
  private readonly pressPanel: PressPanel;
  private readonly pane: BoardPane;
  private readonly layout: TalkLayout;
  private readonly controls: ControlsView;
  private readonly banner = new BannerView(() => this.conn.retryNow());
  private readonly lobby: LobbyView;
  private readonly seatLink: SeatLinkView;
  private readonly status: StatusView;
  private readonly actions = new ActionsView((type, message) => this.sendAction(type, message));
  private readonly moves: MovesView;
  private readonly result = new ResultView({ rematch: (action) => this.sendAction('rematch', { action }) }, () => this.conn.clock.now());
  private readonly boardCol = h('section', { class: 'board-col' });
  private readonly live = h('p', { class: 'sr-only', 'aria-live': 'polite', id: 'announce' });

  constructor(
    private readonly root: HTMLElement,
    private readonly code: string,
    private readonly options: GamePageOptions = {},
  ) {
    this.signal = new TurnSignal(() => S.title.yourTurn(code));
    this.signal.setTitle(S.title.game(code));
    this.controller = new GameController({
      confirm: pref.get('confirm', false),
      onSubmit: (turn, version) => this.conn.sendTurn(turn, version),
      breaches: (pos, turn) => betrayedPartners(this.press, pos, turn),
    });
    this.pane = new BoardPane(this.controller, this.session);
    this.seatLink = new SeatLinkView(code);
    this.seatLink.linked(consumeSeatLink(code));
    this.press = new PressModel((type, payload) => this.conn.send(type, payload), muteStore(code));
    this.pressPanel = new PressPanel(this.press, { seatName: (c) => this.seatName(c) });
    this.status = new StatusView({
      sit: (c) => void this.join.takeSeat(c),
      swap: (c) => this.sendAction('swap', { colour: c }),
      ready: (ready) => this.sendAction('ready', { ready }),
      talk: (c) => this.pressPanel.talkWith(c),
      result: () => this.result.open(),
    });
    this.layout = new TalkLayout(this.press, this.pressPanel, this.status.seats, this.live);
    this.press.subscribe(() => this.controller.pactsChanged());
    this.press.subscribe(() => this.result.pressChanged(pactsOf(this.press)));
    this.conn = new GameConnection(code, {
      state: (s) => this.onState(s),
      seat: (seat) => this.onSeat(seat),
      rejected: (c, m, type, retry) => this.onRejected(c, m, type, retry),
      link: (l) => this.onLink(l),
      press: (type, payload) => {
        this.actions.tableBar.pressEvent(type, payload);
        this.press.receive(type, payload);
      },
      rematch: (type, payload) => this.result.receive(type, payload),
    });
    this.join = new JoinFlow(
      this.conn,
      (text) => this.fatal(text),
      () => this.refreshPanels(),
      () => this.gone(),
    );
    this.controls = new ControlsView(this.controller, this.pane.input);
    this.lobby = new LobbyView(code, {
      takeSeat: (c) => void this.join.takeSeat(c),
      start: () => this.sendAction('start'),
      send: (type, payload) => this.sendAction(type, payload),
    });
    this.moves = new MovesView(
      code,
      (where) => this.step(where),
      (n) => this.viewAt(n),
    );
    this.controller.subscribe((v) => this.onControllerView(v));
    this.buildDom();
    this.ticker = setInterval(() => this.tick(), 1000);
    this.stopKeys = this.moves.listenKeys(() => {
      this.pane.animation.settle();
      this.controller.cancel();
    });
    this.layout.attach();
    installDebug({ session: this.session, pane: this.pane, controller: this.controller, press: this.press, prompt: this.controls.prompt });
    void this.pane.create();
    void this.join.start().then(() => this.lobby.renderJoin(this.session.view));
  }

  dispose(): void {
    clearInterval(this.ticker);
    this.stopKeys();
    this.layout.dispose();
    this.pressPanel.dispose();
    this.conn.close();
    this.pane.dispose();
    this.signal.dispose();
    this.actions.tableBar.dispose();
    this.result.dispose();
    removeDebug();
  }

  private buildDom(): void {
    buildShell(this.root, {
      code: this.code,
      viewSelect: this.pane.viewSelect,
      talkLink: this.layout.link,
      banner: this.banner.element,
      talkColumn: this.layout.column,
      boardCol: this.boardCol,
      board: [this.actions.tableBar.element, this.pane.element, this.controls.promptBar, this.controls.optionsRow],
      side: [this.lobby.join, this.seatLink.element, this.lobby.lobby, this.status.status, this.status.seats, this.moves.element, this.actions.element],
      announce: this.live,
    });
    this.root.appendChild(this.result.element);
    this.refreshControls(this.controller.view);
  }

  /** No room with this code: let the router look in the archive (else it is fatal). */
  private gone(): void {
    if (this.options.gone) this.options.gone();
    else this.fatal(S.game.notFound);
  }

  private fatal(text: string): void {
    this.controls.message = text;
    this.lobby.fatal(text);
  }

  // ------------------------------------------------------------------------------------------
  // Events

  private onState(snap: GameSnapshot): void {
    // A new turn while the last one animates: finish that one, the next starts where it ended.
    if (snap.version !== this.session.view.version) this.pane.animation.settle();
    // Animate a new turn on the live board (not on the first state, nor when looking back).
    let update: ReturnType<GameSession['applySnapshot']> | undefined;
    this.pane.takeIn(() => {
      update = this.session.applySnapshot(snap);
      this.syncController();
      return update.animate;
    });
    if (update && update.added.length > 0) {
      this.controls.message = '';
      const last = snap.moves[snap.moves.length - 1];
      if (last) this.live.textContent = S.board.lastMove(`${last.colour ? S.colour(last.colour) : ''} ${moveText(last)}`);
    }
    this.refreshPanels();
    this.lobby.renderJoin(this.session.view);
    this.yourTurnSignal();
    if (update?.phaseChanged) this.layout.setStarted(snap.phase !== 'waiting');
  }

  /** Give the controller the shown position, the seat and the state version. */
  private syncController(): void {
    const v = this.session.view;
    this.controller.setPosition(v.shown, v.mySeat, { started: v.started, history: v.historyIndex !== null, version: v.version });
  }

  private onSeat(seat: StoredSeat | null): void {
    this.session.setSeat(seat);
    this.join.seated(!!seat);
    if (seat) this.pane.faceSeat(seat.colour);
    this.syncController();
    this.refreshPanels();
    this.lobby.renderJoin(this.session.view);
  }

  private onRejected(code: string, message: string, type: string, retryAfterMs?: number): void {
    if (this.press.rejected(type, code, message, retryAfterMs)) return;
    if (type === 'turn' || (type === '' && this.controller.view.sending)) {
      // A resend the server had already applied is refused as stale: nothing to say.
      if (!this.controller.rejected(code)) return;
      this.controls.message = S.prompt.rejected(message || code);
    } else this.controls.message = S.prompt.refused(message || code);
    this.refreshControls(this.controller.view);
  }

  private onLink(l: LinkState): void {
    // The room went away for good while we were away: the game may be in the archive.
    if (l.kind === 'failed' && l.reason === 'not_found') return this.gone();
    const back = this.session.setLink(l, this.conn.clock.now());
    // Down, a turn being sent waits; back (a new room), it is sent again.
    this.controller.setLink(l.kind === 'connected' || l.kind === 'moved');
    if (back) this.banner.reconnected(() => this.session.view.link.kind === 'connected');
    else this.banner.render(l, this.session.hadDrop);
  }

  private onControllerView(v: ControllerView): void {
    // A new choice clears an old server message.
    if (this.controls.message && v.partial.from) this.controls.message = '';
    this.pane.refresh();
    this.refreshControls(v);
  }

  private tick(): void {
    const v = this.session.view;
    const snap = v.snapshot;
    if (!snap) return;
    const needs = snap.clock.enabled || snap.seats.some((s) => s.presence === 'away' || s.presence === 'reconnecting');
    if (needs) this.refreshPanels();
    if (v.link.kind === 'waiting') this.banner.render(v.link, this.session.hadDrop);
  }

  // ------------------------------------------------------------------------------------------
  // History

  private step(where: Step): void {
    this.pane.animation.settle();
    if (this.session.step(where)) this.showHistory();
  }

  private viewAt(n: number | null): void {
    this.pane.animation.settle();
    this.session.viewMove(n);
    this.showHistory();
  }

  private showHistory(): void {
    this.syncController();
    this.pane.refresh();
    this.refreshPanels();
  }

  // ------------------------------------------------------------------------------------------
  // Rendering

  private refreshControls(v: ControllerView): void {
    this.controls.render(v, (c) => this.seatName(c));
  }

  private refreshPanels(): void {
    const v = this.session.view;
    const snap = v.snapshot;
    if (!snap) return;
    this.press.setContext({ seat: v.mySeat, active: snap.phase === 'waiting' ? snap.seats.map((x) => x.colour) : snap.active, phase: snap.phase });
    // While the link is down the clocks stand where they were: the page cannot know them.
    this.status.render(
      v,
      snap.phase === 'waiting' && !v.mySeat && this.join.mode !== 'joining',
      this.press.partners(),
      v.clockFrozenAt ?? this.conn.clock.now(),
    );
    this.seatLink.render(snap.phase === 'over' ? null : v.seat);
    this.status.seats.appendChild(this.seatLink.menu);
    this.moves.render(v);
    this.actions.render(v);
    this.lobby.renderLobby(v);
    this.result.render(snap, v.mySeat, pactsOf(this.press));
  }

  /** Send a room action (start, swap, draw, resign, …); when it cannot go out now, say so. */
  private sendAction(type: string, message?: unknown): void {
    if (this.conn.send(type, message)) return;
    this.controls.message = S.net.notSent;
    this.refreshControls(this.controller.view);
  }

  /** A seat's display name: its player's name, else the colour. */
  private seatName(c: Colour): string {
    const seat = this.session.view.snapshot?.seats.find((x) => x.colour === c);
    return seat?.taken && seat.name ? seat.name : S.colour(c);
  }

  private yourTurnSignal(): void {
    const mine = this.session.view.myTurn;
    if (mine && !this.wasMyTurn) this.signal.yourTurn(this.controls.sound);
    if (!mine) this.signal.clear();
    this.wasMyTurn = mine;
  }
}
