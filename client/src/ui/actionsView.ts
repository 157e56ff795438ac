/**
 * The actions card: offer a draw, resign (with a confirmation), or "spectating"; and the table
 * bar next to the board (the draw banner to accept or decline, the notices), rendered with it.
 */
import type { SessionView } from '../game/session.js';
import { S } from '../i18n/strings.js';
import { TableBar } from './bannerView.js';
import { h, replace } from './dom.js';

/** Sends a room action (`draw_offer`, `resign`, …). */
export type SendAction = (type: string, message?: unknown) => void;

export class ActionsView {
  readonly element = h('section', { id: 'actions', class: 'card actions' });
  /** Placed next to the board by the page. */
  readonly tableBar: TableBar;

  constructor(private readonly send: SendAction) {
    this.tableBar = new TableBar(send);
  }

  render(v: SessionView): void {
    this.tableBar.render(v);
    const snap = v.snapshot;
    if (!snap) return;
    const mySeat = v.mySeat;
    const items: HTMLElement[] = [];
    const seat = snap.seats.find((s) => s.colour === mySeat);
    if (snap.phase === 'playing' && seat?.active) {
      // An open offer is answered in the draw banner next to the board.
      if (!snap.drawOffer?.by) items.push(h('button', { type: 'button', id: 'draw-offer-btn', onclick: () => this.send('draw_offer') }, S.game.offerDraw));
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
