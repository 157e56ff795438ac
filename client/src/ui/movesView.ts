/**
 * The move list card: the entries told as sentences (`Red militant c3×d4 kills Blue assassin,
 * corpse to a5`, the notation on hover or through the toggle), the history navigation and the
 * record link.
 */
import { describeEntry, MARK_GLYPHS, type MoveDescription } from '../game/moveDescription.js';
import { movesToRecord } from '../game/recordExport.js';
import type { SessionView, Step } from '../game/session.js';
import type { TimelineEntry } from '../game/timeline.js';
import { S } from '../i18n/strings.js';
import { h, link, replace } from './dom.js';
import { moveText, swatch } from './panels.js';
import { pieceIcon } from './pieceIcon.js';
import { pref } from './prefs.js';

export class MovesView {
  private readonly list = h('div', { id: 'moves', class: 'moves-scroll' });
  readonly element: HTMLElement;
  private latest: SessionView | null = null;
  private url: string | null = null;
  /** Descriptions by entry (entries are immutable once replayed). */
  private readonly described = new WeakMap<TimelineEntry, MoveDescription>();
  private notation = pref.get('notation', false);
  private readonly notationBox = h('input', { type: 'checkbox', id: 'notation-toggle', checked: this.notation });

  constructor(
    code: string,
    private readonly step: (where: Step) => void,
    private readonly pick: (n: number | null) => void,
  ) {
    this.notationBox.addEventListener('change', () => {
      this.notation = this.notationBox.checked;
      pref.set('notation', this.notation);
      if (this.latest) this.render(this.latest);
    });
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
      h('label', { class: 'muted notation-toggle', title: S.table.notationHint }, this.notationBox, ' ', S.table.notation),
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
   * Arrow keys step through the moves (outside text fields, and not when a widget took the key:
   * the board's keyboard grid, the talk's tabs); Escape calls `onEscape`.
   * Returns the function that stops listening.
   */
  listenKeys(onEscape: () => void): () => void {
    const onKey = (e: KeyboardEvent): void => {
      const target = e.target as HTMLElement | null;
      if (e.defaultPrevented || target?.closest?.('input, textarea, select, [role="grid"], [role="tablist"]')) return;
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
    const names = Object.fromEntries(v.snapshot.seats.filter((s) => s.name).map((s) => [s.colour, s.name]));
    const record = movesToRecord(v.snapshot.rules, v.moves, { site: `${location.origin}/g/${v.snapshot.code}`, names });
    this.url = URL.createObjectURL(new Blob([`${JSON.stringify(record, null, 1)}\n`], { type: 'application/json' }));
    a.href = this.url;
  }

  render(v: SessionView): void {
    this.latest = v;
    const moves = v.moves;
    const total = moves.length;
    if (total === 0) {
      replace(this.list, h('p', { class: 'muted' }, S.moves.none));
      return;
    }
    const current = v.historyIndex ?? total;
    const items = moves.map((m, i) => {
      const n = i + 1;
      const entry = i < v.replayed ? v.entries[i] : undefined;
      const d = entry ? this.describe(entry) : null;
      const text = d && !this.notation ? d.text : moveText(m);
      // Turns and passes name their player; a resignation or a timeout takes the colour first.
      const said = d && (m.kind === 'turn' || m.kind === 'pass') && !this.notation ? text : `${m.colour ? S.colour(m.colour) : ''} ${text}`.trim();
      // A resignation or a timeout is its own elimination: only turns and passes carry marks.
      const marks = d && !this.notation && (m.kind === 'turn' || m.kind === 'pass') ? d.marks.map((k) => MARK_GLYPHS[k]).join('') : '';
      return h(
        'li',
        { class: n === current ? 'current' : '' },
        h(
          'button',
          {
            type: 'button',
            class: 'move',
            disabled: n > v.replayed,
            title: d ? d.notation : null,
            'data-marks': d ? d.marks.join(' ') : null,
            'aria-current': n === current ? 'step' : null,
            'aria-label': S.moves.moveLabel(n, said),
            onclick: () => this.pick(n >= total ? null : n),
          },
          m.colour ? swatch(m.colour) : null,
          d?.kind && !this.notation ? pieceIcon(d.kind) : null,
          text,
          marks ? h('span', { class: 'marks', 'aria-hidden': 'true' }, marks) : null,
        ),
      );
    });
    const list = h('ol', { class: this.notation ? 'moves numbered' : 'moves numbered told' }, ...items);
    replace(this.list, list);
    const cur = list.querySelector('.current');
    if (cur && v.historyIndex === null) this.list.scrollTop = this.list.scrollHeight;
    else (cur as HTMLElement | null)?.scrollIntoView?.({ block: 'nearest' });
  }

  private describe(entry: TimelineEntry): MoveDescription {
    let d = this.described.get(entry);
    if (!d) {
      d = describeEntry(entry);
      this.described.set(entry, d);
    }
    return d;
  }
}
