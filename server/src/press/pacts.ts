/**
 * Non-aggression pacts and the betrayal record. A pact binds its members not to kill, displace
 * (diplomat) or encircle one another's pieces while it is in force; the engine's turn effects
 * tell who did what, and the position before the turn tells who controlled the piece.
 *
 * Decisions (docs/PROTOCOL.md, "Pacts"): a betrayal is recorded once per (pact, traitor, victim, turn); the
 * pact is marked broken and the traitor is no longer bound by it (it stays in force between the
 * others, and ends when fewer than two remain bound). Leaving first is never a betrayal.
 * A round is as many normal turns as there were active players when the pact came into force.
 */
import { COLOURS, MAX_PACT_ROUNDS, activePlayers, hostileActs, type Colour, type Effect, type Position } from '@djambi/shared';
import type { RateLimiter } from './rateLimit.js';
import type { Roster } from './roster.js';
import { accepted, idField, refuse } from './text.js';
import type {
  Betrayal,
  Delivery,
  MemberId,
  PactEndReason,
  PactEvent,
  PactStatus,
  PactView,
  PressClientPayload,
  PressRejection,
  PressResult,
  RevealItem,
} from './types.js';

/** Longest pact, in rounds (declared with the payload schemas in `@djambi/shared`). */
export { MAX_PACT_ROUNDS };
/** Proposals one player may have waiting for answers at once. */
export const MAX_OPEN_PROPOSALS = 8;
/** Pacts per game (all states), a bound on memory. */
export const MAX_PACTS = 500;

interface Pact {
  readonly id: string;
  readonly proposer: Colour;
  readonly members: readonly Colour[];
  readonly rounds: number | null;
  readonly announced: boolean;
  readonly accepted: Set<Colour>;
  status: PactStatus;
  standing: Colour[];
  /** Normal turns the pact lasts once in force (rounds × active players then), or null. */
  turnBudget: number | null;
  normalTurns: number;
  broken: boolean;
  readonly proposedPly: number;
  inForcePly: number | null;
  endedPly: number | null;
  endReason: PactEndReason | null;
}

/** Betrayal detection lives in the shared engine (the client warns with it); re-exported here. */
export { hostileActs };

/** The pacts of one room and their betrayals. */
export class Pacts {
  private readonly pacts = new Map<string, Pact>();
  private readonly betrayals: { seq: number; betrayal: Betrayal }[] = [];
  private readonly log: { seq: number; item: RevealItem }[] = [];
  /** `pact|traitor|victim|ply` of every recorded betrayal. */
  private readonly recorded = new Set<string>();

  constructor(
    private readonly roster: Roster,
    private readonly limiter: RateLimiter,
    private readonly newId: () => string,
  ) {}

  /** `pact_propose { with, rounds?, announce? }`: proposes a pact to other active players. */
  propose(member: MemberId, p: PressClientPayload<'pact_propose'>, now: number): PressResult {
    const list: readonly string[] = p.with;
    const rounds = p.rounds ?? null;
    const announce = p.announce ?? false;
    const who = this.player(member);
    if (!who.ok) return who;
    const proposer = who.colour;
    const bad = list.find((c) => !this.roster.isSeat(c));
    if (bad !== undefined) return refuse('bad_members', `"${String(bad).slice(0, 8)}" is not a seat of this game`);
    const members = COLOURS.filter((c) => c === proposer || list.includes(c));
    if (members.length < 2) return refuse('bad_members', 'a pact needs at least one other player');
    const out = members.find((c) => !this.roster.isActive(c));
    if (out) return refuse('not_active', `${out} is no longer in the game`);
    const key = members.join('');
    for (const q of this.pacts.values()) {
      if (q.members.join('') !== key) continue;
      if (q.status === 'proposed' || (q.status === 'in_force' && q.standing.length === q.members.length)) {
        return refuse('pact_exists', `these players already have a ${q.status === 'proposed' ? 'pending' : 'standing'} pact (${q.id})`);
      }
    }
    let open = 0;
    for (const q of this.pacts.values()) if (q.proposer === proposer && q.status === 'proposed') open++;
    if (open >= MAX_OPEN_PROPOSALS) return refuse('too_many_pacts', `at most ${MAX_OPEN_PROPOSALS} proposals may wait for answers`);
    if (this.pacts.size >= MAX_PACTS) return refuse('too_many_pacts', 'this game has reached its pact limit');
    const limitKey = this.roster.limitKeyOf(proposer);
    const wait = this.limiter.wait(limitKey, now);
    if (wait > 0) return refuse('rate_limited', `too many actions: wait ${wait} ms`, wait);

    let id = this.newId();
    for (let guard = 0; this.pacts.has(id) || idField(id) === null; guard++) {
      if (guard > 100) throw new Error('pact id generator keeps repeating itself');
      id = this.newId();
    }
    this.limiter.take(limitKey, now);
    const pact: Pact = {
      id,
      proposer,
      members,
      rounds,
      announced: announce,
      accepted: new Set([proposer]),
      status: 'proposed',
      standing: [],
      turnBudget: null,
      normalTurns: 0,
      broken: false,
      proposedPly: this.roster.ply,
      inForcePly: null,
      endedPly: null,
      endReason: null,
    };
    this.pacts.set(id, pact);
    this.note(pact, 'proposed', proposer, now);
    return accepted([this.event(pact, 'proposed', proposer)]);
  }

  /** `pact_accept { pact }`: an invitee accepts; the pact is in force once everyone has. */
  accept(member: MemberId, p: PressClientPayload<'pact_accept'>, now: number): PressResult {
    const found = this.target(member, p.pact);
    if (!found.ok) return found;
    const { pact, colour } = found;
    if (pact.status === 'ended') return refuse('pact_closed', 'this pact has ended');
    if (pact.status === 'in_force' || pact.accepted.has(colour)) return refuse('already_answered', 'you have already accepted this pact');
    pact.accepted.add(colour);
    this.note(pact, 'accepted', colour, now);
    if (pact.members.some((c) => !pact.accepted.has(c))) return accepted([this.event(pact, 'accepted', colour)]);
    pact.status = 'in_force';
    pact.standing = [...pact.members];
    pact.inForcePly = this.roster.ply;
    pact.turnBudget = pact.rounds === null ? null : pact.rounds * this.roster.activeSeats().length;
    this.note(pact, 'in_force', colour, now);
    return accepted([this.event(pact, 'in_force', colour)]);
  }

  /** `pact_decline { pact }`: a member refuses a pending pact (the proposer withdraws it); it ends. */
  decline(member: MemberId, p: PressClientPayload<'pact_decline'>, now: number): PressResult {
    const found = this.target(member, p.pact);
    if (!found.ok) return found;
    const { pact, colour } = found;
    if (pact.status !== 'proposed')
      return refuse('pact_closed', pact.status === 'in_force' ? 'the pact is in force: leave it with pact_leave' : 'this pact has ended');
    return accepted([this.withdraw(pact, colour, now)]);
  }

  /** `pact_leave { pact }`: a member leaves openly (a pending pact is declined or withdrawn). */
  leave(member: MemberId, p: PressClientPayload<'pact_leave'>, now: number): PressResult {
    const found = this.target(member, p.pact);
    if (!found.ok) return found;
    const { pact, colour } = found;
    if (pact.status === 'proposed') return accepted([this.withdraw(pact, colour, now)]);
    if (pact.status === 'ended' || !pact.standing.includes(colour)) return refuse('pact_closed', 'you are no longer bound by this pact');
    pact.standing = pact.standing.filter((c) => c !== colour);
    if (pact.standing.length < 2) this.end(pact, 'left');
    this.note(pact, 'left', colour, now);
    return accepted([this.event(pact, 'left', colour)]);
  }

  /**
   * After an accepted turn (`ply`: its 0-based index, `before.ply`): records betrayals by `mover`,
   * releases eliminated members and counts the turn towards expiry. Returns what to send.
   */
  afterTurn(before: Position, after: Position, effects: readonly Effect[], mover: Colour, ply: number, turnText: string, now: number): Delivery[] {
    // Most turns of most games: no pact is proposed or in force, so there is nothing to judge.
    if (!this.anyOpen()) return [];
    const out: Delivery[] = [];
    const bound = [...this.pacts.values()].filter((p) => p.status === 'in_force' && p.standing.includes(mover));
    if (bound.length > 0) {
      const acts = hostileActs(before, effects, mover);
      const records: { pact: Pact; betrayal: Betrayal }[] = [];
      for (const pact of bound) {
        for (const [victim, what] of acts) {
          if (!pact.standing.includes(victim)) continue;
          const key = `${pact.id}|${mover}|${victim}|${ply}`;
          if (this.recorded.has(key)) continue;
          this.recorded.add(key);
          const betrayal: Betrayal = { pactId: pact.id, traitor: mover, victim, ply, turnText, acts: what, at: now };
          this.betrayals.push({ seq: this.roster.nextSeq(), betrayal });
          records.push({ pact, betrayal });
        }
      }
      for (const { pact } of records) {
        if (!pact.standing.includes(mover)) continue;
        pact.broken = true;
        pact.standing = pact.standing.filter((c) => c !== mover);
        if (pact.standing.length < 2) this.end(pact, 'betrayed', ply);
      }
      for (const { pact, betrayal } of records) out.push({ to: this.audience(pact), type: 'betrayal', payload: { betrayal, pact: this.view(pact) } });
    }
    const stillActive = new Set(activePlayers(after));
    const gone = activePlayers(before).filter((c) => !stillActive.has(c));
    out.push(...this.onEliminated(gone, ply, now));
    if (before.turnKind === 'normal') {
      for (const pact of this.pacts.values()) {
        if (pact.status !== 'in_force') continue;
        pact.normalTurns++;
        if (pact.turnBudget !== null && pact.normalTurns >= pact.turnBudget) {
          this.end(pact, 'expired', ply);
          this.note(pact, 'expired', null, now, ply);
          out.push(this.event(pact, 'expired', null));
        }
      }
    }
    return out.filter((d) => d.to.length > 0);
  }

  /** Whether a pact is proposed or in force. */
  private anyOpen(): boolean {
    for (const pact of this.pacts.values()) if (pact.status !== 'ended') return true;
    return false;
  }

  /** Players who left the game (eliminated or resigned) are released from every pact. */
  onEliminated(colours: readonly Colour[], ply: number, now: number): Delivery[] {
    const out: Delivery[] = [];
    for (const colour of colours) {
      for (const pact of this.pacts.values()) {
        if (!pact.members.includes(colour)) continue;
        if (pact.status === 'proposed') {
          this.end(pact, 'eliminated', ply);
        } else if (pact.status === 'in_force' && pact.standing.includes(colour)) {
          pact.standing = pact.standing.filter((c) => c !== colour);
          if (pact.standing.length < 2) this.end(pact, 'eliminated', ply);
        } else {
          continue;
        }
        this.note(pact, 'eliminated', colour, now, ply);
        out.push(this.event(pact, 'eliminated', colour));
      }
    }
    return out.filter((d) => d.to.length > 0);
  }

  /** The game is over: every pact still open ends (no message: the reveal follows). */
  endGame(): void {
    for (const pact of this.pacts.values()) if (pact.status !== 'ended') this.end(pact, 'game_over');
  }

  /** Pacts `member` may see: its own, and announced pacts once in force. */
  viewsFor(member: MemberId): PactView[] {
    return [...this.pacts.values()].filter((p) => this.visibleTo(p, member)).map((p) => this.view(p));
  }

  /** Betrayals `member` may see (those of the pacts it sees). */
  betrayalsFor(member: MemberId): Betrayal[] {
    return this.betrayals.filter((b) => this.visibleTo(this.pacts.get(b.betrayal.pactId)!, member)).map((b) => b.betrayal);
  }

  /** Every pact (for the reveal). */
  allViews(): PactView[] {
    return [...this.pacts.values()].map((p) => this.view(p));
  }

  /** Every betrayal in order (for the reveal). */
  allBetrayals(): Betrayal[] {
    return this.betrayals.map((b) => b.betrayal);
  }

  /** Pact events and betrayals with their room-wide order (for the reveal). */
  revealItems(): { seq: number; item: RevealItem }[] {
    return [...this.log, ...this.betrayals.map((b) => ({ seq: b.seq, item: { kind: 'betrayal' as const, ...b.betrayal } }))];
  }

  // ---- internals -------------------------------------------------------------------------------

  private visibleTo(pact: Pact, member: MemberId): boolean {
    return (pact.members as readonly MemberId[]).includes(member) || (pact.announced && pact.inForcePly !== null && this.roster.isKnown(member));
  }

  /** Members always; the whole table once an announced pact is in force. */
  private audience(pact: Pact): MemberId[] {
    return pact.announced && pact.inForcePly !== null ? this.roster.everyone() : [...pact.members];
  }

  private event(pact: Pact, event: PactEvent, by: Colour | null): Delivery {
    return { to: this.audience(pact), type: 'pact', payload: { event, by, pact: this.view(pact) } };
  }

  private withdraw(pact: Pact, colour: Colour, now: number): Delivery {
    const event: PactEvent = colour === pact.proposer ? 'withdrawn' : 'declined';
    this.end(pact, event);
    this.note(pact, event, colour, now);
    return this.event(pact, event, colour);
  }

  private end(pact: Pact, reason: PactEndReason, ply = this.roster.ply): void {
    pact.status = 'ended';
    pact.endedPly = ply;
    pact.endReason = reason;
  }

  private note(pact: Pact, event: PactEvent, by: Colour | null, now: number, ply = this.roster.ply): void {
    this.log.push({ seq: this.roster.nextSeq(), item: { kind: 'pact', pactId: pact.id, event, by, ply, at: now } });
  }

  /** An active seated player during the game. */
  private player(member: MemberId): { ok: true; colour: Colour } | { ok: false; error: PressRejection } {
    if (!this.roster.isKnown(member)) return refuse('unknown_member', 'you are not in this room');
    if (!this.roster.isSeat(member)) return refuse('not_seated', 'only seated players make pacts');
    if (this.roster.phase === 'waiting') return refuse('game_not_started', 'pacts are made once the game has started');
    if (this.roster.phase === 'over') return refuse('game_over', 'the game is over');
    if (!this.roster.isActive(member)) return refuse('not_active', 'you are no longer in the game');
    return { ok: true, colour: member };
  }

  /** The pact `id` if `member` belongs to it (others get `no_such_pact`, existing or not). */
  private target(member: MemberId, id: string): { ok: true; pact: Pact; colour: Colour } | { ok: false; error: PressRejection } {
    if (!this.roster.isKnown(member)) return refuse('unknown_member', 'you are not in this room');
    if (!this.roster.isSeat(member)) return refuse('not_seated', 'only seated players make pacts');
    const pact = this.pacts.get(id);
    if (!pact?.members.includes(member)) return refuse('no_such_pact', 'no such pact');
    if (this.roster.phase === 'over') return refuse('game_over', 'the game is over');
    if (!this.roster.isActive(member)) return refuse('not_active', 'you are no longer in the game');
    return { ok: true, pact, colour: member };
  }

  private view(p: Pact): PactView {
    return {
      id: p.id,
      proposer: p.proposer,
      members: [...p.members],
      rounds: p.rounds,
      announced: p.announced,
      status: p.status,
      accepted: p.members.filter((c) => p.accepted.has(c)),
      standing: [...p.standing],
      turnsLeft: p.status === 'in_force' && p.turnBudget !== null ? Math.max(0, p.turnBudget - p.normalTurns) : null,
      // In the unit the pact was made in: a round is as many normal turns as players were active when it came into force.
      roundsLeft:
        p.status === 'in_force' && p.turnBudget !== null && p.rounds !== null
          ? Math.ceil(Math.max(0, p.turnBudget - p.normalTurns) / (p.turnBudget / p.rounds))
          : null,
      broken: p.broken,
      proposedPly: p.proposedPly,
      inForcePly: p.inForcePly,
      endedPly: p.endedPly,
      endReason: p.endReason,
    };
  }
}
