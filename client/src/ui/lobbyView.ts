/**
 * Before the start: the join form (a name, take a seat), or the page of a game that is full or
 * has started; the invite (link, QR code), the host's part (start, remove a player) or who the
 * others wait for, a spectator's name, and the seat link that moves a seat to another device.
 * Renders the session's view model.
 */
import type { Colour } from '@djambi/shared';
import type { SessionView } from '../game/session.js';
import type { GameSnapshot } from '../game/snapshot.js';
import { S } from '../i18n/strings.js';
import { loadHostToken, type StoredSeat, saveSeat } from '../net/seatStore.js';
import { h, link, replace } from './dom.js';
import { saveName, savedName } from './prefs.js';
import { qrSvg } from './qr.js';

export interface LobbyActions {
  /** Take a seat (a colour, or any free one). */
  takeSeat(colour: Colour | undefined): void;
  start(): void;
  /** Sends a lobby message (`remove_seat`, `name`); absent, the host's removal and a spectator's rename are not offered. */
  send?(type: 'remove_seat' | 'name', payload: Record<string, unknown>): void;
}

/** The name the seat panel shows for the host, or null while the host holds no seat. */
export function hostName(snap: GameSnapshot): string | null {
  const seat = snap.host ? snap.seats.find((s) => s.colour === snap.host) : undefined;
  return seat?.taken ? seat.name || S.colour(seat.colour) : null;
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
    const snap = v.snapshot;
    if (!snap || v.seat || v.phase === 'over' || this.failed) {
      if (!this.failed) box.hidden = true;
      return;
    }
    // A full or started game: say so plainly, with the two ways on (watch, or create one).
    const full = snap.phase === 'playing' ? 'started' : snap.seats.every((s) => s.taken) ? 'full' : '';
    if (full) {
      if (box.dataset.built !== full) {
        box.dataset.built = full;
        const watch = h('button', { type: 'button', id: 'watch-game', onclick: () => (box.hidden = true) }, S.game.watchIt);
        replace(
          box,
          h('h2', { id: 'full-title' }, full === 'full' ? S.game.fullTitle : S.game.startedTitle),
          h('p', { id: 'full-note' }, full === 'full' ? S.game.full : S.game.started),
          h('div', { class: 'row' }, watch, link('/', S.game.createOwn)),
        );
        box.hidden = false;
      }
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
      const host = hostName(snap);
      const hosting = mySeat !== null && snap.host === mySeat;
      // The creator holds the host token until it takes a seat: it hosts, it waits for nobody.
      const creator = !mySeat && loadHostToken(this.code) !== null;
      items.push(h('p', { id: 'host-note' }, hosting ? S.game.youHost : host ? S.game.hostIs(host) : creator ? S.game.youCreated : S.game.waitingForHostSeat));
      if (free > 0) items.push(h('p', { class: 'muted', id: 'waiting-note' }, S.game.waitingForPlayers(free)));
      else if (hosting) items.push(h('button', { type: 'button', id: 'start', class: 'primary', onclick: () => this.actions.start() }, S.game.start));
      else if (!creator) items.push(h('p', { class: 'muted', id: 'waiting-start' }, host ? S.game.waitingForHost(host) : S.game.waitingForHostSeat));
      const send = this.actions.send;
      if (hosting && send) {
        const others = snap.seats.filter((s) => s.taken && s.colour !== mySeat);
        if (others.length > 0) {
          items.push(
            h(
              'ul',
              { class: 'remove-list', id: 'remove-list' },
              ...others.map((s) => {
                const name = s.name || S.colour(s.colour);
                return h(
                  'li',
                  {},
                  h('span', { class: 'name' }, name),
                  ' ',
                  h(
                    'button',
                    {
                      type: 'button',
                      class: 'small',
                      'data-remove': s.colour,
                      'aria-label': S.game.removePlayerLabel(name),
                      onclick: () => {
                        if (confirm(S.game.removeConfirm(name))) send('remove_seat', { colour: s.colour });
                      },
                    },
                    S.game.removePlayer,
                  ),
                );
              }),
            ),
          );
        }
      }
    }
    // While the join form asks for a name (a free seat before the start), no second name field.
    const joining = snap.phase === 'waiting' && free > 0;
    if (!mySeat && !joining && snap.phase !== 'over' && this.actions.send) items.push(this.spectatorName());
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
    const seated = snap.seats.map((s) => (s.taken ? `${s.colour}${s.name}` : '')).join(',');
    const key = `${snap.phase}|${free}|${mySeat}|${invite}|${snap.host}|${seated}|${snap.spectatorNames.join(',')}`;
    if (box.dataset.key !== key) {
      box.dataset.key = key;
      replace(box, ...items);
      const d = box.querySelector('details');
      if (d && wasOpen) d.open = true;
    }
    box.hidden = items.length === 0;
  }

  /** A spectator's name (sent with `name`; the seat panel lists the spectators by name). */
  private spectatorName(): HTMLElement {
    const input = h('input', { id: 'spectator-name', maxlength: 24, value: savedName(), 'aria-label': S.game.spectatorName, autocomplete: 'nickname' });
    const form = h(
      'form',
      { class: 'row', id: 'spectator-name-form' },
      h('label', { for: 'spectator-name' }, S.game.spectatorName),
      input,
      h('button', { type: 'submit', class: 'small' }, S.game.rename),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const name = input.value.trim().slice(0, 24);
      if (!name) return;
      saveName(name);
      this.actions.send?.('name', { name });
    });
    return form;
  }
}

/** A seat link (`/g/CODE#seat=R.KEY`) moves the seat to this device: store it and clean the URL; returns the seat. */
export function consumeSeatLink(code: string): StoredSeat | null {
  const m = /^#seat=([RBYGPW])\.([A-Za-z0-9_-]{8,64})$/.exec(location.hash);
  if (!m) return null;
  const seat: StoredSeat = { colour: m[1] as Colour, seatKey: m[2] };
  saveSeat(code, seat);
  history.replaceState(null, '', location.pathname);
  return seat;
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
