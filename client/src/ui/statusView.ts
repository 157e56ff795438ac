/** The status card (whose turn, ruler, control, clocks, result) and the seats card. */
import type { Colour } from '@djambi/shared';
import type { SessionView } from '../game/session.js';
import { S } from '../i18n/strings.js';
import { h } from './dom.js';
import { renderSeats, renderStatus } from './panels.js';

export interface SeatActions {
  sit(colour: Colour): void;
  swap(colour: Colour): void;
  ready(ready: boolean): void;
  talk(colour: Colour): void;
}

export class StatusView {
  readonly status = h('section', { id: 'status', class: 'card', 'aria-label': S.status.title });
  readonly seats = h('section', { id: 'seats', class: 'card', 'aria-label': S.game.seatsTitle });

  constructor(private readonly actions: SeatActions) {}

  /** `canSit`: a seat may be taken now; `partners`: the seats the viewer may talk with. */
  render(v: SessionView, canSit: boolean, partners: readonly Colour[], now = Date.now()): void {
    const snap = v.snapshot;
    if (!snap) return;
    const a = this.actions;
    const history = v.historyIndex === null ? null : { index: v.historyIndex, total: snap.moves.length };
    renderStatus(this.status, snap, snap.phase === 'waiting' ? null : v.shown, v.mySeat, now, history);
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
  }
}
