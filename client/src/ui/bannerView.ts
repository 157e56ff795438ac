/** The connection banner: reconnecting, offline, gave up, seat lost, back. Renders the link state. */
import { S } from '../i18n/strings.js';
import type { LinkState } from '../net/connection.js';
import { h, replace } from './dom.js';

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
        if (l.restart && !l.offline) this.show(S.net.restarting, true);
        else if (l.offline) this.show(S.net.offline, true);
        else this.show(S.net.reconnecting(Math.max(0, Math.ceil((l.retryAt - Date.now()) / 1000))), true);
        break;
      case 'retrying':
        this.show(l.restart ? S.net.restarting : S.net.reconnectingNow, false);
        break;
      case 'failed':
        this.show(S.net.gaveUp, false);
        break;
      case 'moved':
        this.show(S.net.seatLost, false);
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
