/**
 * Entry point: client-side routing on `location.pathname` (the server falls back to this page
 * for /g/CODE and /rules). The game page, with Pixi, is loaded only when needed; the replay
 * viewer (`/g/CODE/replay`, `/replay`, and a finished game whose room is gone) is a chunk of its own.
 * The home, rules and replay pages load their strings (`loadPageStrings`) beside their chunk.
 */
import './ui/styles.css';
import { initLocale, loadPageStrings, S } from './i18n/strings.js';
import { h, replace } from './ui/dom.js';

/** What a page leaves behind to clean up when the route changes. */
export type Dispose = () => void;

/** Render the page of the current path into `root`, and again on every navigation. */
function startRouter(root: HTMLElement): void {
  let dispose: Dispose | null = null;
  let seq = 0;
  // Every page change starts at the top (the router, not the browser, draws each page).
  history.scrollRestoration = 'manual';
  const route = async (): Promise<void> => {
    const mine = ++seq;
    dispose?.();
    dispose = null;
    window.scrollTo(0, 0);
    const path = location.pathname.replace(/\/+$/, '') || '/';
    const game = /^\/g\/([A-Za-z0-9]{4,12})$/.exec(path);
    const replay = /^\/g\/([A-Za-z0-9]{4,12})\/replay$/.exec(path);
    /** The replay chunk, in place of whatever page is shown. */
    const showReplay = async (source: import('./ui/replayPage.js').ReplaySource): Promise<void> => {
      if (mine !== seq) return;
      dispose?.();
      dispose = null;
      const [{ renderReplay }] = await Promise.all([import('./ui/replayPage.js'), loadPageStrings()]);
      if (mine === seq) dispose = renderReplay(root, source);
    };
    if (path === '/') {
      document.title = S.title.home;
      // A chunk of its own, so that the game page does not load the home page's code.
      const [{ renderHome }] = await Promise.all([import('./ui/home.js'), loadPageStrings()]);
      if (mine === seq) dispose = renderHome(root);
    } else if (game) {
      replace(root, h('p', { class: 'loading' }, S.loading));
      const { renderGame } = await import('./ui/gamePage.js');
      const code = game[1].toUpperCase();
      // The room is gone (a finished game): show it from the archive.
      if (mine === seq) dispose = renderGame(root, code, { gone: () => void showReplay({ kind: 'archive', code, replay: false }) });
    } else if (replay) {
      replace(root, h('p', { class: 'loading' }, S.loading));
      await showReplay({ kind: 'archive', code: replay[1].toUpperCase(), replay: true });
    } else if (path === '/replay') {
      replace(root, h('p', { class: 'loading' }, S.loading));
      await showReplay({ kind: 'import' });
    } else if (path === '/rules') {
      document.title = S.title.rules;
      const [{ renderRules }] = await Promise.all([import('./ui/rulesPage.js'), loadPageStrings()]);
      if (mine === seq) dispose = renderRules(root);
    } else {
      replace(root, h('main', { class: 'page narrow' }, h('h1', {}, S.notFound), h('p', {}, h('a', { href: '/' }, S.nav.home))));
    }
  };
  window.addEventListener('popstate', () => void route());
  void route();
}

// The language (and its chunk) first: every page renders in it.
void initLocale().then(() => startRouter(document.getElementById('app')!));
