/**
 * What lets a SQLite file's appends cost one `write` each: the file has one owner process, and
 * the owner writes each accepted event to a pending file beside it before anybody sees the event,
 * then folds the pending events into SQLite in batches (`sqlite.ts`).
 *
 * - **The pending file** (`<file>.pending`): one JSON line per event, `[code, seq, at, event]`.
 *   Its first `MAPPED_BYTES` are reserved on disk and mapped into memory (`mapped.ts`), and a line
 *   is copied there: the kernel's page cache of the file, without a system call. Without the
 *   addon, or past the mapped bytes, a line is written with one positioned `write`. Either way a
 *   process crash keeps what the kernel has; an OS crash may lose the last events, as SQLite's WAL
 *   with `synchronous=NORMAL` may. A batch folded into SQLite empties the file (zeros over what was
 *   mapped). At open, the lines a crashed owner left are folded in first: they end at the first
 *   zero byte, and a last line without its newline is a write that never finished (its event was
 *   never applied), and is dropped.
 * - **The owner file** (`<file>.owner`): the owner's pid and host name. A second store on the same
 *   file, in this process or another live one, is refused at open: one server process per SQLite
 *   file (several processes share PostgreSQL). The file of a dead owner (a `kill -9`) is taken
 *   over. On the same host a process is alive while its pid runs; a process of another host (a
 *   second container on the same volume, where both servers are pid 1) cannot be asked, so the
 *   owner renews its claim (the file's mtime) every `OWNER_LEASE.renewMs`, and a claim of another
 *   host is taken over only once it is `OWNER_LEASE.staleMs` old.
 */
import { hostname } from 'node:os';
import { closeSync, ftruncateSync, openSync, readFileSync, statSync, unlinkSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { memoryMap } from './mapped.js';
import { StoreUnavailable } from './types.js';

/**
 * Bytes of a pending file mapped into memory: 2,000 events (a fold) of up to 2 KB. Reserved on
 * disk at open, so that a full disk refuses the map there (the store then writes), never a write.
 */
export const MAPPED_BYTES = 4 * 2 ** 20;

/** One pending event, as the `events` table holds it. */
export interface PendingEvent {
  readonly code: string;
  readonly seq: number;
  readonly at: number;
  readonly payload: string;
}

/** The pending file of one SQLite file, open for writing. */
export class PendingFile {
  /** Bytes of whole lines in the file: the next line is written there. */
  private size = 0;

  private constructor(
    private readonly fd: number,
    /** The file's first `MAPPED_BYTES`, mapped; null when its lines are written with `write`. */
    private mapped: Buffer | null,
  ) {}

  /** The events a previous owner left in `path` (none when there is no file). */
  static read(path: string): PendingEvent[] {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    // A mapped file holds zeros past its last line (JSON escapes every control character: a line never holds one).
    const end = bytes.indexOf(0);
    return parseLines(path, bytes.toString('utf8', 0, end < 0 ? bytes.length : end));
  }

  /**
   * Creates `path` empty, for writing (read and fold in what it held first), mapped into memory
   * when the addon is there and `map` is not false.
   */
  static create(path: string, map = true): PendingFile {
    const fd = openSync(path, 'w+');
    const addon = map ? memoryMap() : null;
    let mapped: Buffer | null = null;
    if (addon) {
      try {
        mapped = Buffer.from(addon.map(fd, MAPPED_BYTES));
      } catch (e) {
        console.warn(`[djambi store] ${path} could not be mapped into memory (${(e as Error).message}): each event is written with write()`);
      }
    }
    return new PendingFile(fd, mapped);
  }

  /** How lines reach the file: copied into its mapped bytes, or written. */
  get mode(): 'mapped' | 'write' {
    return this.mapped ? 'mapped' : 'write';
  }

  /** Writes these events' lines after the last whole line; on failure nothing counts as written. */
  write(events: readonly PendingEvent[]): void {
    let text = '';
    // The payload is JSON already: written as it is, not quoted again.
    for (const e of events) text += `[${JSON.stringify(e.code)},${e.seq},${e.at},${e.payload}]\n`;
    const mapped = this.mapped;
    // At most 3 bytes of UTF-8 per UTF-16 unit: a line that surely fits is copied whole.
    if (mapped && this.size + text.length * 3 <= mapped.length) {
      this.size += mapped.write(text, this.size);
      return;
    }
    const bytes = Buffer.from(text);
    let done = 0;
    while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done, this.size + done);
    // A failed or short write leaves at most a line without its newline past `size`: the next
    // write covers it, and a reader drops it.
    this.size += bytes.length;
  }

  /** Empties the file (its events are in SQLite). */
  clear(): void {
    const mapped = this.mapped;
    if (mapped) {
      // Zeros from the start: a crash part way leaves a file that reads as empty.
      mapped.fill(0, 0, Math.min(this.size, mapped.length));
      if (this.size > mapped.length) ftruncateSync(this.fd, mapped.length);
    } else ftruncateSync(this.fd, 0);
    this.size = 0;
  }

  close(): void {
    // The mapping goes with the buffer (when it is collected); what was copied there is the file's.
    this.mapped = null;
    closeSync(this.fd);
  }
}

/** The events of a pending file's text; a last line without its newline is dropped. */
export function parseLines(path: string, text: string): PendingEvent[] {
  const lines = text.split('\n');
  lines.pop(); // after the last newline: empty, or a write that never returned
  return lines.map((line, i) => {
    try {
      const [code, seq, at, event] = JSON.parse(line) as [unknown, unknown, unknown, unknown];
      if (typeof code !== 'string' || !Number.isSafeInteger(seq) || typeof at !== 'number' || typeof event !== 'object' || event === null)
        throw new Error('not [code, seq, at, event]');
      return { code, seq: seq as number, at, payload: JSON.stringify(event) };
    } catch (e) {
      throw new StoreUnavailable(`${path}: line ${i + 1} is not a pending event (${(e as Error).message}); the file was changed by something else`);
    }
  });
}

/**
 * Owner files held by this process. Process-wide by nature (the owner file names a process, and
 * two stores of one process would share its pid), so the one module-level state of the store.
 */
const held = new Set<string>();

/** Whether process `pid` runs (a zombie, killed and not yet reaped, does not). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // /proc/PID/stat: "pid (name) state …"; the name may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return true; // no /proc: trust kill(0)
  }
}

/** How often an owner renews its claim, and how old another host's claim must be to be taken over, ms. */
export interface OwnerLease {
  readonly renewMs: number;
  readonly staleMs: number;
}

/** Renewed every 5 s, dead after 30 s without a renewal (documented in docs/DEPLOYMENT.md). */
export const OWNER_LEASE: OwnerLease = Object.freeze({ renewMs: 5_000, staleMs: 30_000 });

const IN_USE_HINT = 'one server process per SQLite file (several processes share PostgreSQL: DATABASE_URL=postgres://…)';

/**
 * Makes this process the owner of `file` (writes `<file>.owner`); returns the release. Throws
 * `StoreUnavailable` when another store holds it: one in this process, a running process of this
 * host, or a process of another host whose claim is fresh.
 */
export function takeOwnership(file: string, lease: OwnerLease = OWNER_LEASE): () => void {
  const path = `${file}.owner`;
  if (held.has(path)) throw new StoreUnavailable(`${file} is already open in this process (one store per SQLite file)`);
  const host = hostname();
  /** Creates the owner file with our pid and host; false when it exists. */
  const create = (): boolean => {
    try {
      writeFileSync(path, `${process.pid} ${host}\n`, { flag: 'wx' });
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
  };
  if (!create()) {
    // "PID HOST"; files written before the host was recorded hold the pid alone (this host's).
    const [pidText, owner = host] = readFileSync(path, 'utf8').trim().split(/\s+/);
    const pid = Number.parseInt(pidText, 10);
    if (owner !== host) {
      const age = Date.now() - statSync(path).mtimeMs;
      if (age < lease.staleMs) {
        throw new StoreUnavailable(
          `${file} is in use by process ${pid} on host ${owner} (its claim was renewed ${Math.round(age / 1000)} s ago): ${IN_USE_HINT}`,
        );
      }
    } else if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && running(pid)) {
      // Our own pid in a file we do not hold: a previous process with our pid (a container's pid 1).
      throw new StoreUnavailable(`${file} is in use by process ${pid}: ${IN_USE_HINT}`);
    }
    unlinkSync(path); // a dead owner's
    if (!create()) throw new StoreUnavailable(`${file}: another process took it over at the same moment`);
  }
  held.add(path);
  const renew = setInterval(() => {
    try {
      const now = new Date();
      utimesSync(path, now, now);
    } catch {
      // gone (released meanwhile, or removed by hand): the next open decides
    }
  }, lease.renewMs);
  renew.unref();
  return () => {
    clearInterval(renew);
    held.delete(path);
    try {
      unlinkSync(path);
    } catch {
      // already gone: nothing to release
    }
  };
}
