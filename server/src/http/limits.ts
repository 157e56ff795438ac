/**
 * The HTTP edge's limits: their defaults, and per-address token buckets with the time passed in.
 * See docs/PROTOCOL.md "Limits" for what each limit covers and how it is answered.
 */
import { TokenBucket } from '../tokenBucket.js';

/** A token bucket: `burst` requests at once, then one more every `intervalMs`. */
export interface Rate {
  readonly burst: number;
  readonly intervalMs: number;
}

/**
 * The buckets kept per client address, one per kind of request; `auth` is spent by failed
 * credentials only (`/metrics` with a token, the monitor), see `HttpGuard.credentialGate`.
 */
export const RATE_KINDS = ['create', 'reserve', 'lookup', 'api', 'auth'] as const;
/** A kind of request with its own per-address budget. */
export type RateKind = (typeof RATE_KINDS)[number];

/** Every limit of the HTTP edge (`ServerConfig.limits`; each field has a default). */
export interface HttpLimits {
  /** Largest request body, bytes: `/matchmake/*` and `/api/*` (413 `payload_too_large`). */
  readonly bodyBytes: number;
  /** Per-address budgets (429 `rate_limited`); `null` switches one off. */
  readonly rates: { readonly [K in RateKind]: Rate | null };
  /** Client addresses never rate-limited (exact addresses or CIDR blocks, see `address.ts`). */
  readonly exempt: readonly string[];
  /** Addresses remembered per bucket kind; the least recently seen are forgotten beyond it. */
  readonly maxAddresses: number;
  /** Time to receive a request's headers, ms (Node `server.headersTimeout`). */
  readonly headersTimeoutMs: number;
  /** Time to receive a whole request, ms (Node `server.requestTimeout`). */
  readonly requestTimeoutMs: number;
  /** Idle time of a kept-alive connection between requests, ms (Node `server.keepAliveTimeout`). */
  readonly keepAliveTimeoutMs: number;
}

/** The defaults (docs/PROTOCOL.md "Limits"). */
export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  bodyBytes: 8 * 1024,
  rates: {
    create: { burst: 5, intervalMs: 6_000 }, // 10 a minute after a burst of 5
    reserve: { burst: 20, intervalMs: 1_000 },
    lookup: { burst: 30, intervalMs: 500 },
    api: { burst: 60, intervalMs: 100 },
    auth: { burst: 5, intervalMs: 60_000 }, // 5 wrong secrets, then one more try a minute
  },
  exempt: ['127.0.0.1', '::1'],
  maxAddresses: 10_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
};

/** A partial `HttpLimits` (what `ServerConfig.limits` accepts). */
export type HttpLimitsInput = Partial<Omit<HttpLimits, 'rates'>> & { readonly rates?: Partial<HttpLimits['rates']> };

/** Fills in the defaults and checks the values; throws on a value that cannot work. */
export function resolveLimits(input: HttpLimitsInput = {}): HttpLimits {
  const limits: HttpLimits = {
    ...DEFAULT_HTTP_LIMITS,
    ...input,
    rates: { ...DEFAULT_HTTP_LIMITS.rates, ...input.rates },
  };
  const positive = (name: string, n: number) => {
    if (!Number.isFinite(n) || n <= 0) throw new Error(`limits.${name} must be a positive number (got ${n})`);
  };
  positive('bodyBytes', limits.bodyBytes);
  positive('maxAddresses', limits.maxAddresses);
  positive('headersTimeoutMs', limits.headersTimeoutMs);
  positive('requestTimeoutMs', limits.requestTimeoutMs);
  positive('keepAliveTimeoutMs', limits.keepAliveTimeoutMs);
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) throw new Error('limits.headersTimeoutMs must not exceed limits.requestTimeoutMs');
  for (const kind of RATE_KINDS) {
    const rate = limits.rates[kind];
    if (rate === null) continue;
    positive(`rates.${kind}.burst`, rate.burst);
    positive(`rates.${kind}.intervalMs`, rate.intervalMs);
  }
  return limits;
}

/** Parses `BURST:INTERVAL_MS` (e.g. `5:6000`) or `off`; null for a string that is neither. */
export function parseRate(text: string): Rate | 'off' | null {
  const t = text.trim().toLowerCase();
  if (t === 'off' || t === '0') return 'off';
  const m = /^(\d+):(\d+)$/.exec(t);
  if (!m) return null;
  const burst = Number(m[1]);
  const intervalMs = Number(m[2]);
  return burst > 0 && intervalMs > 0 ? { burst, intervalMs } : null;
}

/**
 * Token buckets keyed by client address. Memory stays bounded: a bucket that has refilled is
 * the same as no bucket and is dropped when met, and beyond `maxKeys` the least recently used
 * is forgotten (an address flooding from more than `maxKeys` places resets others' buckets,
 * which only ever lets more requests through).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    readonly rate: Rate,
    readonly maxKeys: number,
  ) {}

  /** Ms from `now` until `key` has a token (0: it has one); spends nothing. */
  waitMs(key: string, now: number): number {
    return this.buckets.get(key)?.waitMs(now) ?? 0;
  }

  /** Spends a token of `key` at `now` and returns 0, or returns the ms to wait (nothing spent). */
  take(key: string, now: number): number {
    this.sweep(now);
    const b = this.buckets.get(key) ?? new TokenBucket(this.rate.burst, 1 / this.rate.intervalMs);
    if (!b.take(now)) return b.waitMs(now);
    this.buckets.delete(key); // re-inserted last: the Map's order is the use order
    this.buckets.set(key, b);
    while (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value as string);
    return 0;
  }

  /** Number of addresses remembered. */
  get size(): number {
    return this.buckets.size;
  }

  /** Drops up to two refilled buckets from the least recently used end (amortised cleanup). */
  private sweep(now: number): void {
    for (let i = 0; i < 2; i++) {
      const first = this.buckets.entries().next();
      if (first.done || !first.value[1].isFull(now)) return;
      this.buckets.delete(first.value[0]);
    }
  }
}

/** One `RateLimiter` per kind (null where switched off), for one server. */
export type RateLimiters = { readonly [K in RateKind]: RateLimiter | null };

/** Builds the limiters of one server. */
export function rateLimiters(limits: HttpLimits): RateLimiters {
  const make = (kind: RateKind) => {
    const rate = limits.rates[kind];
    return rate ? new RateLimiter(rate, limits.maxAddresses) : null;
  };
  return { create: make('create'), reserve: make('reserve'), lookup: make('lookup'), api: make('api'), auth: make('auth') };
}
