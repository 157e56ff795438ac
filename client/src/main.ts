/**
 * Entry point: client-side routing on `location.pathname` (the server falls back to this page
 * for /g/CODE and /rules). The game page, with Pixi, is loaded only when needed.
 */
import './ui/styles.css';
import { S } from './i18n/strings.js';
import { h, replace } from './ui/dom.js';
import { renderHome } from './ui/home.js';

/** What a page leaves behind to clean up when the route changes. */
export type Dispose = () => void;

/** Render the page of the current path into `root`, and again on every navigation. */
function startRouter(root: HTMLElement): void {
  let dispose: Dispose | null = null;
  let seq = 0;
  const route = async (): Promise<void> => {
    const mine = ++seq;
    dispose?.();
    dispose = null;
    const path = location.pathname.replace(/\/+$/, '') || '/';
    const game = /^\/g\/([A-Za-z0-9]{4,12})$/.exec(path);
    if (path === '/') {
      document.title = S.title.home;
      dispose = renderHome(root);
    } else if (game) {
      replace(root, h('p', { class: 'loading' }, S.loading));
      const { renderGame } = await import('./ui/gamePage.js');
      if (mine === seq) dispose = renderGame(root, game[1].toUpperCase());
    } else if (path === '/rules') {
      document.title = S.title.rules;
      const { renderRules } = await import('./ui/rulesPage.js');
      if (mine === seq) dispose = renderRules(root);
    } else {
      replace(root, h('main', { class: 'page narrow' }, h('h1', {}, S.notFound), h('p', {}, h('a', { href: '/' }, S.nav.home))));
    }
  };
  window.addEventListener('popstate', () => void route());
  void route();
}

startRouter(document.getElementById('app')!);
