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

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Where the rendered config sends its traffic. */
export interface LoopbackRouting {
  /** nginx's port on 127.0.0.1. */
  readonly listenPort: number;
  /** Each replica name of the config (game1, game2) → the 127.0.0.1 port of its process. */
  readonly replicas: Readonly<Record<string, number>>;
  /** Directory for the pid file, the logs and the temp files. */
  readonly dir: string;
}

/** The names of the replicas `deploy/nginx.conf` routes (its `server gameN:2567` lines). */
export function replicaNames(conf = readFileSync(NGINX_CONF, 'utf8')): string[] {
  return [...new Set([...conf.matchAll(/\bserver (game\d+):2567\b/g)].map((m) => m[1]))];
}

/**
 * deploy/nginx.conf for loopback: the same routing, the same whitelist, with only the hostnames,
 * the listen address and the process's paths changed. Throws when the config has no line to
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
  out = swap(out, /^(\s*)listen 80;/m, (_all, lead: string) => `${lead}listen 127.0.0.1:${routing.listenPort};`);
  out = swap(out, /^pid [^;]+;/m, `pid ${file('nginx.pid')};`);
  out = swap(out, /^worker_processes [^;]+;/m, 'worker_processes 1;');
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

/**
 * Starts deploy/nginx.conf on loopback: on `listenPort` (default a free one), routing each
 * replica name to the given 127.0.0.1 port (e.g. `{ game1: 2567, game2: 2568 }`; the processes
 * behind it then use `PUBLIC_ADDRESS=127.0.0.1:<port>/game1`, …). Start the processes first:
 * the config marks a replica down for 5 s after a refused connection (`max_fails=1 fail_timeout=5s`).
 */
export async function startNginx(replicas: Readonly<Record<string, number>>, listenPort?: number): Promise<RunningNginx> {
  const dir = nginxDir();
  const port = listenPort ?? (await freePort());
  for (const t of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(dir, `${t}_temp`));
  const checked = await checkConf(renderLoopbackConf({ listenPort: port, replicas, dir }), dir);
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
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    dir,
    accessLog: () => {
      const f = path.join(dir, 'access.log');
      return existsSync(f) ? readFileSync(f, 'utf8') : '';
    },
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
