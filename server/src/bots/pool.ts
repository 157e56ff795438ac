/**
 * The bot pool: one search worker (`worker_threads`) per process, so the room's event loop never
 * runs a search (a 2-core machine: one core for rooms, one for bots). Requests wait in one FIFO
 * queue; each has a deadline (its level's budget plus a grace) counted from the moment it is
 * queued. A request that waits too long, a worker that crashes or misses the deadline, or a full
 * queue still gets a legal turn: the greedy fallback, computed on the calling thread only then
 * (a few milliseconds, so the rooms' thread pays it only when the search failed); a failed worker
 * is replaced. Pact valuations and answers (`valuePacts`,
 * `answerPact`) share the queue and answer null when late.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type Colour, playTurn, type Position, type Turn } from '@djambi/shared';
import type { BetrayalRecord, PactDecision, PactProposal } from './pact.js';
import type { AnswerRequest, PactRequest, ThinkRequest, WorkerReply, WorkerRequest } from './protocol.js';
import { fallbackTurn, LEVEL_TIME_MS, type Decision, type Personality, type ThinkOptions } from './search.js';

/** Margin past a request's budget before the pool plays the fallback and replaces the worker. */
export const DEFAULT_GRACE_MS = 150;
/** Requests that may wait at once; more are answered at once with their fallback. */
export const DEFAULT_MAX_QUEUE = 64;
/** Budget of a pact valuation (notes §6.1: two one-ply searches per group). */
export const PACT_BUDGET_MS = 300;

/** How the pool starts its worker. */
export interface BotPoolOptions {
  readonly graceMs?: number;
  readonly maxQueue?: number;
  /** Lets tests ask the worker to crash or hang (never set in production). */
  readonly testHooks?: boolean;
}

/** The answer of a request: the decision, and where the turn came from. */
export interface BotAnswer {
  readonly turn: Turn;
  /** `worker`: the search; `fallback`: the greedy turn (deadline, crash, full queue). */
  readonly source: 'worker' | 'fallback';
  readonly decision: Decision | null;
  /** Time from the request to the answer, in ms. */
  readonly ms: number;
}

/**
 * Why a turn was played with the fallback: `busy` (the queue was full), `late` (its deadline
 * passed while it waited or while the worker searched), `failed` (the worker crashed, or its
 * answer could not be sent or used), `closed` (the pool was stopping).
 */
export const FALLBACK_REASONS = ['busy', 'late', 'failed', 'closed'] as const;
/** Why a turn was played with the fallback. */
export type FallbackReason = (typeof FALLBACK_REASONS)[number];

/** Counters for monitoring (`/metrics`) and tests. */
export interface BotPoolStats {
  served: number;
  fallbacks: number;
  /** Turns played with the fallback, by reason (a position nobody is to move in is not counted). */
  readonly fallbacksBy: Record<FallbackReason, number>;
  restarts: number;
  /** Requests waiting for the worker (not the one it is on). */
  queued: number;
}

/** A queued request: what to send (`timeMs` of a decision is set when it is sent) and how to settle it. */
interface Pending {
  readonly request: WorkerRequest;
  readonly budget: number;
  readonly start: number;
  readonly deadline: number;
  /** The worker's reply, or null and why (none: nothing to ask). */
  readonly settle: (reply: WorkerReply | null, why?: FallbackReason) => void;
}

/** Where the worker lives: compiled `worker.js` next to this file, or `worker.ts` through tsx. */
function spawnWorker(testHooks: boolean): Worker {
  const here = import.meta.url;
  const workerData = { testHooks };
  if (!here.endsWith('.ts')) return new Worker(new URL('./worker.js', here), { workerData });
  // The ESM entry of tsx's API (require.resolve would give its CommonJS one), from its exports map.
  const pkg = createRequire(here).resolve('tsx/package.json');
  const exportsMap = (JSON.parse(readFileSync(pkg, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports;
  const tsx = new URL(exportsMap['./esm/api'].import.default, pathToFileURL(pkg)).href;
  const tsconfig = fileURLToPath(new URL('./worker.tsconfig.json', here));
  const entry = new URL('./worker.ts', here).href;
  const code = `import(${JSON.stringify(tsx)}).then((api) => { api.register({ tsconfig: ${JSON.stringify(tsconfig)} }); return import(${JSON.stringify(entry)}); })`;
  return new Worker(code, { eval: true, workerData });
}

/** One worker, one queue, a deadline per request. */
export class BotPool {
  readonly stats: BotPoolStats = { served: 0, fallbacks: 0, fallbacksBy: { busy: 0, late: 0, failed: 0, closed: 0 }, restarts: 0, queued: 0 };
  private worker: Worker | null = null;
  private online: Promise<void> | null = null;
  private readonly queue: Pending[] = [];
  private current: Pending | null = null;
  private timer: NodeJS.Timeout | null = null;
  private nextId = 1;
  private closed = false;
  private readonly graceMs: number;
  private readonly maxQueue: number;

  constructor(private readonly options: BotPoolOptions = {}) {
    this.graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
    this.maxQueue = options.maxQueue ?? DEFAULT_MAX_QUEUE;
  }

  /** Start the worker now and wait until it answers (optional: requests start it too). */
  ready(): Promise<void> {
    this.ensureWorker();
    return this.online!;
  }

  /**
   * A turn for the player to move in `position`. Resolves within the level's budget plus the
   * grace (or the queue wait), never rejects, and the turn is always legal.
   */
  think(position: Position, options: Omit<ThinkOptions, 'now'>, test?: 'crash' | 'hang'): Promise<BotAnswer> {
    const start = performance.now();
    const fallback = () => fallbackTurn(position, options.personality?.treacherous ? [] : options.partners);
    const request: ThinkRequest = { id: this.nextId++, position, options, ...(test ? { test } : {}) };
    return new Promise<BotAnswer>((resolve) => {
      const settle = (reply: WorkerReply | null, why?: FallbackReason) => {
        // The room validates every intent anyway; checking here keeps the fallback promise exact.
        const decision = reply?.decision && playTurn(position, reply.decision.turn).ok ? reply.decision : null;
        this.stats.served++;
        if (!decision) {
          this.stats.fallbacks++;
          const reason = why ?? (reply ? 'failed' : null);
          if (reason) this.stats.fallbacksBy[reason]++;
        }
        resolve({ turn: decision?.turn ?? fallback(), source: decision ? 'worker' : 'fallback', decision, ms: performance.now() - start });
      };
      this.enqueue({ request, budget: options.timeMs ?? LEVEL_TIME_MS[options.level], start, deadline: 0, settle }, position.toMove === null);
    });
  }

  /**
   * The value for `me` of a pact with each group of `groups` (`pactValue`, in militants), computed
   * by the worker; null when it could not answer in time. Never rejects.
   */
  valuePacts(position: Position, me: Colour, groups: readonly (readonly Colour[])[], betrayals: readonly BetrayalRecord[]): Promise<number[] | null> {
    const start = performance.now();
    const request: PactRequest = { id: this.nextId++, kind: 'pact', position, me, groups, betrayals };
    return new Promise<number[] | null>((resolve) => {
      const settle = (reply: WorkerReply | null) => resolve(reply?.values?.length === groups.length ? reply.values : null);
      this.enqueue({ request, budget: PACT_BUDGET_MS, start, deadline: 0, settle }, groups.length === 0);
    });
  }

  /** `decidePact` for `me`, computed by the worker; null when it could not answer in time. Never rejects. */
  answerPact(
    position: Position,
    me: Colour,
    proposal: PactProposal,
    betrayals: readonly BetrayalRecord[],
    personality: Personality,
  ): Promise<PactDecision | null> {
    const start = performance.now();
    const request: AnswerRequest = { id: this.nextId++, kind: 'answer', position, me, proposal, betrayals, personality };
    return new Promise<PactDecision | null>((resolve) => {
      this.enqueue({ request, budget: PACT_BUDGET_MS, start, deadline: 0, settle: (reply) => resolve(reply?.answer ?? null) }, false);
    });
  }

  /** Queues `p` (its deadline counted from now), or settles it at once when it cannot be served. */
  private enqueue(p: Pending, answerNow: boolean): void {
    const queued: Pending = { ...p, deadline: p.start + p.budget + this.graceMs };
    if (answerNow) return queued.settle(null);
    if (this.closed) return queued.settle(null, 'closed');
    if (this.queue.length >= this.maxQueue) return queued.settle(null, 'busy');
    this.queue.push(queued);
    this.stats.queued = this.queue.length;
    this.pump();
  }

  /** Stop the worker; waiting requests get their fallback. */
  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.settle(null, 'closed');
    this.stats.queued = 0;
    if (this.current) this.current.settle(null, 'closed');
    this.current = null;
    this.clearTimer();
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const w = spawnWorker(this.options.testHooks === true);
    this.worker = w;
    this.online = new Promise<void>((resolve) => {
      const onReady = (m: WorkerReply) => {
        if (m.ready) {
          w.off('message', onReady);
          resolve();
        }
      };
      w.on('message', onReady);
      w.once('exit', () => resolve());
    });
    w.on('message', (m: WorkerReply) => this.onReply(w, m));
    w.on('error', () => this.fail(w));
    w.on('exit', () => this.fail(w));
    // Referenced only while starting or thinking: an idle worker never keeps the process alive.
    void this.online.then(() => {
      if (this.worker === w && !this.current) w.unref();
    });
    return w;
  }

  /** Send the next request when the worker is free. */
  private pump(): void {
    if (this.current || this.closed) return;
    for (;;) {
      const p = this.queue.shift();
      this.stats.queued = this.queue.length;
      if (!p) return;
      const left = p.deadline - performance.now() - this.graceMs;
      if (left <= 1) {
        p.settle(null, 'late');
        continue;
      }
      const w = this.ensureWorker();
      this.current = p;
      w.ref();
      const r = p.request;
      const req: WorkerRequest = r.kind === 'pact' || r.kind === 'answer' ? r : { ...r, options: { ...r.options, timeMs: Math.min(p.budget, left) } };
      try {
        w.postMessage(req);
      } catch {
        // Not cloneable (a position carrying something other than plain data): answer at once.
        this.current = null;
        w.unref();
        p.settle(null, 'failed');
        continue;
      }
      this.timer = setTimeout(() => this.timeout(w), Math.max(1, p.deadline - performance.now()));
      return;
    }
  }

  private onReply(w: Worker, m: WorkerReply): void {
    if (w !== this.worker || !this.current || m.id !== this.current.request.id) return;
    const p = this.current;
    this.current = null;
    this.clearTimer();
    w.unref();
    p.settle(m);
    this.pump();
  }

  /** The deadline passed: play the fallback and replace the worker (it may be stuck in a search). */
  private timeout(w: Worker): void {
    this.timer = null;
    if (w !== this.worker) return;
    void w.terminate();
    this.fail(w, 'late');
  }

  /** The worker died or was stopped: answer its request with the fallback and start afresh. */
  private fail(w: Worker, why: FallbackReason = 'failed'): void {
    if (w !== this.worker) return;
    this.worker = null;
    this.online = null;
    this.clearTimer();
    const p = this.current;
    this.current = null;
    if (p) p.settle(null, why);
    if (this.closed) return;
    this.stats.restarts++;
    if (this.queue.length) this.pump();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
