/**
 * WAL checkpoints of a SQLite file, off the event loop. A checkpoint copies the write-ahead log
 * into the database file and syncs it to disk; SQLite runs one automatically inside whichever
 * commit crosses 1,000 log pages, which stalls every room of the process for that commit's
 * fsync. Instead the store turns automatic checkpoints off on its own connection and this worker
 * thread, with a connection of its own, runs a PASSIVE checkpoint (it never waits for, nor
 * blocks, the writer) every `everyMs`. A failed or missing worker only means the log grows until
 * the store's final checkpoint on close; it never fails an append.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Milliseconds between two checkpoints. */
export const CHECKPOINT_EVERY_MS = 1000;

/** The worker: plain JavaScript (no TypeScript loader needed, under tsx, jest or compiled). */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: workerData.timeoutMs });
const checkpoint = () => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** A running checkpoint thread for one database file. */
export class Checkpointer {
  private constructor(private readonly worker: Worker) {}

  /** Starts checkpointing `file` every `everyMs`; null when no worker could be started. */
  static start(file: string, timeoutMs: number, everyMs = CHECKPOINT_EVERY_MS): Checkpointer | null {
    try {
      const driver = createRequire(import.meta.url).resolve('better-sqlite3');
      // `execArgv: []`: not the parent's flags (under `--input-type=module` the eval'd code would be ESM).
      const worker = new Worker(WORKER, { eval: true, execArgv: [], workerData: { driver, file, timeoutMs, everyMs } });
      worker.unref();
      worker.on('error', (e) => console.error('[djambi store] the WAL checkpoint thread stopped:', e));
      return new Checkpointer(worker);
    } catch (e) {
      console.error('[djambi store] could not start the WAL checkpoint thread:', e);
      return null;
    }
  }

  /** Stops the thread (its connection closes); resolves once it has exited. */
  async stop(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    // Held until it has exited: unreferenced, a process with nothing else pending would end here,
    // with `close` never settling and the store's final checkpoint never run.
    this.worker.ref();
    this.worker.postMessage('stop');
    await Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, 2000).unref())]);
    await this.worker.terminate().catch(() => undefined);
  }
}
