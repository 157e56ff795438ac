/** The actions card: offer, accept or decline a draw, resign (with a confirmation), or "spectating". */
import type { Colour } from '@djambi/shared';
import type { SessionView } from '../game/session.js';
import { S } from '../i18n/strings.js';
import { h, replace } from './dom.js';

/** Sends a room action (`draw_offer`, `resign`, …). */
export type SendAction = (type: string, message?: unknown) => void;

export class ActionsView {
  readonly element = h('section', { id: 'actions', class: 'card actions' });

  constructor(private readonly send: SendAction) {}

  render(v: SessionView): void {
    const snap = v.snapshot;
    if (!snap) return;
    const mySeat = v.mySeat;
    const items: HTMLElement[] = [];
    const seat = snap.seats.find((s) => s.colour === mySeat);
    if (snap.phase === 'playing' && seat?.active) {
      if (snap.drawOffer?.by) {
        items.push(h('p', { id: 'draw-offer' }, S.game.drawOffered(snap.drawOffer.by as Colour)));
        if (snap.drawOffer.by !== mySeat && !snap.drawOffer.accepted.includes(mySeat!)) {
          // Name the offer answered, so that an answer to an offer that lapsed meanwhile is refused.
          const answer = snap.drawOffer.id > 0 ? { offer: snap.drawOffer.id } : {};
          items.push(h('button', { type: 'button', id: 'draw-accept', onclick: () => this.send('draw_accept', answer) }, S.game.acceptDraw));
          items.push(h('button', { type: 'button', id: 'draw-decline', onclick: () => this.send('draw_decline', answer) }, S.game.declineDraw));
        }
      } else {
        items.push(h('button', { type: 'button', id: 'draw-offer-btn', onclick: () => this.send('draw_offer') }, S.game.offerDraw));
      }
      items.push(h('button', { type: 'button', id: 'resign', class: 'danger', onclick: () => this.confirmResign() }, S.game.resign));
    }
    if (!mySeat && snap.phase !== 'waiting') items.push(h('p', { class: 'muted' }, S.game.spectating));
    replace(this.element, ...items);
    this.element.hidden = items.length === 0;
  }

  private confirmResign(): void {
    const close = (): void => {
      dialog.close();
      dialog.remove();
    };
    const dialog = h(
      'dialog',
      { id: 'resign-dialog', class: 'dialog' },
      h('p', {}, S.game.resignConfirm),
      h(
        'div',
        { class: 'row' },
        h(
          'button',
          {
            type: 'button',
            id: 'resign-yes',
            class: 'danger',
            onclick: () => {
              this.send('resign');
              close();
            },
          },
          S.game.yes,
        ),
        h('button', { type: 'button', id: 'resign-no', onclick: close }, S.game.no),
      ),
    );
    document.body.appendChild(dialog);
    dialog.showModal();
  }
}
