/**
 * Per-connection message budget (as lila's socket server gives every connection one): a token
 * bucket for every message a connection sends (game, lobby and press alike), and a second
 * bucket of "strikes" spent by each message refused for the budget. A connection that keeps
 * flooding runs out of strikes and is closed with 1008. Time comes in as `now` (epoch ms).
 */
import { TokenBucket } from '../tokenBucket.js';

/** Limits of the message budget (documented in docs/PROTOCOL.md, "Limits"). */
export interface BudgetLimits {
  /** Messages a connection may send at once. */
  readonly burst: number;
  /** Messages earned per second after the burst. */
  readonly perSecond: number;
  /** Messages refused for the budget before the connection is closed. */
  readonly strikes: number;
  /** Strikes forgiven per second of calm. */
  readonly strikesPerSecond: number;
}

/** Defaults: 40 messages at once, then 20 per second; 100 refused messages close the connection. */
export const DEFAULT_BUDGET: BudgetLimits = Object.freeze({ burst: 40, perSecond: 20, strikes: 100, strikesPerSecond: 10 });

/** What to do with one message: handle it, refuse it (`rate_limited`), or close the connection (1008). */
export type BudgetVerdict = 'ok' | 'limited' | 'close';

/** The budget of one connection. */
export class MessageBudget {
  private readonly tokens: TokenBucket;
  private readonly strikes: TokenBucket;
  /** The time of the last `take`, for `retryAfterMs`. */
  private last = 0;

  constructor(limits: BudgetLimits = DEFAULT_BUDGET) {
    this.tokens = new TokenBucket(limits.burst, limits.perSecond / 1000);
    this.strikes = new TokenBucket(limits.strikes, limits.strikesPerSecond / 1000);
  }

  /** Spends `cost` tokens for a message received at `now`. */
  take(now: number, cost = 1): BudgetVerdict {
    this.last = now;
    if (this.tokens.take(now, cost)) return 'ok';
    // The refusal that spends the last strike closes.
    return this.strikes.take(now) && this.strikes.available(now) > 0 ? 'limited' : 'close';
  }

  /** Milliseconds until one message is affordable again. */
  retryAfterMs(): number {
    return this.tokens.waitMs(this.last);
  }
}

/** Token cost of a frame: one per message, one more per started 2 KB beyond the first. */
export function frameCost(bytes: number): number {
  return 1 + Math.floor(Math.max(0, bytes - 1) / 2048);
}
