/**
 * The connection banner (reconnecting, offline, gave up, seat lost, back: renders the link
 * state) and the table bar next to the board (draw offers, notices, sounds, notifications).
 */
import type { Colour, PressServerMessage, PressServerMessages } from '@djambi/shared';
import type { SessionView } from '../game/session.js';
import { DrawWatch, TableWatcher } from '../game/table.js';
import { S } from '../i18n/strings.js';
import type { LinkState, Restart } from '../net/connection.js';
import { SoundPlayer } from '../render/sound.js';
import { h, replace } from './dom.js';
import { pref } from './prefs.js';

/** What the banner says while the page comes back by itself. */
function restartText(why: Restart): string {
  return why === 'room' ? S.net.reopening : S.net.restarting;
}

export class BannerView {
  readonly element = h('div', { id: 'net-banner', class: 'banner', role: 'status', hidden: true });

  constructor(private readonly retryNow: () => void) {}

  /** Show the banner for a link state; `hadDrop`: a drop happened since the link was last back. */
  render(l: LinkState, hadDrop: boolean): void {
    switch (l.kind) {
      case 'restarting':
        this.show(S.net.restarting, false);
        break;
      case 'waiting':
        if (l.restart && !l.offline) this.show(restartText(l.restart), true);
        else if (l.offline) this.show(S.net.offline, true);
        else this.show(S.net.reconnecting(Math.max(0, Math.ceil((l.retryAt - Date.now()) / 1000))), true);
        break;
      case 'retrying':
        this.show(l.restart ? restartText(l.restart) : S.net.reconnectingNow, false);
        break;
      case 'failed':
        this.show(S.net.gaveUp, false);
        break;
      case 'moved':
        this.show(l.removed ? S.seatLink.removed : S.net.seatLost, false);
        break;
      default:
        if (l.kind === 'connected' || l.kind === 'connecting' || l.kind === 'closed') this.element.hidden = l.kind !== 'closed' || !hadDrop;
    }
  }

  /** Say the link is back, for a moment (hidden then unless `stillUp()` says it dropped again). */
  reconnected(stillUp: () => boolean): void {
    this.show(S.net.reconnected, false, 'ok');
    setTimeout(() => {
      if (stillUp()) this.element.hidden = true;
    }, 2500);
  }

  private show(text: string, retry: boolean, tone: 'warn' | 'ok' = 'warn'): void {
    const children: (HTMLElement | string)[] = [h('span', {}, text)];
    if (retry) children.push(h('button', { type: 'button', id: 'retry-now', onclick: () => this.retryNow() }, S.net.retryNow));
    replace(this.element, ...children);
    this.element.className = `banner ${tone}`;
    this.element.hidden = false;
  }
}

/** How long a notice stays on screen (ms). */
const NOTICE_MS = 5000;

/**
 * Next to the board: the draw banner (the open offer with accept and decline for every active
 * player, then who declined it) and the short notices (a resignation, an elimination), also in
 * an aria-live region. Plays the table's sounds (when the sound switch is on) and the
 * your-turn notification (when the viewer allowed it and the tab is hidden).
 */
export class TableBar {
  readonly element: HTMLElement;
  private readonly draw = h('div', { id: 'draw-banner', class: 'draw-banner', role: 'region', 'aria-label': S.game.offerDraw, hidden: true });
  private readonly notices = h('div', { id: 'notices', class: 'notices', role: 'status', 'aria-live': 'polite' });
  private readonly watcher = new TableWatcher();
  private readonly draws = new DrawWatch();
  private readonly sounds = new SoundPlayer();
  private latest: SessionView | null = null;
  private shown = '';

  constructor(private readonly send: (type: string, message?: unknown) => void) {
    this.element = h('div', { class: 'table-bar' }, this.draw, this.notices);
  }

  /** A press message, decoded with its shared schema (the server's `draw` events name who declined). */
  pressEvent<K extends PressServerMessage>(type: K, payload: PressServerMessages[K]): void {
    if (this.draws.receive(type, payload) && this.latest) this.renderDraw(this.latest);
  }

  render(v: SessionView): void {
    this.latest = v;
    const signals = this.watcher.take(v);
    if (signals.sound && signals.sound !== 'turn' && pref.get('sound', false)) this.sounds.play(signals.sound);
    for (const n of signals.notices)
      this.notice(n.kind === 'resigned' ? S.table.resigned(this.name(v, n.colour)) : S.table.eliminated(this.name(v, n.colour), n.cause));
    if (signals.yourTurn) this.notifyTurn(v);
    this.renderDraw(v);
  }

  dispose(): void {
    this.sounds.dispose();
  }

  private renderDraw(v: SessionView): void {
    const b = this.draws.view(v.snapshot, v.mySeat);
    const key = JSON.stringify(b);
    if (key === this.shown) return;
    this.shown = key;
    this.draw.hidden = b.kind === 'none';
    if (b.kind === 'none') {
      replace(this.draw);
      return;
    }
    if (b.kind === 'declined') {
      replace(
        this.draw,
        h('span', { id: 'draw-declined' }, S.table.drawDeclined(this.name(v, b.by))),
        h('button', { type: 'button', id: 'draw-dismiss', onclick: () => this.dismiss() }, S.table.dismiss),
      );
      return;
    }
    const mine = b.by === v.mySeat;
    const children: HTMLElement[] = [
      h('span', { id: 'draw-offer' }, mine ? S.table.drawYouOffered : S.table.drawOffer(this.name(v, b.by))),
      h('span', { class: 'muted', id: 'draw-waiting' }, b.waiting.length ? S.table.drawWaiting(b.waiting.map((c) => this.name(v, c))) : ''),
    ];
    if (b.canAnswer) {
      // Name the offer answered, so that an answer to an offer that lapsed meanwhile is refused.
      const answer = b.id > 0 ? { offer: b.id } : {};
      children.push(
        h('button', { type: 'button', id: 'draw-accept', class: 'primary', onclick: () => this.send('draw_accept', answer) }, S.game.acceptDraw),
        h('button', { type: 'button', id: 'draw-decline', onclick: () => this.send('draw_decline', answer) }, S.game.declineDraw),
      );
    }
    replace(this.draw, ...children);
  }

  private dismiss(): void {
    this.draws.dismiss();
    if (this.latest) this.renderDraw(this.latest);
  }

  private notice(text: string): void {
    const item = h('p', { class: 'toast' }, text);
    this.notices.appendChild(item);
    setTimeout(() => item.remove(), NOTICE_MS);
  }

  private notifyTurn(v: SessionView): void {
    if (!document.hidden || !pref.get('notify', false) || typeof Notification !== 'function' || Notification.permission !== 'granted') return;
    try {
      const n = new Notification(S.title.yourTurn(v.snapshot?.code ?? ''), { body: S.table.notifyBody(v.snapshot?.code ?? ''), tag: 'djambi-turn' });
      n.onclick = () => {
        window.focus();
        n.close();
      };
    } catch {
      /* notifications unavailable */
    }
  }

  /** A seat's display name: its player's name, else the colour. */
  private name(v: SessionView, c: Colour): string {
    const seat = v.snapshot?.seats.find((x) => x.colour === c);
    return seat?.taken && seat.name ? seat.name : S.colour(c);
  }
}
