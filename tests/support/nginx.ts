/**
 * The deployment's nginx config (deploy/nginx.conf) on loopback: rendered with the compose
 * hostnames swapped for 127.0.0.1 ports, checked with `nginx -t`, and started on a free port as
 * a real nginx process. Without /usr/sbin/nginx (or NGINX_BIN) the callers skip with a message,
 * except under CI=true, where a missing binary is a failure (`.ci/run` installs Debian's nginx).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './ports.js';

const ROOT = path.resolve(__dirname, '../..');

/** The config the compose deployment mounts. */
export const NGINX_CONF = path.join(ROOT, 'deploy/nginx.conf');

/** The nginx binary. */
export const NGINX_BIN = process.env.NGINX_BIN ?? '/usr/sbin/nginx';

/**
 * Whether a binary the tests need is there. When it is not: a message, and under CI=true an
 * error (the suite must not pass by skipping).
 */
export function requireBinary(bin: string, what: string, file: string): boolean {
  if (existsSync(bin)) return true;
  if (process.env.CI === 'true') throw new Error(`${file}: ${bin} not found: the ${what} tests cannot run, and under CI=true that fails (.ci/run installs it)`);
  console.warn(`${file}: ${bin} not found: the ${what} tests are skipped (they fail under CI=true; .ci/run installs it)`);
  return false;
}

/** Where the rendered config sends its traffic. */
export interface LoopbackRouting {
  /** nginx's port on 127.0.0.1. */
  readonly listenPort: number;
  /** Each replica name of the config (game1, game2) → the 127.0.0.1 port of its process. */
  readonly replicas: Readonly<Record<string, number>>;
  /** Directory for the pid file, the logs and the temp files. */
  readonly dir: string;
  /**
   * nginx worker processes (default 1, enough for the tests' few connections). More than one
   * listens with `reuseport`, so that the kernel spreads the connections evenly over them: here
   * one worker holds at most this machine's file limit (see `hardFileLimit`), so the benchmark's
   * thousands of WebSockets need several workers each holding its share.
   */
  readonly workers?: number;
}

/**
 * This process's hard limit on open files (`ulimit -Hn`, from /proc/self/limits; Infinity where
 * it cannot be read). Without CAP_SYS_RESOURCE no process can raise its limit above it, and
 * nginx's `worker_rlimit_nofile` then fails with `setrlimit(...) failed (1: Operation not
 * permitted)`: every nginx started here inherits it.
 */
export function hardFileLimit(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const hard = line?.trim().split(/\s+/)[4];
    return hard && /^\d+$/.test(hard) ? Number(hard) : Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** File descriptors of an nginx worker that are not connections (listening socket, logs, eventfd, spare). */
const WORKER_FILES_RESERVED = 64;

/**
 * The WebSockets a (rendered) config can proxy at once: each takes two connections of one worker
 * (the client's and the replica's), and a worker holds `worker_connections`, or its file limit
 * less what is not a connection when that is lower.
 */
export function webSocketCapacity(conf: string): number {
  const num = (pattern: RegExp) => {
    const m = pattern.exec(conf);
    if (!m) throw new Error(`nginx config: no line matches ${pattern}`);
    return Number(m[1]);
  };
  const workers = num(/^worker_processes (\d+);/m);
  const connections = Math.min(num(/\bworker_connections (\d+);/), num(/^worker_rlimit_nofile (\d+);/m) - WORKER_FILES_RESERVED);
  return workers * Math.floor(connections / 2);
}

/** The names of the replicas `deploy/nginx.conf` routes (its `server gameN:2567` lines). */
export function replicaNames(conf = readFileSync(NGINX_CONF, 'utf8')): string[] {
  return [...new Set([...conf.matchAll(/\bserver (game\d+):2567\b/g)].map((m) => m[1]))];
}

/**
 * deploy/nginx.conf for loopback: the same routing, the same whitelist, with only the hostnames,
 * the listen address, the process's paths and the workers changed (their number, and their file
 * limit and connections lowered to what this machine allows). Throws when the config has no line to
 * change or `replicas` does not name exactly its replicas (the file and the helper drifted apart).
 */
export function renderLoopbackConf(routing: LoopbackRouting, conf = readFileSync(NGINX_CONF, 'utf8')): string {
  const names = replicaNames(conf);
  const given = Object.keys(routing.replicas).sort();
  if (names.sort().join() !== given.join()) throw new Error(`deploy/nginx.conf routes ${names.join(', ')}; the test gave ${given.join(', ')}`);
  const swap = (text: string, pattern: RegExp, replacement: string | ((...m: string[]) => string)): string => {
    if (!pattern.test(text)) throw new Error(`deploy/nginx.conf: no line matches ${pattern}`);
    return text.replace(pattern, replacement as string);
  };
  const file = (name: string) => path.join(routing.dir, name);
  let out = conf;
  out = swap(out, /\b(server )(game\d+):2567\b/g, (_all, lead: string, name: string) => `${lead}127.0.0.1:${routing.replicas[name]}`);
  const workers = routing.workers ?? 1;
  const reuseport = workers > 1 ? ' reuseport' : '';
  out = swap(out, /^(\s*)listen 80;/m, (_all, lead: string) => `${lead}listen 127.0.0.1:${routing.listenPort}${reuseport};`);
  out = swap(out, /^pid [^;]+;/m, `pid ${file('nginx.pid')};`);
  out = swap(out, /^worker_processes [^;]+;/m, `worker_processes ${workers};`);
  // The file limit nginx can have here, and so the connections a worker can hold.
  let files = 0;
  out = swap(out, /^worker_rlimit_nofile (\d+);/m, (_all, n: string) => {
    files = Math.min(Number(n), hardFileLimit());
    return `worker_rlimit_nofile ${files};`;
  });
  out = swap(out, /\bworker_connections (\d+);/, (_all, n: string) => `worker_connections ${Math.min(Number(n), files - WORKER_FILES_RESERVED)};`);
  out = swap(out, /^error_log [^;]+;/m, `error_log ${file('error.log')} warn;`);
  out = swap(out, /^(\s*)access_log \S+ (\w+);/m, (_all, lead: string, format: string) => `${lead}access_log ${file('access.log')} ${format};`);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${file(`${t}_temp`)};`).join('\n');
  out = swap(out, /^http \{$/m, `http {\n${temp}`);
  return out;
}

/** Runs a command; resolves with its exit code and output (never rejects on a non-zero exit). */
function run(bin: string, args: readonly string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(bin, [...args], { timeout: 20_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

/** A directory for one nginx (pid, logs, temp files, the config). */
export function nginxDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'djambi-nginx-'));
}

/** Writes `conf` into `dir` and runs `nginx -t` on it. */
export async function checkConf(conf: string, dir: string): Promise<{ ok: boolean; output: string; file: string }> {
  const file = path.join(dir, 'nginx.conf');
  writeFileSync(file, conf);
  const r = await run(NGINX_BIN, ['-t', '-q', '-p', dir, '-e', path.join(dir, 'error.log'), '-c', file]);
  return { ok: r.code === 0, output: r.output, file };
}

/** A running nginx. */
export interface RunningNginx {
  readonly port: number;
  /** `http://127.0.0.1:port`. */
  readonly url: string;
  readonly dir: string;
  /** The master process's pid (its workers are its children). */
  readonly pid: number;
  /** The WebSockets it can proxy at once (`webSocketCapacity` of its config). */
  readonly webSockets: number;
  /** The error log so far. */
  errorLog(): string;
  /** The access log so far (format `upstreamlog`: `… "GET /path HTTP/1.1" 200 … up=127.0.0.1:port …`). */
  accessLog(): string;
  /** Stops nginx (SIGQUIT, then SIGKILL) and removes its directory. */
  stop(): Promise<void>;
}

/** Waits until something accepts connections on 127.0.0.1:port. */
async function waitListening(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nginx did not listen on ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** How `startNginx` renders the config. */
export interface NginxOptions {
  /** Worker processes (`LoopbackRouting.workers`). */
  readonly workers?: number;
  /** The config to render (default deploy/nginx.conf as it is). */
  readonly conf?: string;
}

/**
 * Starts deploy/nginx.conf on loopback: on `listenPort` (default a free one), routing each
 * replica name to the given 127.0.0.1 port (e.g. `{ game1: 2567, game2: 2568 }`; the processes
 * behind it then use `PUBLIC_ADDRESS=127.0.0.1:<port>/game1`, …). Start the processes first:
 * the config marks a replica down for 5 s after a refused connection (`max_fails=1 fail_timeout=5s`).
 */
export async function startNginx(replicas: Readonly<Record<string, number>>, listenPort?: number, options: NginxOptions = {}): Promise<RunningNginx> {
  const dir = nginxDir();
  const port = listenPort ?? (await freePort());
  for (const t of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(dir, `${t}_temp`));
  const rendered = renderLoopbackConf({ listenPort: port, replicas, dir, workers: options.workers }, options.conf);
  const checked = await checkConf(rendered, dir);
  if (!checked.ok) throw new Error(`nginx -t refused the rendered config:\n${checked.output}`);
  const child = spawn(NGINX_BIN, ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', checked.file, '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  try {
    await waitListening(port, child, 10_000);
  } catch (e) {
    child.kill('SIGKILL');
    throw new Error(`${(e as Error).message}\n${stderr}`);
  }
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const log = (name: string) => () => {
    const f = path.join(dir, name);
    return existsSync(f) ? readFileSync(f, 'utf8') : '';
  };
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    dir,
    pid: child.pid ?? 0,
    webSockets: webSocketCapacity(rendered),
    errorLog: log('error.log'),
    accessLog: log('access.log'),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGQUIT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
