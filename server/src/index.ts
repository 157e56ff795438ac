/**
 * Entry point: `node server/dist/index.js`, configured from the environment: PORT, HOST,
 * GRACE_SECONDS, IDLE_SECONDS, MAX_ROOMS, UNJOINED_SECONDS, UNJOINED_PER_ADDRESS, UNJOINED_SHARE, UNJOINED_BOT_ROOMS, BOOT_RESTORE, BOT_DELAY_MS, PUBLIC_URL, DATABASE_URL, DATA_DIR,
 * DATABASE_POOL_MAX,
 * SHUTDOWN_DEADLINE_SECONDS, and the HTTP edge's
 * settings (docs/PROTOCOL.md, "Limits"): TRUST_PROXY,
 * ALLOWED_HOSTS, ALLOWED_ORIGINS, HTTP_BODY_LIMIT, RATE_LIMIT_CREATE / _RESERVE / _LOOKUP / _API / _AUTH,
 * RATE_LIMIT_EXEMPT, RATE_LIMIT_MAX_ADDRESSES, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS,
 * KEEP_ALIVE_TIMEOUT_MS; and observability's (`obs/index.ts`): LOG_LEVEL, NODE_NAME,
 * METRICS_TOKEN, MONITOR_PASSWORD; and the cluster's (`cluster/config.ts`): REDIS_URL,
 * PUBLIC_ADDRESS, CLUSTER_SWEEP_MS, CLUSTER_LOCK_MS.
 */
import { createServer, type RunningServer, type ServerConfig } from './app.js';
import { clusterFromEnv } from './cluster/config.js';
import { parseRate, RATE_KINDS, type HttpLimitsInput, type Rate, type RateKind } from './http/limits.js';
import { heapWarning } from './obs/heap.js';
import { observabilityFromEnv } from './obs/index.js';
import { DEFAULT_BOT_SETTINGS } from './table/bots.js';
import { describeStore, locateStore, openStore, storeOptionsFromEnv } from './store/open.js';
import type { GameStore } from './store/types.js';

const env = process.env;
const port = Number(env.PORT ?? 2567);
const host = env.HOST || undefined;
const graceSeconds = env.GRACE_SECONDS ? Number(env.GRACE_SECONDS) : undefined;

/** A comma-separated list, or undefined when the variable is unset or empty. */
function list(name: string): string[] | undefined {
  const v = env[name]?.trim();
  return v
    ? v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
    : undefined;
}

/** A positive integer, or undefined when unset; exits on garbage. */
function int(name: string): number | undefined {
  const v = env[name]?.trim();
  if (!v) return undefined;
  if (!/^\d+$/.test(v) || Number(v) <= 0) fail(`${name} must be a positive integer (got "${v}")`);
  return Number(v);
}

/** A share in (0, 1]. */
function share(name: string): number | undefined {
  const v = env[name]?.trim();
  if (!v) return undefined;
  const n = Number(v);
  if (!/^(0?\.\d+|1(\.0*)?)$/.test(v) || !(n > 0 && n <= 1)) fail(`${name} must be a number in (0, 1] (got "${v}")`);
  return n;
}

/** `BOT_DELAY_MS`: the bots' pause before a turn, `MIN,MAX` or one value, in ms (0..60000). */
function botDelay(): { minDelayMs: number; maxDelayMs: number } | undefined {
  const v = env.BOT_DELAY_MS?.trim();
  if (!v) return undefined;
  const m = /^(\d{1,5})(?:,(\d{1,5}))?$/.exec(v);
  const min = Number(m?.[1]);
  const max = Number(m?.[2] ?? m?.[1]);
  if (!m || max < min || max > 60_000) fail(`BOT_DELAY_MS must be MIN,MAX or one value in ms, at most 60000 (got "${v}")`);
  return { minDelayMs: min, maxDelayMs: max };
}

function fail(message: string): never {
  console.error(`Djambi server: ${message}`);
  process.exit(1);
}

/** The HTTP limits set in the environment (the rest keep their defaults). */
function limitsFromEnv(): HttpLimitsInput {
  const rates: Partial<Record<RateKind, Rate | null>> = {};
  for (const kind of RATE_KINDS) {
    const name = `RATE_LIMIT_${kind.toUpperCase()}`;
    const v = env[name]?.trim();
    if (!v) continue;
    const rate = parseRate(v);
    if (rate === null) fail(`${name} must be BURST:INTERVAL_MS (e.g. 5:6000) or off (got "${v}")`);
    rates[kind] = rate === 'off' ? null : rate;
  }
  const exempt = env.RATE_LIMIT_EXEMPT?.trim();
  const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined)) as T;
  return defined({
    bodyBytes: int('HTTP_BODY_LIMIT'),
    rates,
    exempt: exempt === undefined ? undefined : exempt === 'none' ? [] : (list('RATE_LIMIT_EXEMPT') ?? []),
    maxAddresses: int('RATE_LIMIT_MAX_ADDRESSES'),
    headersTimeoutMs: int('HEADERS_TIMEOUT_MS'),
    requestTimeoutMs: int('REQUEST_TIMEOUT_MS'),
    keepAliveTimeoutMs: int('KEEP_ALIVE_TIMEOUT_MS'),
  });
}

const origins = env.ALLOWED_ORIGINS?.trim();
const delay = botDelay();
const config: ServerConfig = {
  port,
  host,
  graceSeconds,
  publicUrl: env.PUBLIC_URL || undefined,
  trustProxy: list('TRUST_PROXY'),
  allowedHosts: list('ALLOWED_HOSTS'),
  allowedOrigins: origins === '*' ? '*' : list('ALLOWED_ORIGINS'),
  idleSeconds: int('IDLE_SECONDS'),
  bootRestoreLimit: int('BOOT_RESTORE'),
  limits: limitsFromEnv(),
  observability: (() => {
    try {
      return observabilityFromEnv(env);
    } catch (e) {
      return fail((e as Error).message);
    }
  })(),
  cluster: (() => {
    try {
      return clusterFromEnv(env);
    } catch (e) {
      return fail((e as Error).message);
    }
  })(),
  rooms: {
    ...Object.fromEntries(Object.entries({ maxRooms: int('MAX_ROOMS'), unjoinedSeconds: int('UNJOINED_SECONDS') }).filter(([, v]) => v !== undefined)),
    ...(delay ? { bots: { ...DEFAULT_BOT_SETTINGS, ...delay } } : {}),
    quota: Object.fromEntries(
      Object.entries({
        unseatedPerAddress: int('UNJOINED_PER_ADDRESS'),
        unseatedShare: share('UNJOINED_SHARE'),
        unseatedWithBots: int('UNJOINED_BOT_ROOMS'),
      }).filter(([, v]) => v !== undefined),
    ),
  },
};

/** Seconds a stopping process may take before it exits anyway (Colyseus 0.16 can hang on shutdown). */
const EXIT_DEADLINE_MS = (int('SHUTDOWN_DEADLINE_SECONDS') ?? 10) * 1000;

/**
 * SIGTERM and SIGINT stop the process (exit 0). So does a throw that escaped every room's own
 * handler (a bug outside the rooms: rooms close by themselves, see `DjambiRoom.fault`), after it is
 * logged, with exit 1 for the supervisor to restart it: its state is unknown. Either way clients
 * are told `server_restart` and closed with 4100; their games are in the log. A rejected promise
 * nobody handled is logged and the process goes on (Node would end it).
 */
function handleSignals(server: RunningServer, store: GameStore): void {
  let stopping = false;
  const stop = (exitCode: number): void => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      console.error(`Djambi server: shutdown took over ${EXIT_DEADLINE_MS / 1000} s; exiting`);
      process.exit(1);
    }, EXIT_DEADLINE_MS).unref();
    server
      .close()
      .then(() => store.close())
      .then(
        () => process.exit(exitCode),
        () => process.exit(1),
      );
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(0));
  process.on('uncaughtException', (err) => {
    console.error('Djambi server: uncaught exception; stopping:', err);
    stop(1);
  });
  process.on('unhandledRejection', (reason) => {
    console.error('Djambi server: unhandled promise rejection:', reason);
  });
}

async function main(): Promise<void> {
  const location = locateStore(storeOptionsFromEnv());
  const store = await openStore(storeOptionsFromEnv());
  const server = await createServer({ ...config, store });
  const r = server.restored;
  console.log(
    `Djambi server listening on ${server.url} (invite links: /g/CODE); games in ${describeStore(location)}; ${r.restored} unfinished games restored in ${Math.round(r.ms)} ms${r.failed ? `, ${r.failed} failed` : ''}${r.swept ? `, ${r.swept} never joined deleted` : ''}`,
  );
  const heap = heapWarning();
  if (heap) console.warn(`Djambi server: ${heap}`);
  handleSignals(server, store);
}

main().catch((err: unknown) => {
  console.error('Djambi server failed to start:', err);
  process.exit(1);
});
