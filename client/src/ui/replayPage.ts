/**
 * The replay viewer (a lazily loaded chunk): a finished game at `/g/CODE` once its room is gone,
 * `/g/CODE/replay` (`#ply=N` opens at move N), and `/replay`, which imports a pasted or uploaded
 * record. The board, the session and the timeline are the game page's own: the record becomes a
 * move list in a synthetic snapshot, and the session steps through it.
 */
import { check, isRecord, makeFen, makeRecord, PressPage, PressReveal, type Colour, type RevealItem } from '@djambi/shared';
import { GameController } from '../game/controller.js';
import {
  channelMembers,
  importRecord,
  interleave,
  type OlderRequest,
  parsePlyHash,
  plyHash,
  ReplayCursor,
  type ReplayGame,
  type ReplayStep,
  RevealStory,
  type StoryRow,
} from '../game/replay.js';
import { GameSession } from '../game/session.js';
import { readSnapshot } from '../game/snapshot.js';
import { languageSelect } from '../i18n/languageSelect.js';
import { P, S } from '../i18n/strings.js';
import { getGame, getRecordText, getReveal, recordUrl, type StoredGameInfo } from '../net/api.js';
import { BoardPane } from './boardPane.js';
import { h, link, replace, setText } from './dom.js';
import { moveText, swatch } from './panels.js';

/** What to show: a stored game by code (`replay`: the viewer route) or the import form. */
export type ReplaySource = { readonly kind: 'archive'; readonly code: string; readonly replay: boolean } | { readonly kind: 'import' };

/** Render the page; returns its cleanup. */
export function renderReplay(root: HTMLElement, source: ReplaySource): () => void {
  const abort = new AbortController();
  let viewer: ReplayViewer | null = null;
  const show = (game: ReplayGame, opts: ViewerOptions): HTMLElement => {
    viewer?.dispose();
    viewer = new ReplayViewer(game, opts);
    return viewer.element;
  };
  if (source.kind === 'import') renderImport(root, show);
  else void renderArchive(root, source.code, source.replay, abort.signal, show);
  return () => {
    abort.abort();
    viewer?.dispose();
  };
}

function header(title: string, ...nav: HTMLElement[]): HTMLElement {
  return h(
    'header',
    { class: 'top game-top' },
    link('/', S.appName, { class: 'brand' }),
    h('h1', {}, title),
    h('nav', {}, ...nav, link('/rules', S.nav.rules), languageSelect()),
  );
}

function message(root: HTMLElement, title: string, text: string): void {
  replace(root, header(title), h('main', { class: 'page narrow' }, h('p', { id: 'replay-message', role: 'alert' }, text), h('p', {}, link('/', S.nav.home))));
}

async function renderArchive(
  root: HTMLElement,
  code: string,
  replayRoute: boolean,
  signal: AbortSignal,
  show: (g: ReplayGame, o: ViewerOptions) => HTMLElement,
): Promise<void> {
  document.title = replayRoute ? S.title.replay(code) : S.title.game(code);
  replace(root, header(S.game.code(code)), h('p', { class: 'loading' }, P.replay.loading));
  let info: StoredGameInfo | null;
  let text: string;
  let revealRaw: unknown = null;
  try {
    info = await getGame(code, signal);
    if (!info) return message(root, S.game.code(code), P.replay.notFound);
    text = await getRecordText(code, signal);
    if (info.status === 'finished') revealRaw = await getReveal(code, signal).catch(() => null);
  } catch (e) {
    if (signal.aborted) return;
    return message(root, S.game.code(code), P.replay.loadFailed(e instanceof Error ? e.message : String(e)));
  }
  if (signal.aborted) return;
  const game = importRecord(text);
  if (!game.ok) return message(root, S.game.code(code), P.replay.loadFailed(game.error.message));
  const reveal = revealRaw ? check(PressReveal, revealRaw) : null;
  const names: Partial<Record<Colour, string>> = {};
  for (const s of info.seats) if (s.name) names[s.colour as Colour] = s.name;
  for (const [c, n] of Object.entries(info.summary?.players ?? {})) if (n) names[c as Colour] = n;
  const title = replayRoute ? P.replay.replayTitle(code) : info.status === 'finished' ? P.replay.finishedTitle(code) : S.game.code(code);
  const nav = replayRoute ? link(`/g/${code}`, P.replay.backToGame, { id: 'to-game' }) : link(`/g/${code}/replay`, P.replay.openReplay, { id: 'to-replay' });
  const viewer = show(game.value, {
    code,
    names,
    reveal: reveal?.ok ? reveal.value : null,
    revealAsked: info.status === 'finished',
    finished: info.status === 'finished',
    rematch: info.rematch,
    start: replayRoute ? 0 : game.value.moves.length,
    exports: { text: recordUrl(code, 'text'), json: recordUrl(code, 'json') },
    loadOlder: (req) => fetchRevealPage(code, req, signal),
  });
  replace(root, header(title, nav), viewer);
}

/**
 * Reads one older page of a revealed channel from the archive (`GET /api/games/CODE/reveal?channel=&before=`),
 * decoded with the shared `PressPage`; throws on a failed request or an undecodable answer.
 */
async function fetchRevealPage(code: string, req: OlderRequest, signal: AbortSignal): Promise<PressPage> {
  const q = new URLSearchParams({ channel: req.channel, before: String(req.before) });
  const res = await fetch(`/api/games/${encodeURIComponent(code)}/reveal?${q}`, { signal });
  const body: unknown = await res.json().catch(() => null);
  const page = res.ok && isRecord(body) ? check(PressPage, body.page) : null;
  if (!page?.ok) throw new Error(isRecord(body) && isRecord(body.error) ? String(body.error.code) : `HTTP ${res.status}`);
  return page.value;
}

function renderImport(root: HTMLElement, show: (g: ReplayGame, o: ViewerOptions) => HTMLElement): void {
  document.title = S.title.importReplay;
  const area = h('textarea', { id: 'import-text', rows: 6, spellcheck: 'false', 'aria-describedby': 'import-error' });
  const file = h('input', { type: 'file', id: 'import-file', accept: '.txt,.json,text/plain,application/json' });
  const error = h('p', { id: 'import-error', class: 'error', role: 'alert' });
  const slot = h('div', { id: 'import-result' });
  const run = (text: string): void => {
    setText(error, '');
    const game = importRecord(text);
    if (!game.ok) {
      const e = game.error;
      setText(error, text.trim() === '' ? P.replay.importEmpty : P.replay.importError(e.line ? P.replay.at(e.line, e.column ?? 1) : '', e.message));
      replace(slot);
      return;
    }
    replace(
      slot,
      show(game.value, { code: '', names: {}, reveal: null, revealAsked: false, finished: true, rematch: null, start: 0, exports: null, loadOlder: null }),
    );
  };
  const form = h(
    'form',
    { class: 'card', id: 'import-form' },
    h('h2', {}, P.replay.importTitle),
    h('p', { class: 'hint' }, P.replay.importHint),
    // How a record reads, for a player (not a pointer to a developer's file).
    h('details', { id: 'import-format' }, h('summary', {}, P.replay.importFormatTitle), h('ul', {}, ...P.replay.importFormat.map((line) => h('li', {}, line)))),
    h('label', { for: 'import-text' }, P.replay.importText),
    area,
    h(
      'div',
      { class: 'row' },
      h('label', { for: 'import-file' }, P.replay.importFile),
      file,
      h('button', { type: 'submit', class: 'primary', id: 'import-show' }, P.replay.importShow),
    ),
    error,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    run(area.value);
  });
  file.addEventListener('change', () => {
    const f = file.files?.[0];
    if (!f) return;
    void f.text().then((text) => {
      area.value = text;
      run(text);
    });
  });
  replace(root, header(P.replay.importedTitle), h('main', { class: 'page' }, form), slot);
}

// ---------------------------------------------------------------------------------------------

interface ViewerOptions {
  readonly code: string;
  readonly names: Partial<Record<Colour, string>>;
  readonly reveal: PressReveal | null;
  /** The game is over, so a reveal was asked for (null: the room revealed nothing). */
  readonly revealAsked: boolean;
  readonly finished: boolean;
  /** The code of the game's rematch, if one was created. */
  readonly rematch: string | null;
  /** Moves played on the first shown position (a `#ply=` in the address wins). */
  readonly start: number;
  /** Download links of the record; null: built here from the record. */
  readonly exports: { readonly text: string; readonly json: string } | null;
  /** Loads an older page of a revealed channel (the archive); null: the reveal is all there is. */
  readonly loadOlder: ((req: OlderRequest) => Promise<PressPage>) | null;
}

const PLAY_MS = 900;

/** The viewer: board, step controls, slider, result, moves with the press, exports. */
class ReplayViewer {
  readonly element: HTMLElement;
  private readonly session = new GameSession();
  private readonly controller = new GameController({ onSubmit: () => false });
  private readonly pane: BoardPane;
  private readonly cursor: ReplayCursor;
  private rows: StoryRow<RevealItem>[];
  /** The revealed press with the older pages loaded so far (null: nothing revealed). */
  private readonly press: RevealStory | null;
  private readonly olderButton = h('button', { type: 'button', id: 'replay-older', class: 'small link' }, S.press.loadOlder);
  private loadingOlder = false;
  private readonly label = h('p', { id: 'replay-ply', class: 'turn', 'aria-live': 'polite' });
  private readonly slider: HTMLInputElement;
  private readonly playButton: HTMLButtonElement;
  private readonly permalink = h('a', { id: 'replay-link' }, P.replay.linkToMove);
  private readonly story = h('ol', { id: 'replay-story', class: 'moves story' });
  private readonly urls: string[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly stop: () => void;

  constructor(
    private readonly game: ReplayGame,
    private readonly opts: ViewerOptions,
  ) {
    const total = game.moves.length;
    this.cursor = new ReplayCursor(total, parsePlyHash(location.hash, total) ?? opts.start);
    this.session.applySnapshot(readSnapshot({ code: opts.code, phase: 'over', rules: game.rules, moves: game.moves, seats: {}, visibility: 'private' }));
    this.pane = new BoardPane(this.controller, this.session);
    this.press = opts.reveal ? new RevealStory(opts.reveal) : null;
    this.rows = interleave(game.plies, this.press?.timeline ?? []);
    this.olderButton.addEventListener('click', () => void this.loadOlder());
    this.setOlderButton();
    const button = (id: string, label: string, text: string, onclick: () => void): HTMLButtonElement =>
      h('button', { type: 'button', id, 'aria-label': label, title: label, onclick }, text);
    this.playButton = button('replay-play', P.replay.play, '▶', () => this.togglePlay());
    this.slider = h('input', { type: 'range', id: 'replay-slider', min: 0, max: total, value: this.cursor.index, 'aria-label': P.replay.slider });
    this.slider.addEventListener('input', () => this.go(Number(this.slider.value)));
    const controls = h(
      'div',
      { class: 'prompt-bar replay-controls', role: 'group', 'aria-label': P.replay.slider },
      button('replay-first', P.replay.first, '«', () => this.step('first')),
      button('replay-prev', P.replay.prev, '‹', () => this.step('prev')),
      this.playButton,
      button('replay-next', P.replay.next, '›', () => this.step('next')),
      button('replay-last', P.replay.last, '»', () => this.step('last')),
      this.slider,
    );
    this.permalink.addEventListener('click', (e) => {
      e.preventDefault();
      history.replaceState(null, '', this.permalink.getAttribute('href') ?? '');
      void navigator.clipboard?.writeText(this.permalink.href).catch(() => undefined);
    });
    const boardCol = h(
      'section',
      { class: 'board-col' },
      this.pane.element,
      controls,
      h('div', { class: 'row spread' }, this.label, h('label', { class: 'view-from' }, `${S.game.viewAs} `, this.pane.viewSelect), this.permalink),
    );
    const side = h('aside', { class: 'side' }, this.resultCard(), this.storyCard(), this.exportCard());
    this.element = h('main', { class: 'game replay', id: 'replay', 'data-total': total }, boardCol, side);
    const onKey = (e: KeyboardEvent): void => this.key(e);
    const onHash = (): void => {
      const n = parsePlyHash(location.hash, total);
      if (n !== null) this.go(n, false);
    };
    document.addEventListener('keydown', onKey);
    window.addEventListener('hashchange', onHash);
    this.stop = () => {
      document.removeEventListener('keydown', onKey);
      window.removeEventListener('hashchange', onHash);
    };
    void this.pane.create().then(() => this.render(false));
    this.render(false);
  }

  dispose(): void {
    this.pause();
    this.stop();
    this.pane.dispose();
    for (const u of this.urls) URL.revokeObjectURL(u);
  }

  private name(c: Colour): string {
    return this.opts.names[c] || S.colour(c);
  }

  private resultCard(): HTMLElement {
    const end = this.session.view.live;
    const r = end?.result ?? null;
    const text = r
      ? r.kind === 'win'
        ? [swatch(r.winner), S.status.resultWin(this.name(r.winner))]
        : S.status.resultDraw(r.reason)
      : this.opts.finished
        ? P.replay.noResult
        : P.replay.inProgress;
    const players = (Object.entries(this.opts.names) as [Colour, string][]).map(([c, n]) => h('li', {}, swatch(c), ` ${n}`));
    return h(
      'section',
      { class: 'card', id: 'replay-result' },
      h('h2', {}, P.replay.result),
      h('p', { class: 'turn', id: 'replay-outcome' }, text),
      players.length ? h('ul', { class: 'players' }, ...players) : null,
      this.opts.rematch ? h('p', {}, link(`/g/${this.opts.rematch}`, P.replay.rematchOf(this.opts.rematch), { id: 'replay-rematch' })) : null,
    );
  }

  private storyCard(): HTMLElement {
    const note = !this.opts.revealAsked ? null : !this.opts.reveal ? P.replay.noReveal : this.opts.reveal.conversations ? null : P.replay.revealHidden;
    return h(
      'section',
      { class: 'card moves-card' },
      h('h2', {}, this.opts.reveal ? P.replay.story : S.moves.title),
      note ? h('p', { class: 'hint' }, note) : null,
      this.olderButton,
      h('div', { class: 'moves-scroll story-scroll' }, this.story),
    );
  }

  /** Loads one older page of every revealed channel that has one, and places them in the story. */
  private async loadOlder(): Promise<void> {
    const load = this.opts.loadOlder;
    if (!this.press || !load || this.loadingOlder) return;
    this.loadingOlder = true;
    this.setOlderButton();
    try {
      for (const req of this.press.older()) this.press.addPage(await load(req));
      this.olderButton.removeAttribute('data-error');
    } catch (e) {
      this.olderButton.dataset.error = e instanceof Error ? e.message : String(e);
    } finally {
      this.loadingOlder = false;
    }
    this.rows = interleave(this.game.plies, this.press.timeline);
    this.setOlderButton();
    this.renderStory(this.cursor.index);
  }

  private setOlderButton(): void {
    const more = this.opts.loadOlder !== null && (this.press?.older().length ?? 0) > 0;
    this.olderButton.hidden = !more;
    this.olderButton.disabled = this.loadingOlder;
    this.olderButton.setAttribute('aria-busy', this.loadingOlder ? 'true' : 'false');
    setText(this.olderButton, this.loadingOlder ? S.press.loadingOlder : S.press.loadOlder);
  }

  private exportCard(): HTMLElement {
    let text: string;
    let json: string;
    const file = `djambi${this.opts.code ? `-${this.opts.code}` : ''}`;
    if (this.opts.exports) ({ text, json } = this.opts.exports);
    else {
      text = this.blob(makeRecord(this.game.record), 'text/plain');
      json = this.blob(`${JSON.stringify(this.game.record, null, 1)}\n`, 'application/json');
    }
    return h(
      'section',
      { class: 'card' },
      h('h2', {}, P.replay.exportTitle),
      h(
        'p',
        { class: 'row' },
        h('a', { id: 'export-text', href: text, download: `${file}.txt` }, P.replay.exportText),
        h('a', { id: 'export-json', href: json, download: `${file}.json` }, P.replay.exportJson),
      ),
    );
  }

  private blob(content: string, type: string): string {
    const url = URL.createObjectURL(new Blob([content], { type }));
    this.urls.push(url);
    return url;
  }

  private key(e: KeyboardEvent): void {
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT') && t !== this.slider) return;
    if (e.key === 'ArrowLeft') this.step('prev');
    else if (e.key === 'ArrowRight') this.step('next');
    else if (e.key === 'Home') this.step('first');
    else if (e.key === 'End') this.step('last');
    else if (e.key === ' ' && t?.tagName !== 'BUTTON') this.togglePlay();
    else return;
    e.preventDefault();
  }

  private step(where: ReplayStep): void {
    if (where !== 'next') this.pause();
    if (this.cursor.step(where)) this.render(true);
  }

  private go(n: number, updateHash = true): void {
    if (this.cursor.go(n)) this.render(updateHash);
  }

  private togglePlay(): void {
    if (this.timer !== null) return this.pause();
    if (this.cursor.atEnd) this.cursor.go(0);
    this.timer = setInterval(() => {
      if (!this.cursor.step('next') || this.cursor.atEnd) this.pause();
      this.render(true);
    }, PLAY_MS);
    this.setPlayButton();
    this.render(true);
  }

  private pause(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.setPlayButton();
  }

  private setPlayButton(): void {
    const playing = this.timer !== null;
    setText(this.playButton, playing ? '❚❚' : '▶');
    this.playButton.setAttribute('aria-label', playing ? P.replay.pause : P.replay.play);
    this.playButton.title = playing ? P.replay.pause : P.replay.play;
  }

  private render(updateHash: boolean): void {
    const n = this.cursor.index;
    const total = this.cursor.total;
    this.pane.animation.settle();
    this.session.viewMove(n >= total ? null : n);
    const v = this.session.view;
    this.controller.setPosition(v.shown, null, { started: true, history: true });
    this.pane.refresh();
    const last = n > 0 ? this.game.moves[n - 1] : null;
    setText(
      this.label,
      n === 0
        ? `${P.replay.position(0, total)} · ${P.replay.start}`
        : `${P.replay.position(n, total)} · ${last?.colour ? `${S.colour(last.colour)} ` : ''}${last ? moveText(last) : ''}`,
    );
    this.slider.value = String(n);
    this.element.dataset.ply = String(n);
    this.element.dataset.fen = v.shown ? makeFen(v.shown) : '';
    this.permalink.setAttribute('href', plyHash(n));
    if (updateHash && location.hash !== plyHash(n)) history.replaceState(null, '', `${location.pathname}${location.search}${plyHash(n)}`);
    this.renderStory(n);
  }

  private renderStory(n: number): void {
    const rows = this.rows.map((row) => {
      if (row.kind === 'move') {
        const m = this.game.moves[row.index];
        const k = row.index + 1;
        return h(
          'li',
          { class: k === n ? 'current' : k > n ? 'future' : '' },
          h(
            'button',
            {
              type: 'button',
              class: 'move',
              'data-ply': k,
              'aria-current': k === n ? 'step' : null,
              'aria-label': S.moves.moveLabel(k, `${m.colour ? S.colour(m.colour) : ''} ${moveText(m)}`),
              onclick: () => this.go(k),
            },
            h('span', { class: 'muted' }, `${k}. `),
            m.colour ? swatch(m.colour) : null,
            moveText(m),
          ),
        );
      }
      return h('li', { class: `press-row ${row.after > n ? 'future' : ''}` }, this.pressText(row.item));
    });
    replace(this.story, ...rows);
    (this.story.querySelector('.current') as HTMLElement | null)?.scrollIntoView?.({ block: 'nearest' });
  }

  private pressText(item: RevealItem): string {
    const by = (c: Colour | null): string => (c ? this.name(c) : '');
    const members = (cs: readonly Colour[]): string => cs.map((c) => this.name(c)).join(' · ');
    switch (item.kind) {
      case 'message': {
        // A private or group channel reads as its members' names, as in the live reveal.
        const where =
          item.channel === 'table'
            ? S.press.table
            : item.channel === 'spectators'
              ? S.press.spectators
              : members(channelMembers(this.opts.reveal, item.channel));
        const from = item.name ?? (/^[RBYGPW]$/.test(item.from) ? this.name(item.from as Colour) : item.from);
        return `${S.reveal.where(where)} ${from}: ${item.text}`;
      }
      case 'channel':
        return S.reveal.channelOpened(by(item.by), members(item.members.filter((c) => c !== item.by)));
      case 'pact': {
        const pact = this.opts.reveal?.pacts.find((p) => p.id === item.pactId);
        const fn = S.pacts.event[item.event] ?? S.pacts.event.proposed;
        return fn(by(item.by), pact ? members(pact.members) : '');
      }
      case 'betrayal':
        return S.pacts.betrayal(
          this.name(item.traitor),
          this.name(item.victim),
          item.acts.map((a) => S.pacts.acts[a] ?? a).join(', '),
          item.ply + 1,
          item.turnText,
        );
      case 'draw':
        return S.reveal.draw(item.event, by(item.by));
    }
  }
}
