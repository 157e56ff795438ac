/**
 * A redis-server of a test's (or a benchmark's) own: Debian's package on a free loopback port,
 * saving nothing. Used by the cluster tests (tests/cluster/support.ts), bench:sweep and bench:cluster.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { freePort } from './ports.js';
import { started } from './started.js';

/** Debian's redis-server and redis-cli (override with REDIS_SERVER / REDIS_CLI). */
export const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
export const REDIS_CLI = process.env.REDIS_CLI ?? '/usr/bin/redis-cli';

/** A redis-server of a test's own, on a free loopback port, saving nothing. */
export class RedisProcess {
  private constructor(
    readonly port: number,
    private readonly child: ChildProcess,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Its process id (0 once it is gone), for the benchmarks' CPU figures. */
  get pid(): number {
    return this.child.pid ?? 0;
  }

  static async start(): Promise<RedisProcess> {
    const port = await freePort();
    const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await started(child, 'Ready to accept connections', { what: 'redis-server', timeoutMs: 10_000 });
    return new RedisProcess(port, child);
  }

  /** One redis-cli command; its raw output. */
  cli(...args: string[]): string {
    return execFileSync(REDIS_CLI, ['-p', String(this.port), '--raw', ...args], { encoding: 'utf8' }).trim();
  }

  /** The Colyseus listing of a room (`roomcaches`), or null when none. */
  listing(code: string): { processId: string; publicAddress?: string } | null {
    const raw = this.cli('HGET', 'roomcaches', code);
    return raw ? JSON.parse(raw) : null;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGKILL');
    await exited;
  }
}
