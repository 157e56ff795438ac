/**
 * The negotiation panel ("Talk"): channels as tabs with unread badges, the selected channel's
 * messages (older ones loaded from the server on request) and a message box, group
 * conversations, pacts (propose, answer, leave), betrayal alerts and, after the game, the
 * reveal. Plain DOM from the `PressModel`; every message and name goes in as text, never as HTML.
 */
import { COLOURS, MAX_MESSAGE_CHARS, type Betrayal, type Colour, type PactView, type PressReveal, type RevealItem } from '@djambi/shared';
import {
  REVEAL_TAB,
  SPECTATORS,
  groupByPly,
  muteTargetOf,
  sortColours,
  type FeedItem,
  type MuteTarget,
  type PressModel,
  type PressTab,
} from '../game/press.js';
import { displayName, S } from '../i18n/strings.js';
import { h, replace, setText } from './dom.js';
import { swatch } from './panels.js';

/** Lines of a channel drawn at first (and added by each "earlier" click). */
const FEED_PAGE = 200;

/** What the panel needs from the page. */
export interface PressPanelOptions {
  /** The display name of a seat (its player's name, else the colour). */
  seatName(c: Colour): string;
}

/** The "Talk" card. */
export class PressPanel {
  /** The card (`#talk`). */
  readonly element: HTMLElement;
  private readonly alertsEl = h('div', { id: 'press-alerts', class: 'press-alerts', role: 'alert' });
  private readonly tabsEl = h('div', { id: 'press-tabs', class: 'tabs', role: 'tablist', 'aria-label': S.press.tabsLabel });
  private readonly groupToggle = h('button', { type: 'button', id: 'press-new-group', class: 'small', 'aria-expanded': 'false' }, S.press.newGroup);
  private readonly groupForm = h('form', { id: 'press-group', class: 'press-group', hidden: true });
  private readonly feedEl = h('div', { id: 'press-feed', class: 'feed', role: 'tabpanel', tabindex: 0 });
  private readonly input = h('textarea', { id: 'press-input', rows: 2, 'aria-label': S.press.placeholderTable, 'aria-describedby': 'press-count' });
  private readonly counter = h('span', { id: 'press-count', class: 'counter', 'aria-live': 'off' });
  private readonly sendButton = h('button', { type: 'submit', id: 'press-send', class: 'primary' }, S.press.send);
  private readonly form = h('form', { id: 'press-form', class: 'composer' });
  private readonly note = h('p', { id: 'press-note', class: 'muted', hidden: true });
  private readonly chatError = h('p', { id: 'press-error', class: 'error', role: 'alert' });
  private readonly existsEl = h('p', { id: 'press-exists', class: 'muted', hidden: true });
  private readonly pactsEl = h('div', { id: 'pacts', class: 'pacts' });
  private readonly pactError = h('p', { id: 'pact-error', class: 'error', role: 'alert' });
  private readonly proposeBox = h('details', { id: 'pact-propose', class: 'pact-propose' });
  private readonly proposeForm = h('form', { id: 'pact-form' });
  private readonly proposeNote = h('p', { class: 'error', id: 'pact-form-error' });
  private readonly pactsCard = h('section', { id: 'pacts-card', class: 'pacts-card', 'aria-label': S.pacts.title });
  private readonly revealEl = h('div', { id: 'press-reveal', class: 'reveal', hidden: true });
  private readonly status = h('p', { id: 'press-status', class: 'muted' }, S.press.connecting);
  private feedKey = '';
  private feedLimit = FEED_PAGE;
  /** The first line of the feed drawn last, to see older lines arrive in front. */
  private feedFirst = '';
  private partnersKey = '';
  private shownReveal: PressReveal | null = null;
  private shownRevealLoading = '';
  private focusOnOpen = false;
  private lastSelected = '';
  private readonly unsubscribe: () => void;

  constructor(
    private readonly model: PressModel,
    private readonly options: PressPanelOptions,
  ) {
    this.element = h(
      'section',
      { id: 'talk', class: 'card talk', 'aria-label': S.press.title },
      h('h2', {}, S.press.title),
      this.status,
      this.alertsEl,
      h('div', { class: 'tab-row' }, this.tabsEl, this.groupToggle),
      this.groupForm,
      this.feedEl,
      this.revealEl,
      this.form,
      this.note,
      this.chatError,
      this.existsEl,
      this.pactsCard,
    );
    replace(this.form, this.input, h('div', { class: 'composer-row' }, this.counter, this.sendButton));
    this.input.addEventListener('input', () => this.model.setDraft(this.input.value));
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        this.model.sendDraft();
      }
    });
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.model.sendDraft();
      this.input.focus();
    });
    this.groupToggle.addEventListener('click', () => {
      this.groupForm.hidden = !this.groupForm.hidden;
      this.groupToggle.setAttribute('aria-expanded', String(!this.groupForm.hidden));
    });
    this.groupForm.addEventListener('submit', (e) => {
      e.preventDefault();
      const chosen = checked(this.groupForm, 'group-with');
      if (chosen.length < 2) return;
      this.focusOnOpen = true;
      this.model.openWith(chosen);
      this.groupForm.hidden = true;
      this.groupToggle.setAttribute('aria-expanded', 'false');
    });
    this.proposeForm.addEventListener('submit', (e) => {
      e.preventDefault();
      this.propose();
    });
    replace(this.pactsCard, h('h3', {}, S.pacts.title), this.pactsEl, this.pactError, this.proposeBox);
    this.unsubscribe = model.subscribe(() => this.render());
    this.render();
  }

  /** Open (or show) the private conversation with a seat, and put the cursor in its message box. */
  talkWith(c: Colour): void {
    this.focusOnOpen = true;
    this.model.openWith([c]);
    this.render();
  }

  /** The element whose visibility means "the channel is being read". */
  get feed(): HTMLElement {
    return this.feedEl;
  }

  /** Stop listening to the model. */
  dispose(): void {
    this.unsubscribe();
  }

  /** Draw everything from the model (called on every change; cheap parts are rebuilt). */
  render(): void {
    const m = this.model;
    this.status.hidden = m.ready;
    this.renderAlerts(m.alerts);
    this.renderTabs(m.tabs(), m.selected);
    this.renderPartners(m.partners());
    const showReveal = m.selected === REVEAL_TAB;
    this.feedEl.hidden = showReveal;
    this.revealEl.hidden = !showReveal;
    if (showReveal) this.renderReveal(m.reveal);
    else this.renderFeed(m.selected, m.feed(m.selected));
    this.renderComposer(showReveal);
    this.renderError();
    this.renderExists();
    this.renderPacts();
    if (this.focusOnOpen && !m.opening && this.lastSelected !== m.selected && m.compose(m.selected) === 'ok') {
      this.focusOnOpen = false;
      this.element.scrollIntoView?.({ block: 'nearest' });
      this.input.focus();
    }
    if (!m.opening && m.error?.area === 'open') this.focusOnOpen = false;
    this.lastSelected = m.selected;
  }

  // ---- parts -----------------------------------------------------------------------------------

  private names(cs: readonly Colour[]): string {
    return S.press.names(cs.map((c) => this.options.seatName(c)));
  }

  private pactMembers(p: PactView): string {
    return S.pacts.members(p.members.map((c) => this.options.seatName(c)));
  }

  /** The name of a mute target: a seat's name, or "the spectators". */
  private muteName(target: MuteTarget): string {
    return target === SPECTATORS ? S.press.spectatorsGroup : this.options.seatName(target);
  }

  /** "n hidden" lines of the muted authors in `selected`, each with its Unmute button. */
  private hiddenLines(selected: string): HTMLElement | null {
    const hidden = this.model.hiddenIn(selected);
    if (hidden.length === 0) return null;
    return h(
      'ul',
      { class: 'muted-authors', id: 'press-hidden' },
      ...hidden.map(({ target, count }) =>
        h(
          'li',
          { class: 'muted small' },
          S.press.hiddenFrom(count, this.muteName(target)),
          ' ',
          h(
            'button',
            { type: 'button', class: 'small link', 'data-unmute': target, onclick: () => this.model.unmute(target) },
            S.press.unmute(this.muteName(target)),
          ),
        ),
      ),
    );
  }

  private memberName(from: string, name = ''): string {
    const c = sortColours([from as Colour])[0];
    return c ? this.options.seatName(c) : displayName(name) || S.press.spectator;
  }

  private renderAlerts(alerts: readonly Betrayal[]): void {
    if (alerts.length === 0) {
      if (this.alertsEl.firstChild) replace(this.alertsEl);
      this.alertsEl.hidden = true;
      return;
    }
    this.alertsEl.hidden = false;
    const key = alerts.map((b) => `${b.pactId}${b.traitor}${b.victim}${b.ply}`).join('|');
    if (this.alertsEl.dataset.key === key) return;
    this.alertsEl.dataset.key = key;
    replace(
      this.alertsEl,
      h('strong', {}, S.pacts.betrayalTitle),
      h('ul', {}, ...alerts.map((b) => h('li', { class: 'betrayal' }, this.betrayalText(b)))),
      h('button', { type: 'button', class: 'small', id: 'press-alerts-dismiss', onclick: () => this.model.dismissAlerts() }, S.press.dismiss),
    );
  }

  private betrayalText(b: Betrayal): string {
    const acts = b.acts.map((a) => S.pacts.acts[a] ?? a).join(', ');
    return S.pacts.betrayal(this.options.seatName(b.traitor), this.options.seatName(b.victim), acts, b.ply + 1, b.turnText);
  }

  private tabLabel(t: PressTab): (HTMLElement | string)[] {
    switch (t.kind) {
      case 'table':
        return [S.press.table];
      case 'spectators':
        return [S.press.spectators];
      case 'reveal':
        return [S.press.reveal];
      default:
        return [...t.others.map((c) => swatch(c)), this.names(t.others)];
    }
  }

  private renderTabs(tabs: readonly PressTab[], selected: string): void {
    const key = `${selected}|${tabs.map((t) => `${t.id}:${t.unread}:${t.others.map((c) => this.options.seatName(c)).join(',')}`).join('|')}`;
    if (this.tabsEl.dataset.key === key) return;
    this.tabsEl.dataset.key = key;
    const hadFocus = this.tabsEl.contains(document.activeElement);
    replace(
      this.tabsEl,
      ...tabs.map((t) => {
        const on = t.id === selected;
        const title =
          t.kind === 'private' ? S.press.privateWith(this.names(t.others)) : t.kind === 'group' ? S.press.groupWith(this.names(t.others)) : undefined;
        return h(
          'button',
          {
            type: 'button',
            role: 'tab',
            class: `tab ${t.kind}${t.unread ? ' has-unread' : ''}`,
            'data-channel': t.id,
            'aria-selected': on ? 'true' : 'false',
            'aria-controls': t.kind === 'reveal' ? 'press-reveal' : 'press-feed',
            tabindex: on ? 0 : -1,
            title,
            onclick: () => {
              this.model.select(t.id);
              // The chosen channel's messages come on screen (a tall side column may hide them).
              if (t.kind !== 'reveal') this.feedEl.scrollIntoView({ block: 'nearest' });
            },
            onkeydown: ((e: KeyboardEvent) => this.tabKey(e, tabs, t.id)) as EventListener,
          },
          ...this.tabLabel(t),
          t.unread > 0 ? h('span', { class: 'badge', 'aria-label': S.press.unread(t.unread) }, String(t.unread)) : null,
        );
      }),
    );
    if (hadFocus) (this.tabsEl.querySelector('[aria-selected="true"]') as HTMLElement | null)?.focus();
  }

  private tabKey(e: KeyboardEvent, tabs: readonly PressTab[], id: string): void {
    const i = tabs.findIndex((t) => t.id === id);
    const next = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? tabs.length - 1 : null;
    if (next === null) return;
    e.preventDefault();
    this.model.select(tabs[(next + tabs.length) % tabs.length].id);
  }

  private renderPartners(partners: readonly Colour[]): void {
    const key = partners.map((c) => `${c}${this.options.seatName(c)}`).join('|');
    this.groupToggle.hidden = partners.length < 2;
    if (partners.length < 2) this.groupForm.hidden = true;
    if (key === this.partnersKey) return;
    this.partnersKey = key;
    const boxes = (name: string): HTMLElement[] =>
      partners.map((c) => h('label', { class: 'check' }, h('input', { type: 'checkbox', name, value: c }), swatch(c), this.options.seatName(c)));
    replace(
      this.groupForm,
      h('fieldset', { class: 'choices' }, h('legend', {}, S.press.groupHint), ...boxes('group-with')),
      h('button', { type: 'submit', class: 'small', id: 'press-open-group' }, S.press.openGroup),
    );
    replace(
      this.proposeForm,
      h('fieldset', { class: 'choices' }, h('legend', {}, S.pacts.proposeWith), ...boxes('pact-with')),
      h(
        'label',
        { class: 'field' },
        S.pacts.proposeRounds,
        h('input', {
          type: 'number',
          name: 'rounds',
          id: 'pact-rounds',
          min: 1,
          max: 1000,
          step: 1,
          inputmode: 'numeric',
          placeholder: S.pacts.proposeRoundsHint,
        }),
      ),
      h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'announce', id: 'pact-announce' }), S.pacts.proposeAnnounce),
      this.proposeNote,
      h('button', { type: 'submit', class: 'small primary', id: 'pact-submit' }, S.pacts.proposeSubmit),
    );
    replace(this.proposeBox, h('summary', {}, S.pacts.propose), h('p', { class: 'hint' }, S.pacts.explain), this.proposeForm);
  }

  private propose(): void {
    const chosen = checked(this.proposeForm, 'pact-with');
    if (chosen.length < 1) {
      setText(this.proposeNote, S.pacts.proposeNeedsOne);
      return;
    }
    setText(this.proposeNote, '');
    const roundsInput = this.proposeForm.querySelector<HTMLInputElement>('#pact-rounds');
    const raw = roundsInput?.value.trim() ?? '';
    const rounds = raw === '' ? null : Math.round(Number(raw));
    const announce = this.proposeForm.querySelector<HTMLInputElement>('#pact-announce')?.checked ?? false;
    this.model.propose(chosen, rounds !== null && Number.isFinite(rounds) ? rounds : null, announce);
    this.proposeForm.reset();
    this.proposeBox.open = false;
  }

  private renderFeed(selected: string, all: readonly FeedItem[]): void {
    const m = this.model;
    const switched = !this.feedKey.startsWith(`${selected}|`);
    if (switched) this.feedLimit = FEED_PAGE;
    // Older lines loaded from the server came in front: show them too, where the reader is.
    const first = all.length > 0 ? itemKey(all[0]) : '';
    const prepended = !switched && this.feedFirst !== '' && first !== this.feedFirst ? all.findIndex((item) => itemKey(item) === this.feedFirst) : -1;
    if (prepended > 0) this.feedLimit += prepended;
    this.feedFirst = first;
    // Long conversations show their end; earlier lines come on request, from memory then from the server.
    const items = all.length > this.feedLimit ? all.slice(all.length - this.feedLimit) : all;
    const older = all.length === items.length && m.hasOlder(selected);
    const loading = m.loadingOlder(selected);
    const names = COLOURS.map((c) => this.options.seatName(c)).join(',');
    const hiddenKey = m
      .hiddenIn(selected)
      .map((x) => `${x.target}:${x.count}`)
      .join(',');
    const key = `${selected}|${all.length}|${older}|${loading}|${items.map(itemKey).join(',')}|${names}|${hiddenKey}|${m.muted.join('')}`;
    if (key === this.feedKey) return;
    this.feedKey = key;
    const el = this.feedEl;
    const atBottom = switched || el.scrollHeight - el.scrollTop - el.clientHeight < 24;
    const fromBottom = el.scrollHeight - el.scrollTop;
    const hiddenLines = this.hiddenLines(selected);
    if (items.length === 0) {
      replace(el, hiddenLines, h('p', { class: 'muted empty' }, S.press.empty));
      return;
    }
    const earlier =
      all.length > items.length
        ? h(
            'button',
            {
              type: 'button',
              class: 'small link',
              id: 'press-earlier',
              onclick: () => {
                this.feedLimit += FEED_PAGE;
                this.render();
              },
            },
            S.press.earlier(all.length - items.length),
          )
        : older
          ? h(
              'button',
              {
                type: 'button',
                class: 'small link',
                id: 'press-older',
                disabled: loading,
                'aria-busy': loading ? 'true' : 'false',
                onclick: () => m.loadOlder(selected),
              },
              loading ? S.press.loadingOlder : S.press.loadOlder,
            )
          : null;
    replace(el, hiddenLines, earlier, h('ol', { class: 'messages' }, ...items.map((item) => this.feedLine(item))));
    if (atBottom) el.scrollTop = el.scrollHeight;
    else if (prepended > 0) el.scrollTop = el.scrollHeight - fromBottom; // the same lines stay in view
  }

  private feedLine(item: FeedItem): HTMLElement {
    switch (item.kind) {
      case 'message': {
        const m = item.message;
        const c = sortColours([m.from as Colour])[0];
        return h(
          'li',
          { class: `msg${item.mine ? ' mine' : ''}`, 'data-id': m.id, title: new Date(m.at).toLocaleTimeString() },
          c ? swatch(c) : null,
          h('strong', { class: 'from' }, this.memberName(m.from, m.name), item.mine ? h('span', { class: 'you' }, S.press.youTag) : null),
          h('span', { class: 'text' }, m.text),
          item.mine ? null : this.muteButton(muteTargetOf(m.from)),
        );
      }
      case 'pact': {
        const p = item.pact;
        const text =
          item.event === 'in_force'
            ? S.pacts.tableInForce(this.pactMembers(p), S.pacts.rounds(p.rounds))
            : S.pacts.tableEnded(this.pactMembers(p), S.pacts.endReason[p.endReason ?? ''] ?? '');
        return h('li', { class: 'sys pact-line' }, text);
      }
      case 'betrayal':
        return h('li', { class: 'sys betrayal' }, this.betrayalText(item.betrayal));
    }
  }

  /** Hides a seat's (or every spectator's) messages, for this viewer only. */
  private muteButton(target: MuteTarget): HTMLElement {
    const label = S.press.mute(this.muteName(target));
    return h(
      'button',
      { type: 'button', class: 'small link mute', 'data-mute': target, title: label, 'aria-label': label, onclick: () => this.model.mute(target) },
      S.press.muteShort,
    );
  }

  private renderComposer(reveal: boolean): void {
    const m = this.model;
    const state = reveal ? 'none' : m.compose(m.selected);
    this.form.hidden = state !== 'ok';
    const noteText =
      state === 'read_only_table' ? S.press.readOnlyTable : state === 'closed' ? S.press.closed : state === 'not_active' ? S.press.notActive : '';
    setText(this.note, noteText);
    this.note.hidden = noteText === '';
    if (state !== 'ok') return;
    const tab = m.tabs().find((t) => t.id === m.selected);
    const placeholder =
      !tab || tab.kind === 'table'
        ? S.press.placeholderTable
        : tab.kind === 'spectators'
          ? S.press.placeholderSpectators
          : S.press.placeholder(this.names(tab.others));
    if (this.input.placeholder !== placeholder) {
      this.input.placeholder = placeholder;
      this.input.setAttribute('aria-label', placeholder);
    }
    const d = m.draft();
    if (this.input.value !== d.text) this.input.value = d.text;
    setText(this.counter, S.press.counter(d.count, MAX_MESSAGE_CHARS));
    this.counter.setAttribute('aria-label', S.press.counterLabel(d.count, MAX_MESSAGE_CHARS));
    this.counter.title = d.over ? S.press.tooLong(MAX_MESSAGE_CHARS) : '';
    this.counter.classList.toggle('over', d.over);
    this.counter.classList.toggle('near', !d.over && d.count > MAX_MESSAGE_CHARS - 50);
    this.sendButton.disabled = d.over || d.text.trim() === '';
  }

  private errorText(code: string, message: string, retryAfterMs: number | null): string {
    if (code === 'rate_limited') return S.press.rateLimited(Math.max(1, Math.ceil((retryAfterMs ?? 1000) / 1000)));
    return S.press.errors[code] ?? S.press.refused(message || code);
  }

  private renderError(): void {
    const e = this.model.error;
    const text = e ? this.errorText(e.code, e.message, e.retryAfterMs) : '';
    setText(this.chatError, e && e.area !== 'pact' ? text : '');
    this.chatError.dataset.code = e && e.area !== 'pact' ? e.code : '';
    setText(this.pactError, e && e.area === 'pact' ? text : '');
    this.pactError.dataset.code = e && e.area === 'pact' ? e.code : '';
  }

  private renderExists(): void {
    const list = this.model.existing;
    this.existsEl.hidden = list.length === 0;
    const text = list.length ? S.press.othersLine(list.map((e) => S.press.existsLine(this.names(e.members)))) : '';
    setText(this.existsEl, text);
  }

  private renderPacts(): void {
    const m = this.model;
    const g = m.pactGroups();
    const me = m.me;
    const canPropose = m.partners().length > 0;
    const any = g.invitations.length + g.waiting.length + g.inForce.length + g.ended.length > 0;
    this.pactsCard.hidden = !m.ready || (!any && !canPropose);
    this.proposeBox.hidden = !canPropose;
    const rows: HTMLElement[] = [];
    const terms = (p: PactView): string => S.pacts.list([S.pacts.rounds(p.rounds), p.announced ? S.pacts.announced : S.pacts.secret]);
    for (const p of g.invitations) {
      rows.push(
        h(
          'li',
          { class: 'pact invitation', 'data-pact': p.id },
          h('span', {}, S.pacts.invitationLine(this.options.seatName(p.proposer), this.pactMembers(p), terms(p))),
          h(
            'span',
            { class: 'pact-buttons' },
            h('button', { type: 'button', class: 'small primary', 'data-pact-accept': p.id, onclick: () => m.accept(p.id) }, S.pacts.accept),
            h('button', { type: 'button', class: 'small', 'data-pact-decline': p.id, onclick: () => m.decline(p.id) }, S.pacts.decline),
          ),
        ),
      );
    }
    for (const p of g.waiting) {
      const waitingFor = p.members.filter((c) => !p.accepted.includes(c));
      rows.push(
        h(
          'li',
          { class: 'pact waiting', 'data-pact': p.id },
          h('span', {}, S.pacts.waitingLine(this.pactMembers(p), this.names(waitingFor), terms(p))),
          h('button', { type: 'button', class: 'small', 'data-pact-withdraw': p.id, onclick: () => m.decline(p.id) }, S.pacts.withdraw),
        ),
      );
    }
    for (const p of g.inForce) {
      const bits = [
        S.pacts.inForce,
        p.roundsLeft !== null ? S.pacts.roundsLeft(p.roundsLeft) : S.pacts.rounds(p.rounds),
        p.announced ? S.pacts.announced : S.pacts.secret,
      ];
      if (p.broken) bits.push(S.pacts.broken);
      const bound = !!me && p.standing.includes(me as Colour);
      if (!bound && me && p.members.includes(me as Colour)) bits.push(S.pacts.notBound);
      rows.push(
        h(
          'li',
          { class: `pact in-force${p.broken ? ' broken' : ''}`, 'data-pact': p.id },
          h('span', {}, S.pacts.line(this.pactMembers(p), S.pacts.list(bits))),
          bound
            ? h(
                'button',
                {
                  type: 'button',
                  class: 'small',
                  'data-pact-leave': p.id,
                  'aria-label': S.pacts.leaveLabel(this.pactMembers(p)),
                  onclick: () => m.leave(p.id),
                },
                S.pacts.leave,
              )
            : null,
        ),
      );
    }
    const items: HTMLElement[] = [];
    if (rows.length) items.push(h('ul', { class: 'pact-list' }, ...rows));
    else if (!any) items.push(h('p', { class: 'muted' }, S.pacts.none));
    if (g.ended.length) {
      items.push(
        h(
          'details',
          { class: 'pacts-ended' },
          h('summary', {}, S.pacts.endedCount(g.ended.length)),
          h(
            'ul',
            { class: 'pact-list' },
            ...g.ended.map((p) =>
              h(
                'li',
                { class: `pact ended${p.broken ? ' broken' : ''}`, 'data-pact': p.id },
                S.pacts.line(this.pactMembers(p), S.pacts.endReason[p.endReason ?? ''] ?? ''),
              ),
            ),
          ),
        ),
      );
    }
    const notices = m.notices.slice(-3);
    if (notices.length) {
      items.push(
        h(
          'ul',
          { class: 'notices', id: 'pact-notices' },
          ...notices.map((n) =>
            h(
              'li',
              { class: `notice ${n.event}` },
              (S.pacts.event[n.event] ?? S.pacts.event.proposed)(n.by ? this.options.seatName(n.by) : '', this.pactMembers(n.pact)),
            ),
          ),
        ),
      );
    }
    const key = JSON.stringify([g, notices.map((n) => n.seq), me, this.partnersKey]);
    if (this.pactsEl.dataset.key === key) return;
    const wasOpen = (this.pactsEl.querySelector('details.pacts-ended') as HTMLDetailsElement | null)?.open ?? false;
    this.pactsEl.dataset.key = key;
    replace(this.pactsEl, ...items);
    const ended = this.pactsEl.querySelector('details.pacts-ended') as HTMLDetailsElement | null;
    if (ended && wasOpen) ended.open = true;
  }

  private renderReveal(reveal: PressReveal | null): void {
    const loading = reveal
      ? reveal.channels
          .filter((c) => this.model.loadingOlder(c.id))
          .map((c) => c.id)
          .join(',')
      : '';
    if (reveal === this.shownReveal && loading === this.shownRevealLoading) return;
    this.shownReveal = reveal;
    this.shownRevealLoading = loading;
    if (!reveal) {
      replace(this.revealEl);
      return;
    }
    const channelLabel = (id: string): string => {
      if (id === 'table') return S.press.table;
      if (id === 'spectators') return S.press.spectators;
      const info = reveal.channels.find((c) => c.id === id);
      const members = info?.members ?? sortColours([...id.slice(id.indexOf(':') + 1)] as Colour[]);
      return members.map((c) => this.options.seatName(c)).join(' · ');
    };
    const pactById = new Map(reveal.pacts.map((p) => [p.id, p]));
    const line = (item: RevealItem): HTMLElement => {
      switch (item.kind) {
        case 'message':
          return h(
            'li',
            { class: `msg ${item.channel === 'table' ? 'table' : 'secret'}` },
            h('span', { class: 'where' }, S.reveal.where(channelLabel(item.channel))),
            ' ',
            h('strong', { class: 'from' }, this.memberName(item.from, item.name)),
            ' ',
            h('span', { class: 'text' }, item.text),
          );
        case 'channel':
          return h(
            'li',
            { class: 'sys' },
            S.reveal.channelOpened(item.by ? this.options.seatName(item.by) : '', this.names(item.members.filter((c) => c !== item.by))),
          );
        case 'pact': {
          const p = pactById.get(item.pactId);
          const fn = S.pacts.event[item.event] ?? S.pacts.event.proposed;
          return h('li', { class: `sys pact-event ${item.event}` }, fn(item.by ? this.options.seatName(item.by) : '', p ? this.pactMembers(p) : ''));
        }
        case 'betrayal':
          return h('li', { class: 'sys betrayal' }, this.betrayalText(item));
        case 'draw':
          return h('li', { class: 'sys draw' }, S.reveal.draw(item.event, item.by ? this.options.seatName(item.by) : ''));
      }
    };
    const parts: HTMLElement[] = [h('h3', {}, S.reveal.title)];
    if (!reveal.conversations) parts.push(h('p', { class: 'hint' }, S.reveal.hiddenConversations));
    parts.push(h('h4', {}, S.reveal.pactsTitle));
    parts.push(
      reveal.pacts.length
        ? h(
            'ul',
            { class: 'pact-list' },
            ...reveal.pacts.map((p) =>
              h(
                'li',
                { class: `pact${p.broken ? ' broken' : ''}` },
                S.reveal.pactLine(
                  this.pactMembers(p),
                  this.options.seatName(p.proposer),
                  S.reveal.terms(S.pacts.rounds(p.rounds), p.announced ? S.pacts.announced : S.pacts.secret),
                  S.pacts.list([
                    p.inForcePly === null ? S.reveal.neverInForce : '',
                    p.broken ? S.pacts.broken : '',
                    p.endReason && !(p.broken && p.endReason === 'betrayed') ? S.pacts.endReason[p.endReason] : '',
                  ]),
                ),
              ),
            ),
          )
        : h('p', { class: 'muted' }, S.pacts.none),
    );
    parts.push(h('h4', {}, S.reveal.betrayalsTitle));
    parts.push(
      reveal.betrayals.length
        ? h('ul', { class: 'betrayal-list' }, ...reveal.betrayals.map((b) => h('li', { class: 'betrayal' }, this.betrayalText(b))))
        : h('p', { class: 'muted' }, S.reveal.noBetrayal),
    );
    const older = this.model.revealOlder();
    if (older.length > 0) {
      // The reveal holds the latest messages of each conversation; older ones come on request.
      parts.push(
        h(
          'p',
          { class: 'reveal-older' },
          ...older.map((id) => {
            const busy = this.model.loadingOlder(id);
            return h(
              'button',
              {
                type: 'button',
                class: 'small link',
                'data-reveal-older': id,
                disabled: busy,
                'aria-busy': busy ? 'true' : 'false',
                onclick: () => this.model.loadOlderRevealed(id),
              },
              busy ? S.press.loadingOlder : S.reveal.loadOlder(channelLabel(id)),
            );
          }),
        ),
      );
    }
    const groups = groupByPly(reveal.timeline);
    if (groups.length === 0) parts.push(h('p', { class: 'muted' }, S.reveal.nothing));
    for (const g of groups) {
      parts.push(h('h4', { class: 'ply' }, g.ply === 0 ? S.reveal.beforeFirst : S.reveal.afterTurn(g.ply)));
      parts.push(h('ul', { class: 'timeline' }, ...g.items.map(line)));
    }
    replace(this.revealEl, ...parts);
  }
}

function itemKey(item: FeedItem): string {
  switch (item.kind) {
    case 'message':
      return `m${item.message.id}`;
    case 'pact':
      return `p${item.pact.id}${item.event}${item.pact.status}${item.pact.endReason ?? ''}`;
    case 'betrayal':
      return `b${item.betrayal.pactId}${item.betrayal.traitor}${item.betrayal.victim}${item.betrayal.ply}`;
  }
}

function checked(form: HTMLElement, name: string): Colour[] {
  return sortColours([...form.querySelectorAll<HTMLInputElement>(`input[name="${name}"]:checked`)].map((i) => i.value as Colour));
}
