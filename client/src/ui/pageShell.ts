/** The game page's frame: the header, the banner, the talk column, the board column and the side. */
import { languageSelect } from '../i18n/languageSelect.js';
import { S } from '../i18n/strings.js';
import { h, link, replace } from './dom.js';

export interface ShellParts {
  readonly code: string;
  readonly viewSelect: HTMLElement;
  readonly talkLink: HTMLElement;
  readonly banner: HTMLElement;
  readonly talkColumn: HTMLElement;
  readonly boardCol: HTMLElement;
  /** The board column's content, top to bottom. */
  readonly board: readonly HTMLElement[];
  /** The side cards, top to bottom. */
  readonly side: readonly HTMLElement[];
  readonly announce: HTMLElement;
}

/** Fill `root` with the page. */
export function buildShell(root: HTMLElement, p: ShellParts): void {
  replace(p.boardCol, ...p.board);
  // The board and its coordinates read left to right in every language (Arabic mirrors the page, not the board).
  for (const el of p.boardCol.querySelectorAll('.board-wrap')) el.setAttribute('dir', 'ltr');
  replace(
    root,
    h(
      'header',
      { class: 'top game-top' },
      link('/', S.appName, { class: 'brand' }),
      h('h1', {}, S.game.code(p.code)),
      h('nav', {}, h('label', { class: 'view-from' }, `${S.game.viewAs} `, p.viewSelect), p.talkLink, link('/rules', S.game.rulesLink), languageSelect()),
    ),
    p.banner,
    h('main', { class: 'game' }, p.talkColumn, p.boardCol, h('aside', { class: 'side' }, ...p.side)),
    p.announce,
  );
}
