/**
 * Observability of one server: JSON logs (also as the Colyseus logger), Prometheus metrics at
 * `/metrics`, the optional monitor at `/colyseus`, and the wrappers that feed them (the store,
 * the room class). `createServer` calls `observe` once; `index.ts` reads the settings from the
 * environment with `observabilityFromEnv` (LOG_LEVEL, METRICS_TOKEN, MONITOR_PASSWORD, NODE_NAME).
 */
import type { Express } from 'express';
import type { DjambiRoom } from '../rooms/DjambiRoom.js';
import type { GameStore } from '../store/types.js';
import { accessLog, type CredentialEdge, mountMonitor } from './http.js';
import { type ColyseusLogger, colyseusLogger, createLogger, isLogLevel, LOG_LEVELS, type Logger } from './log.js';
import { createMetrics, type Metrics, metricsRoute } from './metrics.js';
import { loggedRoom } from './rooms.js';
import { observeStore } from './store.js';

export type { CredentialEdge } from './http.js';
export { createLogger, type Logger, type LogLevel } from './log.js';
export { createMetrics, type Metrics } from './metrics.js';

/** What a server is observed with; every field is optional. */
export interface ObservabilityOptions {
  /**
   * The logger (default: silent, so tests are quiet, and Colyseus's own messages stay on the
   * console as before; `index.ts` passes one at `LOG_LEVEL`).
   */
  readonly log?: Logger;
  /** The metrics registry (default: a new one, with Node's default metrics). */
  readonly metrics?: Metrics;
  /** When set, `/metrics` needs `Authorization: Bearer <token>`. */
  readonly metricsToken?: string;
  /** When set, `@colyseus/monitor` is served at `/colyseus` behind basic auth (`admin` / this). */
  readonly monitorPassword?: string;
}

/** The pieces `createServer` plugs in. */
export interface Observed {
  readonly log: Logger;
  readonly metrics: Metrics;
  /** For `new Server({ logger })` (Colyseus keeps one per process): the adapter, or the console when no logger was given. */
  readonly colyseusLogger: ColyseusLogger;
  /** The store with its appends timed and counted, and its quarantines logged. */
  store(store: GameStore | null): GameStore | null;
  /** The room class with its lifecycle logged. */
  room(Base: typeof DjambiRoom): typeof DjambiRoom;
}

/**
 * Installs the access log and the `/metrics` route (and the monitor, with a password) on `app`,
 * their failed credentials limited by `edge`; call it before the other routes.
 */
export async function observe(app: Express, edge: CredentialEdge, options: ObservabilityOptions = {}): Promise<Observed> {
  const log = options.log ?? createLogger({ level: 'silent' });
  const metrics = options.metrics ?? createMetrics();
  app.use(accessLog(log));
  if (options.metricsToken) app.get('/metrics', edge.credentialGate, metricsRoute(metrics, options.metricsToken, edge));
  else app.get('/metrics', metricsRoute(metrics));
  if (options.monitorPassword) await mountMonitor(app, options.monitorPassword, log, edge);
  return {
    log,
    metrics,
    colyseusLogger: options.log ? colyseusLogger(log) : console,
    store: (store) => (store ? observeStore(store, metrics, log) : null),
    room: (Base) => loggedRoom(Base, log),
  };
}

/**
 * The settings from the environment: `LOG_LEVEL` (default `info`), `NODE_NAME` (a `node` field
 * on every log line and a label on every metric), `METRICS_TOKEN`, `MONITOR_PASSWORD`. Throws on
 * an unknown level.
 */
export function observabilityFromEnv(env: NodeJS.ProcessEnv = process.env): ObservabilityOptions {
  const level = env.LOG_LEVEL?.trim().toLowerCase() || 'info';
  if (!isLogLevel(level)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${env.LOG_LEVEL}")`);
  const node = env.NODE_NAME?.trim() || undefined;
  const metricsToken = env.METRICS_TOKEN?.trim() || undefined;
  const monitorPassword = env.MONITOR_PASSWORD || undefined;
  return {
    log: createLogger({ level, base: node ? { node } : {} }),
    metrics: createMetrics(node ? { labels: { node } } : {}),
    ...(metricsToken ? { metricsToken } : {}),
    ...(monitorPassword ? { monitorPassword } : {}),
  };
}
