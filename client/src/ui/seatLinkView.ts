/**
 * "Continue on your phone": a seat holder's offer, a button in the seat panel that opens a notice
 * with the seat link (`/g/CODE#seat=R.KEY`, read back by `consumeSeatLink`), its QR code, Copy and
 * Close. It never opens by itself (on a phone least of all). The link grants the
 * seat: it is shown to its holder only, never put in the invite nor logged. The notice is a card
 * in the side column, not a modal, so the board stays usable while it is open.
 */
import { S } from '../i18n/strings.js';
import type { StoredSeat } from '../net/seatStore.js';
import { h, replace } from './dom.js';
import { qrSvg } from './qr.js';

/** The part of `localStorage` the notice uses (injectable for the Node tests). */
export type NoticeStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** The seat link of a seat: the game page with the seat key in the fragment (never sent to the server). */
export function seatLinkUrl(origin: string, code: string, seat: StoredSeat): string {
  return `${origin}/g/${code}#seat=${seat.colour}.${seat.seatKey}`;
}

const noticeKey = (code: string): string => `djambi:seat-notice:${code}`;

/**
 * Whether the notice is due for this seat of room `code` (not shown for its key yet), and if so
 * marks it shown: true once per seat key. Without storage (disabled) it is never due.
 */
export function takeNotice(storage: NoticeStorage | null, code: string, seatKey: string): boolean {
  try {
    if (!storage || storage.getItem(noticeKey(code)) === seatKey) return false;
    storage.setItem(noticeKey(code), seatKey);
    return true;
  } catch {
    return false;
  }
}

/** `localStorage`, or null when the browser refuses it. */
export function browserStorage(): NoticeStorage | null {
  try {
    return localStorage;
  } catch {
    return null;
  }
}

export class SeatLinkView {
  /** The notice, shown in the side column above the seats. */
  readonly element = h('section', { id: 'seat-link', class: 'card seat-link-card', 'aria-labelledby': 'seat-link-title', hidden: true });
  /** The seat panel's entry that shows the notice again. */
  readonly menu = h('button', { type: 'button', id: 'seat-link-open', class: 'small', hidden: true, onclick: () => this.open() }, S.seatLink.title);
  private seat: StoredSeat | null = null;

  constructor(
    private readonly code: string,
    private readonly storage: NoticeStorage | null = browserStorage(),
  ) {}

  /** The seat came in by its seat link (`consumeSeatLink`): this device has the link, no notice for it. */
  linked(seat: StoredSeat | null): void {
    if (seat) takeNotice(this.storage, this.code, seat.seatKey);
  }

  /** The viewer's seat now (null: none, or the game is over): opens the notice once per seat key. */
  render(seat: StoredSeat | null): void {
    if (seat?.seatKey === this.seat?.seatKey && seat?.colour === this.seat?.colour) return;
    this.seat = seat;
    this.menu.hidden = !seat;
    if (!seat) {
      this.close();
      return;
    }
    // Offered, not pushed: the seat panel's button opens it (an open one follows the new seat).
    if (!this.element.hidden) this.open(false);
  }

  /** Show the notice for the current seat (from the seat panel: scrolled into view). */
  open(scroll = true): void {
    const seat = this.seat;
    if (!seat) return;
    const url = seatLinkUrl(location.origin, this.code, seat);
    const input = h('input', { id: 'seat-link-url', value: url, readonly: true, 'aria-label': S.seatLink.title });
    const copied = h('span', { class: 'muted', 'aria-live': 'polite' });
    const copy = (): void => {
      input.select();
      navigator.clipboard?.writeText(url).then(
        () => (copied.textContent = S.game.copied),
        () => undefined,
      );
    };
    // Its own class: `.qr` is the invite's.
    const qr = qrSvg(url, S.seatLink.qrLabel);
    qr.setAttribute('class', 'seat-qr');
    replace(
      this.element,
      h('h2', { id: 'seat-link-title' }, S.seatLink.title),
      h('p', {}, S.seatLink.intro(S.colour(seat.colour))),
      h('p', { class: 'seat-link-secret', role: 'note' }, S.seatLink.secret),
      h('div', { class: 'qr-wrap' }, qr),
      h('div', { class: 'row' }, input),
      h(
        'div',
        { class: 'row' },
        h('button', { type: 'button', id: 'seat-link-copy', class: 'primary', onclick: copy }, S.seatLink.copy),
        h('button', { type: 'button', id: 'seat-link-close', onclick: () => this.close() }, S.seatLink.close),
        copied,
      ),
    );
    this.element.hidden = false;
    if (scroll) this.element.scrollIntoView({ block: 'nearest' });
  }

  /** Hide the notice (and drop the link from the page). */
  close(): void {
    this.element.hidden = true;
    replace(this.element);
  }
}
