/**
 * Draw offers. Any active player may offer (and so accepts); the offer passes when every active
 * player has accepted before the next turn is played, and lapses when a turn is played (or a
 * player resigns or times out), or when anyone declines. One offer at a time. Offers are public:
 * every seat and spectator is told. When it passes, the room calls the engine's `drawByAgreement`.
 */
import type { Colour } from '@djambi/shared';
import type { RateLimiter } from './rateLimit.js';
import type { Roster } from './roster.js';
import { accepted, refuse } from './text.js';
import type { Delivery, DrawEvent, DrawOfferView, MemberId, PressClientPayload, PressRejection, PressResult, RevealItem } from './types.js';

interface Offer {
  readonly id: number;
  readonly by: Colour;
  readonly accepted: Set<Colour>;
  readonly ply: number;
}

/** The draw offer of one room. */
export class Draws {
  private offer: Offer | null = null;
  private lastId = 0;
  private readonly log: { seq: number; item: RevealItem }[] = [];

  constructor(
    private readonly roster: Roster,
    private readonly limiter: RateLimiter,
  ) {}

  /** The pending offer, or null (what the room mirrors into its public state). */
  current(): DrawOfferView | null {
    return this.offer ? this.view(this.offer) : null;
  }

  /** `draw_offer {}`: opens an offer; `drawAgreed` when it passes at once. */
  offerDraw(member: MemberId, now: number): PressResult {
    const who = this.player(member);
    if (!who.ok) return who;
    if (this.offer) return refuse('draw_offer_open', `${this.offer.by} has already offered a draw`);
    const key = this.roster.limitKeyOf(who.colour);
    const wait = this.limiter.wait(key, now);
    if (wait > 0) return refuse('rate_limited', `too many actions: wait ${wait} ms`, wait);
    this.limiter.take(key, now);
    const offer: Offer = { id: ++this.lastId, by: who.colour, accepted: new Set([who.colour]), ply: this.roster.ply };
    this.offer = offer;
    this.note('offered', offer, who.colour, now);
    return this.settle(offer, 'offered', who.colour, now);
  }

  /** `draw_accept { offer? }`: accepts the pending offer (`offer` guards against a newer one). */
  accept(member: MemberId, p: PressClientPayload<'draw_accept'>, now: number): PressResult {
    const found = this.target(member, p.offer);
    if (!found.ok) return found;
    const { offer, colour } = found;
    if (offer.accepted.has(colour)) return refuse('already_accepted', 'you have already accepted this offer');
    offer.accepted.add(colour);
    this.note('accepted', offer, colour, now);
    return this.settle(offer, 'accepted', colour, now);
  }

  /** `draw_decline { offer? }`: the offer lapses. */
  decline(member: MemberId, p: PressClientPayload<'draw_decline'>, now: number): PressResult {
    const found = this.target(member, p.offer);
    if (!found.ok) return found;
    const { offer, colour } = found;
    this.offer = null;
    this.note('declined', offer, colour, now);
    return accepted([this.event('declined', offer, colour)]);
  }

  /** A turn was played (or a player resigned, timed out, or the game ended): the offer lapses. */
  onTurn(now: number): Delivery[] {
    const offer = this.offer;
    if (!offer) return [];
    this.offer = null;
    this.note('lapsed', offer, null, now);
    return [this.event('lapsed', offer, null)].filter((d) => d.to.length > 0);
  }

  /** Draw events with their room-wide order (for the reveal). */
  revealItems(): { seq: number; item: RevealItem }[] {
    return this.log.slice();
  }

  // ---- internals -------------------------------------------------------------------------------

  private settle(offer: Offer, event: DrawEvent, by: Colour, now: number): PressResult {
    const active = this.roster.activeSeats();
    const passes = active.length > 0 && active.every((c) => offer.accepted.has(c));
    if (!passes) return accepted([this.event(event, offer, by)]);
    this.offer = null;
    this.note('passed', offer, null, now);
    return accepted([this.event(event, offer, by), this.event('passed', offer, null)], true);
  }

  private event(event: DrawEvent, offer: Offer, by: Colour | null): Delivery {
    return { to: this.roster.everyone(), type: 'draw', payload: { event, by, offer: this.view(offer) } };
  }

  private note(event: DrawEvent, offer: Offer, by: Colour | null, now: number): void {
    this.log.push({ seq: this.roster.nextSeq(), item: { kind: 'draw', event, offer: offer.id, by, ply: this.roster.ply, at: now } });
  }

  private view(o: Offer): DrawOfferView {
    return { id: o.id, by: o.by, accepted: this.roster.seats.filter((c) => o.accepted.has(c)), ply: o.ply };
  }

  private player(member: MemberId): { ok: true; colour: Colour } | { ok: false; error: PressRejection } {
    if (!this.roster.isKnown(member)) return refuse('unknown_member', 'you are not in this room');
    if (!this.roster.isSeat(member)) return refuse('not_seated', 'only seated players offer draws');
    if (this.roster.phase === 'waiting') return refuse('game_not_started', 'the game has not started');
    if (this.roster.phase === 'over') return refuse('game_over', 'the game is over');
    if (!this.roster.isActive(member)) return refuse('not_active', 'only an active player can do this');
    return { ok: true, colour: member };
  }

  /** The pending offer, if `id` (when given) names it. */
  private target(member: MemberId, id: number | undefined): { ok: true; offer: Offer; colour: Colour } | { ok: false; error: PressRejection } {
    const who = this.player(member);
    if (!who.ok) return who;
    const offer = this.offer;
    if (!offer) return refuse('no_draw_offer', 'no draw offer is open');
    if (id !== undefined && id !== offer.id) return refuse('stale', `offer ${id} is no longer open (offer ${offer.id} is)`);
    return { ok: true, offer, colour: who.colour };
  }
}
