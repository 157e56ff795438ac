/**
 * Boot restore: N unfinished games of about E events each (seeded random 4-player games with
 * table talk, played by the match alone) are written to a store, then a server starts on that
 * store and re-opens every one of them. Prints the time to restore them all at boot.
 *
 *   npm run bench:restore [-- --games 1000 --events 100 --store sqlite|postgres|memory --server dist|src --json]
 *
 * The server runs in a child process (`restore-child.mjs`): by default the compiled server
 * (`--server dist`, what `npm start` runs, with its Node flags; the script builds shared and server first), or the
 * sources under tsx (`--server src`). The memory store cannot be shared with a child: with it the
 * server starts in this process, from the sources.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CODE_ALPHABET, CODE_LENGTH, randomTurn } from '../../shared/src/index.js';
import { createServer } from '../../server/src/app.js';
import { SERVER_NODE_FLAGS } from '../../server/src/obs/heap.js';
import { Match } from '../../server/src/match/match.js';
import { parseRoomConfig } from '../../server/src/match/config.js';
import { openStore } from '../../server/src/store/open.js';
import type { GameStore } from '../../server/src/store/types.js';
import { seeded } from '../support/random.js';

function args(argv: string[]) {
  const o = { games: 1000, events: 100, store: 'sqlite', server: 'dist', json: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--games') o.games = Number(argv[++i]);
    else if (argv[i] === '--events') o.events = Number(argv[++i]);
    else if (argv[i] === '--store') o.store = argv[++i];
    else if (argv[i] === '--server') o.server = argv[++i];
    else if (argv[i] === '--json') o.json = true;
  }
  return o;
}

async function main(): Promise<void> {
  // Keeps the process alive to the end: without it, it sometimes ended quietly (exit code 0)
  // before printing anything, with work still pending (seen under npm + tsx).
  setInterval(() => undefined, 1 << 30);
  const o = args(process.argv.slice(2));
  const url =
    o.store === 'sqlite'
      ? `sqlite:${path.join(mkdtempSync(path.join(os.tmpdir(), 'djambi-restore-')), 'r.sqlite')}`
      : o.store === 'postgres'
        ? (process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres')
        : 'memory:';
  const store = await openStore({ databaseUrl: url });
  const parsed = parseRoomConfig({ rules: { players: 4 }, clock: { initialSeconds: 3600, incrementSeconds: 5 } }, { graceSeconds: 20, idleSeconds: 600 });
  if (!parsed.ok) throw new Error(parsed.error.message);
  const t0 = performance.now();
  let events = 0;
  for (let g = 0; g < o.games; g++) {
    const random = seeded(g + 1);
    const match = new Match(parsed.value);
    let now = 1_700_000_000_000 + g;
    for (let i = 0; i < 4; i++) match.apply({ type: 'take_seat', name: `p${i}` }, now);
    match.apply({ type: 'start', colour: 'R', creatorConnected: true }, now);
    while (match.events.length < o.events && match.phase === 'playing') {
      now += 2000;
      const mover = match.position.toMove!;
      if (match.events.length % 6 === 0)
        match.apply({ type: 'press', member: mover, message: 'press_send', payload: { channel: 'table', text: `turn ${match.events.length}` } }, now);
      else match.apply({ type: 'turn', colour: mover, turn: randomTurn(match.position, random) }, now);
    }
    if (match.phase !== 'playing') continue; // only unfinished games are restored
    let code = '';
    for (let n = g, k = 0; k < CODE_LENGTH; k++, n = Math.floor(n / CODE_ALPHABET.length)) code += CODE_ALPHABET[n % CODE_ALPHABET.length];
    await store.createGame(code, parsed.value, now);
    await store.markSeated(code); // people sat at it (the journal marks it before the first take_seat)
    await store.appendMany(code, 1, match.events);
    events += match.events.length;
  }
  const written = await store.unfinished();
  const fillMs = performance.now() - t0;
  const r = o.store === 'memory' ? await inProcess(store) : await child(o.server, url, store);
  const result = {
    store: o.store,
    server: o.store === 'memory' ? 'src (in process)' : o.server,
    games: written.length,
    eventsPerGame: Math.round(events / Math.max(1, written.length)),
    restored: r.restored,
    failed: r.failed,
    restoreMs: Math.round(r.ms),
    /** CPU time of the whole server start (restore included): steadier than wall time on a shared machine. */
    startCpuMs: Math.round(r.startCpuMs),
    fillMs: Math.round(fillMs),
    target: 'restore ≤ 2000 ms for 1000 games',
  };
  const line = o.json
    ? JSON.stringify(result)
    : `restored ${r.restored}/${written.length} unfinished games (${result.eventsPerGame} events each) from ${o.store} at boot in ${result.restoreMs} ms (target ≤ 2000 ms for 1000), server start ${result.startCpuMs} ms of CPU (${result.server}); ${r.failed} failed`;
  // Exit once the line is written: stdout is a pipe under npm and tsx, and `exit` does not wait for it.
  process.stdout.write(`${line}\n`, () => process.exit(0));
}

interface Restored {
  readonly restored: number;
  readonly failed: number;
  readonly ms: number;
  /** CPU time of the whole server start (restore included). */
  readonly startCpuMs: number;
}

/** Starts the server in this process (from the sources) on `store`. */
async function inProcess(store: GameStore): Promise<Restored> {
  const cpu = process.cpuUsage();
  const server = await createServer({ port: 0, host: '127.0.0.1', clientDir: '/nonexistent', store });
  const used = process.cpuUsage(cpu);
  await server.close();
  await store.close();
  return { ...server.restored, startCpuMs: (used.user + used.system) / 1000 };
}

/** Starts the server in a child process, compiled (`dist`) or from the sources under tsx (`src`), on the store at `url`. */
async function child(server: string, url: string, store: GameStore): Promise<Restored> {
  await store.close();
  const root = path.resolve(import.meta.dirname, '../..');
  const entry = path.join(root, 'tests/bench/restore-child.mjs');
  let out: string;
  if (server === 'dist') {
    execFileSync('npm', ['run', '-s', 'build', '-w', 'shared', '-w', 'server'], { cwd: root, stdio: 'inherit' });
    // As `npm start` runs it: the compiled server with production's Node flags.
    out = execFileSync(process.execPath, [...SERVER_NODE_FLAGS, entry, 'dist', url], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  } else if (server === 'src') {
    out = execFileSync(process.execPath, ['--import', 'tsx', entry, 'src', url], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, TSX_TSCONFIG_PATH: path.join(root, 'tests/bench/server-tsconfig.json') },
    });
  } else throw new Error(`--server dist|src, not ${server}`);
  const line = out.split('\n').find((l) => l.startsWith('{"restored":'));
  if (!line) throw new Error(`the server child printed no result:\n${out}`);
  return JSON.parse(line) as Restored;
}

void main();
