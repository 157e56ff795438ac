/** A draw offer: passes when every active player has accepted before the next turn is played. */
import type { Colour } from '@djambi/shared';
import type { RejectCode } from '../errors.js';

type DrawResult<T> = { ok: true; value: T } | { ok: false; code: RejectCode; message: string };

export class DrawOffer {
  by: Colour | null = null;
  readonly accepted = new Set<Colour>();

  /** True while an offer is open. */
  get open(): boolean {
    return this.by !== null;
  }

  /** Opens an offer from `colour` (which accepts it at once); true when it already passes. */
  offer(colour: Colour, active: readonly Colour[]): DrawResult<boolean> {
    if (this.by !== null) return { ok: false, code: 'draw_offer_open', message: `${this.by} has already offered a draw` };
    this.by = colour;
    this.accepted.add(colour);
    return { ok: true, value: this.passes(active) };
  }

  /** Accepts the open offer; true when every active player has now accepted. */
  accept(colour: Colour, active: readonly Colour[]): DrawResult<boolean> {
    if (this.by === null) return { ok: false, code: 'no_draw_offer', message: 'no draw offer is open' };
    this.accepted.add(colour);
    return { ok: true, value: this.passes(active) };
  }

  /** Declines the open offer, which lapses. */
  decline(): DrawResult<true> {
    if (this.by === null) return { ok: false, code: 'no_draw_offer', message: 'no draw offer is open' };
    this.clear();
    return { ok: true, value: true };
  }

  /** Withdraws the offer (a turn was played, the set of active players changed, ...). */
  clear(): void {
    this.by = null;
    this.accepted.clear();
  }

  private passes(active: readonly Colour[]): boolean {
    return active.length > 0 && active.every((c) => this.accepted.has(c));
  }
}
