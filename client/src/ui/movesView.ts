/** The move list card: the entries, the history navigation and the record link. */
import { movesToRecord } from '../game/recordExport.js';
import type { SessionView, Step } from '../game/session.js';
import { S } from '../i18n/strings.js';
import { h, link } from './dom.js';
import { renderMoves } from './panels.js';

export class MovesView {
  private readonly list = h('div', { id: 'moves', class: 'moves-scroll' });
  readonly element: HTMLElement;
  private latest: SessionView | null = null;
  private url: string | null = null;

  constructor(
    code: string,
    private readonly step: (where: Step) => void,
    private readonly pick: (n: number | null) => void,
  ) {
    const button = (id: string, label: string, where: Step, text: string): HTMLElement =>
      h('button', { type: 'button', id, 'aria-label': label, onclick: () => this.step(where) }, text);
    const nav = h(
      'div',
      { class: 'move-nav', role: 'group', 'aria-label': S.moves.title },
      button('nav-first', S.controls.first, 'first', '«'),
      button('nav-prev', S.controls.prev, 'prev', '‹'),
      button('nav-next', S.controls.next, 'next', '›'),
      button('nav-last', S.controls.last, 'last', '»'),
    );
    this.element = h(
      'section',
      { class: 'card moves-card', 'aria-label': S.moves.title },
      h('div', { class: 'row spread' }, h('h2', {}, S.moves.title), nav),
      this.list,
      h(
        'p',
        { class: 'muted record-link' },
        h('a', { id: 'record-link', href: `/api/rooms/${code}/record`, target: '_blank', rel: 'noopener' }, S.moves.record),
        ' · ',
        h('a', { id: 'record-json', href: '#', download: `djambi-${code}.json`, onclick: () => this.exportJson() }, S.moves.recordJson),
        ' · ',
        link(`/g/${code}/replay`, S.moves.replay, { id: 'replay-open' }),
      ),
    );
  }

  /**
   * Arrow keys step through the moves (outside text fields); Escape calls `onEscape`.
   * Returns the function that stops listening.
   */
  listenKeys(onEscape: () => void): () => void {
    const onKey = (e: KeyboardEvent): void => {
      const target = e.target as HTMLElement | null;
      if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT')) return;
      if (e.key === 'ArrowLeft') this.step('prev');
      else if (e.key === 'ArrowRight') this.step('next');
      else if (e.key === 'Escape') onEscape();
      else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }

  /** Point the JSON link at the record built from the move list now (the click then downloads it). */
  private exportJson(): void {
    const v = this.latest;
    const a = this.element.querySelector<HTMLAnchorElement>('#record-json');
    if (!v?.snapshot || !a) return;
    if (this.url) URL.revokeObjectURL(this.url);
    const record = movesToRecord(v.snapshot.rules, v.moves);
    this.url = URL.createObjectURL(new Blob([`${JSON.stringify(record, null, 1)}\n`], { type: 'application/json' }));
    a.href = this.url;
  }

  render(v: SessionView): void {
    this.latest = v;
    const total = v.moves.length;
    renderMoves(this.list, v.moves, v.historyIndex, v.replayed, (n) => this.pick(n >= total ? null : n));
  }
}
