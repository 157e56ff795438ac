/**
 * Token buckets keyed by a limit key (a seat colour, a spectator's client address, or a
 * spectator's id when the room knows no address): a burst of 5 actions, then one per second.
 * Time comes in as `now`.
 */
import { TokenBucket } from '../tokenBucket.js';

/** Actions allowed at once. */
export const RATE_BURST = 5;
/** Milliseconds to earn one more action. */
export const RATE_INTERVAL_MS = 1000;
/** `press_page` requests allowed at once (a bucket of its own: paging never costs a message). */
export const PAGE_BURST = 5;
/** Milliseconds to earn one more `press_page`. */
export const PAGE_INTERVAL_MS = 1000;
/**
 * Buckets kept before full ones are dropped. A bucket that has refilled completely is the same as
 * no bucket, so dropping it forgets nothing; what is left are keys that acted in the last
 * `burst × interval` (5 s), which the room's connection and message limits bound.
 */
export const MAX_BUCKETS = 1000;

/** Token buckets keyed by limit key; a key's bucket survives reconnections, seat reclaims and rejoins. */
export class RateLimiter {
  private readonly buckets = new Map<string, TokenBucket>();
  /** Size at which the next sweep of full buckets runs (grows when a sweep frees little). */
  private sweepAt: number;

  constructor(
    readonly burst = RATE_BURST,
    readonly intervalMs = RATE_INTERVAL_MS,
    readonly maxBuckets = MAX_BUCKETS,
  ) {
    this.sweepAt = maxBuckets;
  }

  /** Milliseconds until `key` may act (0: now). Changes nothing. */
  wait(key: string, now: number): number {
    return this.buckets.get(key)?.waitMs(now) ?? 0;
  }

  /** Spends one token (call only for an accepted action, after `wait` answered 0). */
  take(key: string, now: number): void {
    let b = this.buckets.get(key);
    if (!b) {
      b = new TokenBucket(this.burst, 1 / this.intervalMs);
      this.buckets.set(key, b);
    }
    b.take(now);
    if (this.buckets.size > this.sweepAt) this.sweep(now);
  }

  /**
   * Moves buckets between keys, all at once (`[from, to]` pairs; two keys swapped each get the
   * other's): a seat holder who changes seat before the start keeps its own bucket, so moving
   * never buys a new burst. A key that had no bucket gives none (a full one).
   */
  move(pairs: readonly (readonly [string, string])[]): void {
    const taken = pairs.map(([from]) => this.buckets.get(from));
    for (const [from] of pairs) this.buckets.delete(from);
    pairs.forEach(([, to], i) => {
      const b = taken[i];
      if (b) this.buckets.set(to, b);
      else this.buckets.delete(to);
    });
  }

  /** Drops a key's bucket (a spectator without an address key, who left: its id never comes back). */
  forget(key: string): void {
    this.buckets.delete(key);
  }

  /** Buckets held now (for tests and monitoring). */
  get size(): number {
    return this.buckets.size;
  }

  /** Drops every bucket that has refilled completely (the same as no bucket). */
  private sweep(now: number): void {
    for (const [key, b] of this.buckets) if (b.isFull(now)) this.buckets.delete(key);
    // Amortised: when most buckets are still in use, the next sweep waits for the map to double.
    this.sweepAt = Math.max(this.maxBuckets, this.buckets.size * 2);
  }
}
