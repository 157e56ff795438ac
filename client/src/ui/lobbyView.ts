/**
 * Before the start: the join form (a name, take a seat), the invite (link, QR code, start) and
 * the seat link that moves a seat to another device. Renders the session's view model.
 */
import type { Colour } from '@djambi/shared';
import type { SessionView } from '../game/session.js';
import { S } from '../i18n/strings.js';
import { saveSeat } from '../net/seatStore.js';
import { h, link, replace } from './dom.js';
import { savedName } from './prefs.js';
import { qrSvg } from './qr.js';

export interface LobbyActions {
  /** Take a seat (a colour, or any free one). */
  takeSeat(colour: Colour | undefined): void;
  start(): void;
}

export class LobbyView {
  readonly join = h('section', { id: 'join', class: 'card', hidden: true });
  readonly lobby = h('section', { id: 'lobby', class: 'card', hidden: true });
  /** A fatal message (the room does not exist) replaces the join form for good. */
  private fatalText = '';

  constructor(
    private readonly code: string,
    private readonly actions: LobbyActions,
  ) {}

  get failed(): boolean {
    return this.fatalText !== '';
  }

  fatal(text: string): void {
    this.fatalText = text;
    replace(this.join, h('p', { class: 'error', role: 'alert' }, text), h('p', {}, link('/', S.nav.home)));
    this.join.hidden = false;
  }

  /** The join form: shown to a viewer without a seat before the start. */
  renderJoin(v: SessionView): void {
    const box = this.join;
    if (!v.snapshot || v.seat || v.phase !== 'waiting' || this.failed) {
      if (!this.failed) box.hidden = true;
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
      this.actions.takeSeat(undefined);
    });
    replace(box, form);
    box.hidden = false;
  }

  /** The invite and the seat link. */
  renderLobby(v: SessionView): void {
    const snap = v.snapshot;
    if (!snap) return;
    const mySeat = v.mySeat;
    const box = this.lobby;
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
      else if (mySeat) items.push(h('button', { type: 'button', id: 'start', class: 'primary', onclick: () => this.actions.start() }, S.game.start));
      else items.push(h('p', { class: 'muted' }, S.game.waitingForStart));
    }
    if (mySeat && v.seat && snap.phase !== 'over') {
      const seatLink = `${invite}#seat=${v.seat.colour}.${v.seat.seatKey}`;
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
}

/** A seat link (`/g/CODE#seat=R.KEY`) moves the seat to this device: store it and clean the URL. */
export function consumeSeatLink(code: string): void {
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
