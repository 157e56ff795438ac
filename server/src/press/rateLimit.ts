/** Per-member token buckets: a burst of 5 actions, then one per second. Time comes in as `now`. */
import type { MemberId } from './types.js';

/** Actions allowed at once. */
export const RATE_BURST = 5;
/** Milliseconds to earn one more action. */
export const RATE_INTERVAL_MS = 1000;

interface Bucket {
  tokens: number;
  at: number;
}

/** Token buckets keyed by member; a seat keeps its bucket across reconnections and reclaims. */
export class RateLimiter {
  private readonly buckets = new Map<MemberId, Bucket>();

  constructor(
    readonly burst = RATE_BURST,
    readonly intervalMs = RATE_INTERVAL_MS,
  ) {}

  /** Milliseconds until `member` may act (0: now). Changes nothing. */
  wait(member: MemberId, now: number): number {
    const tokens = this.tokens(member, now);
    return tokens >= 1 ? 0 : Math.ceil((1 - tokens) * this.intervalMs);
  }

  /** Spends one token (call only for an accepted action, after `wait` answered 0). */
  take(member: MemberId, now: number): void {
    const tokens = this.tokens(member, now);
    const prev = this.buckets.get(member);
    this.buckets.set(member, { tokens: Math.max(0, tokens - 1), at: prev ? Math.max(prev.at, now) : now });
  }

  /** Drops a member's bucket (a spectator who left). */
  forget(member: MemberId): void {
    this.buckets.delete(member);
  }

  private tokens(member: MemberId, now: number): number {
    const b = this.buckets.get(member);
    if (!b) return this.burst;
    const elapsed = Number.isFinite(now) && now > b.at ? now - b.at : 0; // a clock going back earns nothing
    return Math.min(this.burst, b.tokens + elapsed / this.intervalMs);
  }
}
