/**
 * One token bucket, the base of every rate limit (HTTP, room messages, press). Time comes in as
 * `now` (ms) on every call, so a test drives it with a fake clock.
 */

/** At most `capacity` tokens, refilled at `perMs` tokens a millisecond; it starts full. */
export class TokenBucket {
  private tokens: number;
  private at = Number.NEGATIVE_INFINITY;

  constructor(
    readonly capacity: number,
    readonly perMs: number,
  ) {
    this.tokens = capacity;
  }

  /** Tokens available at `now` (changes nothing); a clock going back, or not a number, earns nothing. */
  available(now: number): number {
    return this.advances(now) ? Math.min(this.capacity, this.tokens + (now - this.at) * this.perMs) : this.tokens;
  }

  /** Spends `cost` tokens at `now` and returns true, or returns false and spends nothing. */
  take(now: number, cost = 1): boolean {
    this.tokens = this.available(now);
    if (this.advances(now)) this.at = now;
    if (this.tokens < cost) return false;
    this.tokens -= cost;
    return true;
  }

  /** Milliseconds from `now` until `cost` tokens are available (changes nothing): 0 when they are, else at least 1. */
  waitMs(now: number, cost = 1): number {
    const missing = cost - this.available(now);
    // The epsilon absorbs float noise (1 - 0.4 tokens at 1 per 1000 ms is 600, not 601).
    return missing <= 0 ? 0 : Math.max(1, Math.ceil(missing / this.perMs - 1e-6));
  }

  /** Whether the bucket is full at `now` (the same as a bucket never used). */
  isFull(now: number): boolean {
    return this.available(now) >= this.capacity;
  }

  private advances(now: number): boolean {
    return now > this.at && Number.isFinite(now);
  }
}
