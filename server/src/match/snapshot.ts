/**
 * A match as plain data, for comparing two matches (a live one and one restored from its
 * events): configuration, phase, seats, the game record and position, the clocks, and what
 * every press member may see (its history: channels, read marks, pacts, betrayals, the draw
 * offer, the reveal), and the rematch vote. Two matches with equal snapshots are the same to
 * every participant.
 */
import { makeFen } from '@djambi/shared';
import type { Match } from './match.js';

/** The snapshot of `match` (JSON-serialisable, deterministic key order). */
export function snapshotOf(match: Match): unknown {
  const clock = match.clock;
  return {
    config: match.config,
    phase: match.phase,
    seats: [...match.seats.seats.values()].map((s) => ({ ...s })),
    creatorHash: match.seats.creatorHash,
    host: { hash: match.seats.hostHash, token: match.seats.hostTokenHash },
    record: match.game.recordText(),
    fen: makeFen(match.position),
    clock: clock ? { remaining: [...clock.remaining], running: clock.running, startedAt: clock.startedAt } : null,
    press: match.press.roster.everyone().map((member) => match.press.historyFor(member)),
    reveal: match.press.reveal(),
    rematch: { code: match.rematch, vote: match.rematchVote },
  };
}
