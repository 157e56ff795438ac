/**
 * Prometheus metrics of one server process (prom-client), served at `/metrics` on the process's
 * own port: scrape every process directly, never through the public nginx entry (which answers
 * 404 there). Rooms and clients are read from the matchmaker at scrape time; the rest is counted
 * by the small functions below, which the code calls where things happen. Never labelled by room
 * (unbounded cardinality): rejections are labelled by their code only.
 */
import { timingSafeEqual } from 'node:crypto';
import { matchMaker } from '@colyseus/core';
import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { roomCensus } from './census.js';

/** Latency buckets, seconds: 50 µs (an SQLite append) to 2.5 s. */
const BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** A rejection code as a label: the code when it looks like one, else `other`. */
function codeLabel(code: string): string {
  return /^[a-z][a-z0-9_]{0,47}$/.test(code) ? code : 'other';
}

/** Options of `createMetrics`. */
export interface MetricsOptions {
  /** Labels on every series (e.g. `{ node: 'game1' }`). */
  readonly labels?: Record<string, string>;
  /** Node's default metrics: event-loop lag, GC, heap, CPU, RSS, handles (default true). */
  readonly defaults?: boolean;
}

/** The metrics of one process and the functions that count. */
export interface Metrics {
  readonly registry: Registry;
  /** `n` turns were accepted (and saved). */
  turnAccepted(n?: number): void;
  /** A client's message, join or request was refused with `code`. */
  rejected(code: string): void;
  /** From a turn's arrival to the patch that shows it, in ms. */
  observeTurnToPatch(ms: number): void;
  /** One append (one or several events in one transaction) to the game log, in ms. */
  observeAppend(ms: number): void;
  /** A failed append to the game log (`fenced`, `unavailable`...). */
  appendFailed(kind: string): void;
  /** A game's log broke: `events` events after its valid prefix were moved to the quarantine. */
  quarantined(events: number): void;
  /** Where the games re-opened from the log and the re-opens in progress are read at scrape time. */
  watchReopens(read: () => { readonly total: number; readonly running: number; readonly waiting: number }): void;
  /** Where the live rooms nobody sat at are counted (`games/quota.ts`), read at scrape time. */
  watchQuota(read: () => { readonly unseated: number; readonly unseatedWithBots: number }): void;
  /**
   * Where the bot pool's figures are read at scrape time: the requests waiting for its worker,
   * and the turns played with the fallback, by reason (`BotPool.stats`).
   */
  watchBots(read: () => { readonly queued: number; readonly fallbacksBy: Readonly<Record<string, number>> }): void;
  /** A room hit an internal error in `where` (a method or `intent`, `timer`, `frame`) and closed. */
  fault(where: string): void;
  /** The text exposition of every metric. */
  render(): Promise<string>;
}

/** A new registry with the server's metrics (and Node's defaults). */
export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  if (options.labels) registry.setDefaultLabels(options.labels);
  if (options.defaults !== false) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  new Gauge({
    name: 'djambi_rooms',
    help: 'Rooms (games) live in this process',
    registers,
    collect() {
      this.set(matchMaker.stats.local.roomCount);
    },
  });
  new Gauge({
    name: 'djambi_room_objects',
    help: 'Room objects Colyseus built in this process and did not close (above djambi_rooms: a leaked room)',
    registers,
    collect() {
      this.set(roomCensus.held);
    },
  });
  new Gauge({
    name: 'djambi_clients',
    help: 'Connected clients (players and spectators) of this process',
    registers,
    collect() {
      this.set(matchMaker.stats.local.ccu);
    },
  });
  const turns = new Counter({ name: 'djambi_turns_accepted_total', help: 'Turns accepted and saved', registers });
  const rejections = new Counter({
    name: 'djambi_rejections_total',
    help: 'Refused client messages, joins and requests, by error code',
    labelNames: ['code'],
    registers,
  });
  const turnToPatch = new Histogram({
    name: 'djambi_turn_to_patch_seconds',
    help: 'From a turn message to the patch that shows it',
    buckets: BUCKETS,
    registers,
  });
  const append = new Histogram({ name: 'djambi_store_append_seconds', help: 'One append to the game log (one transaction)', buckets: BUCKETS, registers });
  const appendFailures = new Counter({
    name: 'djambi_store_append_failures_total',
    help: 'Failed appends to the game log, by kind',
    labelNames: ['kind'],
    registers,
  });
  const quarantines = new Counter({
    name: 'djambi_log_quarantines_total',
    help: "Games whose log broke (a gap, an unreadable or refused event) and was cut to its valid prefix on re-opening (docs/DEPLOYMENT.md, 'A broken game log')",
    registers,
  });
  const quarantinedEvents = new Counter({ name: 'djambi_log_quarantined_events_total', help: 'Events moved to quarantined_events', registers });
  let readReopens: (() => { readonly total: number; readonly running: number; readonly waiting: number }) | null = null;
  let reopenedSeen = 0;
  new Counter({
    name: 'djambi_games_reopened_total',
    help: 'Games re-opened from the log by this process (a join or lookup of a game not live, the takeover sweep, the boot restore)',
    registers,
    collect() {
      const total = readReopens?.().total ?? 0;
      if (total > reopenedSeen) this.inc(total - reopenedSeen);
      reopenedSeen = total;
    },
  });
  new Gauge({
    name: 'djambi_reopens',
    help: 'Re-opens on demand in progress (running, at most 16) and waiting for their turn',
    labelNames: ['state'],
    registers,
    collect() {
      const load = readReopens?.() ?? { running: 0, waiting: 0 };
      this.set({ state: 'running' }, load.running);
      this.set({ state: 'waiting' }, load.waiting);
    },
  });
  let readQuota: (() => { readonly unseated: number; readonly unseatedWithBots: number }) | null = null;
  new Gauge({
    name: 'djambi_rooms_unseated',
    help: 'Live rooms nobody has sat at (made and never joined, or played by bots alone), all and those with bots: capped per address and to a share of MAX_ROOMS',
    labelNames: ['bots'],
    registers,
    collect() {
      const counts = readQuota?.() ?? { unseated: 0, unseatedWithBots: 0 };
      this.set({ bots: 'any' }, counts.unseated);
      this.set({ bots: 'yes' }, counts.unseatedWithBots);
    },
  });
  let readBots: (() => { readonly queued: number; readonly fallbacksBy: Readonly<Record<string, number>> }) | null = null;
  new Gauge({
    name: 'djambi_bot_queue',
    help: "Bot requests (turns, pact valuations) waiting for the process's bot worker, besides the one it is on",
    registers,
    collect() {
      this.set(readBots?.().queued ?? 0);
    },
  });
  const fallbacksSeen: Record<string, number> = {};
  new Counter({
    name: 'djambi_bot_fallbacks_total',
    help: 'Bot turns played with the greedy fallback instead of a search, by reason: busy (queue full), late (deadline passed), failed (worker crashed), closed',
    labelNames: ['reason'],
    registers,
    collect() {
      for (const [reason, total] of Object.entries(readBots?.().fallbacksBy ?? {})) {
        const seen = fallbacksSeen[reason] ?? 0;
        this.inc({ reason }, Math.max(0, total - seen));
        fallbacksSeen[reason] = Math.max(seen, total);
      }
    },
  });
  const faults = new Counter({
    name: 'djambi_room_faults_total',
    help: 'Internal errors caught in a room (the room closes and its game re-opens from the log), by where they were thrown',
    labelNames: ['where'],
    registers,
  });
  return {
    registry,
    turnAccepted: (n = 1) => turns.inc(n),
    rejected: (code) => rejections.inc({ code: codeLabel(code) }),
    observeTurnToPatch: (ms) => turnToPatch.observe(ms / 1000),
    observeAppend: (ms) => append.observe(ms / 1000),
    appendFailed: (kind) => appendFailures.inc({ kind: codeLabel(kind) }),
    quarantined: (events) => {
      quarantines.inc();
      quarantinedEvents.inc(events);
    },
    watchReopens: (read) => {
      readReopens = read;
    },
    watchQuota: (read) => {
      readQuota = read;
    },
    watchBots: (read) => {
      readBots = read;
    },
    fault: (where) => faults.inc({ where: /^[A-Za-z]{1,32}$/.test(where) ? where : 'other' }),
    render: () => registry.metrics(),
  };
}

/** Whether `given` equals `expected`, in constant time. */
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The `/metrics` route. With a token (`METRICS_TOKEN`), only `Authorization: Bearer <token>`
 * gets the metrics; anything else gets 401 `unauthorized`, and a wrong `Authorization` is told to
 * `edge` (which limits them per address).
 */
export function metricsRoute(metrics: Metrics, token?: string, edge?: { credentialFailed(req: IncomingMessage): void }): (req: Request, res: Response) => void {
  return (req, res) => {
    if (token) {
      const auth = req.headers.authorization ?? '';
      if (!auth.startsWith('Bearer ') || !sameSecret(auth.slice('Bearer '.length), token)) {
        metrics.rejected('unauthorized');
        if (req.headers.authorization !== undefined) edge?.credentialFailed(req);
        res
          .status(401)
          .set('WWW-Authenticate', 'Bearer')
          .json({ error: { code: 'unauthorized', message: 'metrics need the bearer token' } });
        return;
      }
    }
    metrics.render().then(
      (text) => {
        // Exactly Prometheus's content type (Express's `send` would add a charset).
        res.setHeader('Content-Type', metrics.registry.contentType);
        res.setHeader('Cache-Control', 'no-store');
        res.end(text);
      },
      (e: unknown) => res.status(500).json({ error: { code: 'internal_error', message: String((e as Error).message ?? e) } }),
    );
  };
}
