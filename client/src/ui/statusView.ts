/**
 * The status card (whose turn, ruler, control, clocks, result) and the seats card, with the
 * turn order under the seats (who moves now and next, the ruler's extra turns included).
 */
import type { Colour } from '@djambi/shared';
import type { SessionView } from '../game/session.js';
import { upcomingTurns } from '../game/turnOrder.js';
import { S } from '../i18n/strings.js';
import { h } from './dom.js';
import { renderSeats, renderStatus, swatch } from './panels.js';

/** Turns shown in the turn order (the one being played and the next ones). */
const ORDER_SHOWN = 5;

export interface SeatActions {
  sit(colour: Colour): void;
  swap(colour: Colour): void;
  ready(ready: boolean): void;
  talk(colour: Colour): void;
  /** Opens the result screen again (after the game). */
  result?(): void;
}

export class StatusView {
  readonly status = h('section', { id: 'status', class: 'card', 'aria-label': S.status.title });
  readonly seats = h('section', { id: 'seats', class: 'card', 'aria-label': S.game.seatsTitle });

  constructor(private readonly actions: SeatActions) {}

  /** `canSit`: a seat may be taken now; `partners`: the seats the viewer may talk with; `now`: the server's clock. */
  render(v: SessionView, canSit: boolean, partners: readonly Colour[], now: number): void {
    const snap = v.snapshot;
    if (!snap) return;
    const a = this.actions;
    const history = v.historyIndex === null ? null : { index: v.historyIndex, total: snap.moves.length };
    renderStatus(this.status, snap, snap.phase === 'waiting' ? null : v.shown, v.mySeat, now, history, v.linkDown);
    const showResult = a.result;
    if (snap.phase === 'over' && showResult) {
      this.status.appendChild(h('button', { type: 'button', id: 'result-open', title: S.result.showHint, onclick: () => showResult() }, S.result.show));
    }
    const canSwap = snap.phase === 'waiting' && !!v.mySeat;
    renderSeats(
      this.seats,
      snap,
      v.mySeat,
      now,
      canSit ? (c) => a.sit(c) : null,
      canSwap ? (c) => a.swap(c) : null,
      partners.length ? { seats: partners, talk: (c) => a.talk(c) } : null,
      canSwap ? (ready) => a.ready(ready) : null,
    );
    const order = this.turnOrder(v);
    if (order) this.seats.appendChild(order);
  }

  /** The live turn order while the game is on (null otherwise). */
  private turnOrder(v: SessionView): HTMLElement | null {
    const snap = v.snapshot;
    if (snap?.phase !== 'playing' || !v.live) return null;
    const turns = upcomingTurns(v.live, ORDER_SHOWN);
    if (turns.length === 0) return null;
    const name = (c: Colour): string => {
      const seat = snap.seats.find((x) => x.colour === c);
      return seat?.taken && seat.name ? seat.name : S.colour(c);
    };
    const items = turns.map((t, i) =>
      h(
        'li',
        {
          class: `turn-${t.kind}${i === 0 ? ' now' : ''}${t.colour === v.mySeat ? ' mine' : ''}`,
          'data-turn': t.colour,
          'data-kind': t.kind,
          'aria-current': i === 0 ? 'step' : null,
          title: S.table.orderItem(S.colour(t.colour), t.kind === 'extra'),
        },
        swatch(t.colour),
        name(t.colour),
        t.kind === 'extra' ? h('span', { class: 'extra', title: S.table.extraTurn }, ' ♔+') : null,
      ),
    );
    const next = turns[1];
    return h(
      'div',
      { id: 'turn-order', class: 'turn-order' },
      h('span', { class: 'muted', 'aria-hidden': 'true' }, S.table.turnOrder),
      h('ol', { 'aria-label': S.table.turnOrder }, ...items),
      // One line under the seats: who comes next is said to screen readers (and shown as the second item).
      next ? h('span', { class: 'sr-only', id: 'next-up' }, S.table.nextUp(S.table.orderItem(name(next.colour), next.kind === 'extra'))) : null,
    );
  }
}
