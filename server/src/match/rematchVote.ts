/**
 * The rematch vote of a finished game as its log keeps it (docs/PROTOCOL.md, "Rematch"): who
 * offered, who was asked, who accepted or declined, and until when. The match records each
 * offer and answer as an event, so an offer still open survives a restart with its answers and
 * its deadline; the room (`table/rematch.ts`) creates the new game once the vote closes.
 */
import { type Colour, REMATCH_SECONDS } from '@djambi/shared';
import type { MatchEvent } from './types.js';

/** One offer and its answers. Immutable: each answer makes a new vote. */
export interface RematchVote {
  /** Counts this game's offers (1 for the first): tells one offer from the next. */
  readonly round: number;
  readonly by: Colour;
  /** The seated players (bots are not asked: they accept at once). */
  readonly asked: readonly Colour[];
  readonly accepted: readonly Colour[];
  readonly declined: readonly Colour[];
  /** Epoch ms when the answers close: the offer's time plus `REMATCH_SECONDS`. */
  readonly deadline: number;
}

/** A new offer by `by` (its own acceptance) at `at`, after `previous` (if any). */
export function openVote(previous: RematchVote | null, by: Colour, asked: readonly Colour[], at: number): RematchVote {
  return { round: (previous?.round ?? 0) + 1, by, asked: [...asked], accepted: [by], declined: [], deadline: at + REMATCH_SECONDS * 1000 };
}

/** `vote` with `colour`'s answer (replacing its earlier one). */
export function answerVote(vote: RematchVote, colour: Colour, accept: boolean): RematchVote {
  const accepted = vote.accepted.filter((c) => c !== colour);
  const declined = vote.declined.filter((c) => c !== colour);
  (accept ? accepted : declined).push(colour);
  return { ...vote, accepted, declined };
}

/** Every asked player has answered. */
export function allAnswered(vote: RematchVote): boolean {
  return vote.accepted.length + vote.declined.length >= vote.asked.length;
}

/** No answer is taken any more at `now`: everyone answered, or the deadline passed. */
export function voteClosed(vote: RematchVote, now: number): boolean {
  return allAnswered(vote) || now >= vote.deadline;
}

/**
 * Whether a finished game's log ends with a rematch offer still open at `now` (no rematch created
 * since, the deadline not passed): its room is re-opened for the vote. Reads the log only (no
 * replay); an offer that accepted one already open makes the answer "yes" for a little longer than
 * the vote's own deadline, which the re-opened room then judges exactly.
 */
export function offerPending(events: readonly MatchEvent[], now: number): boolean {
  for (let i = events.length - 1; i >= 0; i--) {
    const type = events[i].intent.type;
    if (type === 'rematch_created') return false;
    if (type === 'rematch_offer') return now < events[i].at + REMATCH_SECONDS * 1000;
  }
  return false;
}
