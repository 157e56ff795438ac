/**
 * Real server processes for crash and restart tests: `node server/dist/index.js` (the built
 * server, as `npm start` runs it, with its Node flags) on a fixed free loopback port, with its
 * own store, killed with real signals. (A per-test PostgreSQL database: `createTestDatabase` in tests/store/helpers.ts.)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../../server/src/obs/heap.js';
import { started } from '../support/started.js';

const ROOT = path.resolve(__dirname, '../..');
const ENTRY = path.join(ROOT, 'server/dist/index.js');

/** A temporary directory for a test's SQLite file. */
export function tempDataDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'djambi-test-'));
}

/**
 * The test runner's environment without the settings that choose a deployment (a store, Redis,
 * a public address): each test passes its own, so a `DATABASE_URL` or `REDIS_URL` exported for
 * the whole run (as `.ci/run` may) never turns a SQLite test into a PostgreSQL or cluster one.
 */
function inheritedEnv(): NodeJS.ProcessEnv {
  const { DATABASE_URL: _db, REDIS_URL: _redis, PUBLIC_ADDRESS: _address, DATA_DIR: _data, ...rest } = process.env;
  return rest;
}

/** How a server process ended. */
export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** One server process. */
export class ServerProcess {
  private child: ChildProcess | null = null;
  output = '';

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts the process and waits until it listens (and has restored its games). */
  async start(timeoutMs = 20_000): Promise<void> {
    if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run \`npm run build\` first (npm test does)`);
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ENTRY], {
      cwd: ROOT,
      env: { ...inheritedEnv(), HOST: '127.0.0.1', PORT: String(this.port), GRACE_SECONDS: '2', ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout?.on('data', (c: Buffer) => {
      this.output += c.toString();
    });
    child.stderr?.on('data', (c: Buffer) => {
      this.output += c.toString();
    });
    await started(child, 'listening on', { what: 'server', timeoutMs });
  }

  /** Sends `signal` and waits for the process to exit. */
  async kill(signal: NodeJS.Signals): Promise<Exit> {
    const exited = this.exited();
    this.signal(signal);
    return exited;
  }

  /** Sends `signal` to the running process without waiting for anything. */
  signal(signal: NodeJS.Signals): void {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) throw new Error('no running server process');
    child.kill(signal);
  }

  /** The next exit of the running process (call before what makes it exit). */
  exited(): Promise<Exit> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.reject(new Error('no running server process'));
    return new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.child = null;
        resolve({ code, signal });
      }),
    );
  }

  /** Kills a process still running (test teardown). */
  async stop(): Promise<void> {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) await this.kill('SIGKILL');
  }
}
