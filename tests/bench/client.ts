/**
 * `npm run bench:client [-- --json] [-- --no-build] [-- --runs N] [-- --url URL]`: the web client in
 * headless Chromium against the local server (started from this checkout, or the one at `--url`,
 * e.g. another checkout's `npm start` or nginx, to compare).
 *
 * - JavaScript size: the game page's scripts in the built client, gzipped (target ≤ 250 KB;
 *   `tests/tools/bundleSize.ts`, the measure of the CI budget `npm run budget`); the home page's
 *   entry script alone is reported too, and so is what the browser actually fetched until the
 *   board was up (a check that the measure misses no script).
 * - Navigation → interactive board: a seated player whose turn it is opens the game link in a
 *   fresh browser context (cold cache); time from navigation start until the board is drawn
 *   and accepts a move (target ≤ 1.5 s, median of N runs).
 * - A phone on a slow link: the same seated player on Chromium's network and CPU throttling
 *   (1.6 Mbps down, 750 kbps up, 150 ms round trip, CPU 4 × slower; a 390 × 844 touch screen at
 *   2 × pixels). First visit: a fresh context (empty cache). Repeat visit: the same page loads the
 *   link again (the cache as the first visit left it). Each reports the time from navigation start
 *   to the interactive board (targets ≤ 3 s and ≤ 1 s, medians of N runs) and the bytes on the
 *   wire: the sum of `encodedDataLength` of the page's HTTP responses (`Network.loadingFinished`:
 *   headers and body as received, compressed; 0 for a response from the cache; WebSocket frames
 *   and workers not counted).
 * - Frame times during move animations: the work per animation frame (tween + Pixi render) on a
 *   spectator's page while scripted players play random legal turns (target p95 ≤ 16 ms); the
 *   intervals between those frames are reported too.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Client, type Room } from 'colyseus.js';
import type { Browser, Page } from 'playwright-core';
import { parseFen, randomTurn, DEFAULT_RULES, type Colour } from '../../shared/src/index.js';
import { CHROMIUM, CLIENT_DIST, ROOT, chromiumAvailable, launchChromium, outputFile } from '../e2e/helpers.js';
import { seeded } from '../support/random.js';
import { started } from '../support/started.js';
import { GAME_PAGE_BUDGET_BYTES, GAME_PAGE_BUDGET_KB, gzipBytes, measureBundle, NEVER_LOADED, toKB } from '../tools/bundleSize.js';

const args = process.argv.slice(2);
const JSON_OUT = args.includes('--json');
const NO_BUILD = args.includes('--no-build');
const RUNS = Number(args[args.indexOf('--runs') + 1]) || 5;
const TURNS = 12;
/** Extra query for the animated page, e.g. `?renderer=canvas` or `?aa=0`. */
const QUERY = args.includes('--query') ? (args[args.indexOf('--query') + 1] ?? '') : '';

/** A server already running (the bench then starts none). */
const URL_ARG = args.includes('--url') ? (args[args.indexOf('--url') + 1] ?? '') : '';

const TARGETS = { jsGzipKB: GAME_PAGE_BUDGET_KB, interactiveMs: 1500, frameP95Ms: 16, phoneFirstMs: 3000, phoneRepeatMs: 1000 };

/** The throttled phone: Chromium's network emulation (bytes per second) and CPU slowdown. */
const PHONE = { downKbps: 1600, upKbps: 750, rttMs: 150, cpuSlowdown: 4 };

function log(msg: string): void {
  if (!JSON_OUT) console.log(msg);
}

function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

const round = (x: number, d = 1): number => Math.round(x * 10 ** d) / 10 ** d;

/** Start the real server from source on a free port (tsx with the server's tsconfig). */
async function startServer(): Promise<{ url: string; child: ChildProcess }> {
  const tsx = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const child = spawn(process.execPath, [tsx, '--tsconfig', 'server/tsconfig.json', 'server/src/index.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = await started(child, /listening on http:\/\/\S+\s/, { what: 'server', timeoutMs: 30_000 });
  const url = /listening on (http:\/\/\S+)\s/.exec(output)![1];
  return { url, child };
}

async function createRoom(url: string): Promise<{ code: string; hostToken: string }> {
  const res = await fetch(`${url}/api/rooms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  if (res.status !== 201) throw new Error(`create room: HTTP ${res.status}`);
  return (await res.json()) as { code: string; hostToken: string };
}

interface Bot {
  colour: Colour;
  seatKey: string;
  room: Room;
}

/** Seat four scripted players and start the game. */
async function seatBots(url: string, code: string, hostToken: string): Promise<Map<Colour, Bot>> {
  const bots = new Map<Colour, Bot>();
  for (const colour of ['R', 'B', 'Y', 'G'] as Colour[]) {
    const client = new Client(url);
    // Red created the game (its host token): the host, who starts it.
    const room = await client.joinById(code, { name: `bot ${colour}`, colour, ...(colour === 'R' ? { hostToken } : {}) });
    // Everything else the room sends (played, press_history, …) is of no interest here.
    room.onMessage('*', () => undefined);
    const seatKey = await new Promise<string>((resolve) => room.onMessage('seat', (m: { seatKey: string }) => resolve(m.seatKey)));
    bots.set(colour, { colour, seatKey, room });
  }
  const red = bots.get('R')!.room;
  red.send('start', {});
  await waitFor(() => (red.state as { phase?: string }).phase === 'playing', 10000);
  return bots;
}

async function waitFor(cond: () => boolean, timeout: number): Promise<void> {
  const end = Date.now() + timeout;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * The game page's JavaScript, gzipped: `measureBundle` on the built client, and the scripts that
 * the browser loads until the board is ready; `unmeasured` lists those the former does not count.
 */
async function measureSize(
  browser: Browser,
  url: string,
  code: string,
): Promise<{ gameBytes: number; gameKB: number; homeKB: number; files: number; loadedKB: number; loadedFiles: number; unmeasured: string[] }> {
  const bundle = measureBundle(CLIENT_DIST);
  const counted = new Set(bundle.chunks.map((c) => c.file));
  const context = await browser.newContext();
  const page = await context.newPage();
  const scripts = new Map<string, Promise<Buffer>>();
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script' && res.ok()) scripts.set(res.url(), res.body());
  });
  await page.goto(`${url}/g/${code}`);
  await page.waitForFunction(() => (window as unknown as { djambi?: { ready: boolean } }).djambi?.ready === true, null, { timeout: 20000 });
  let loaded = 0;
  const unmeasured: string[] = [];
  for (const [u, body] of scripts) {
    loaded += gzipBytes(await body);
    const file = new URL(u).pathname.replace(/^\//, '');
    if (!counted.has(file)) unmeasured.push(file);
    if (NEVER_LOADED.test(path.posix.basename(file))) throw new Error(`the page fetched ${file}, which the budget counts as never loaded (NEVER_LOADED)`);
  }
  await context.close();
  return {
    gameBytes: bundle.gzipBytes,
    gameKB: toKB(bundle.gzipBytes),
    homeKB: toKB(bundle.entryGzipBytes),
    files: bundle.chunks.length,
    loadedKB: toKB(loaded),
    loadedFiles: scripts.size,
    unmeasured,
  };
}

/** Time from navigation start until the seated player's board accepts a move. */
async function measureInteractive(browser: Browser, url: string, code: string, seatKey: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(([c, k]) => localStorage.setItem(`djambi:seat:${c}`, JSON.stringify({ colour: 'R', seatKey: k })), [code, seatKey]);
    const page = await context.newPage();
    await page.goto(`${url}/g/${code}`);
    const t = await page.waitForFunction(() => (window as unknown as { djambi?: { interactiveAt: number | null } }).djambi?.interactiveAt ?? null, null, {
      timeout: 20000,
      polling: 20,
    });
    times.push((await t.jsonValue()) as number);
    if (i === RUNS - 1) await page.screenshot({ path: outputFile('bench-board.png') });
    await context.close();
  }
  return times;
}

/** One load of the game page on the phone profile. */
interface PhoneLoad {
  ms: number;
  bytes: number;
  requests: number;
  cached: number;
  /** Where the time went, ms from navigation start: the page's HTML received, DOMContentLoaded (the entry scripts run), the matchmaking answer. */
  html: number;
  domContentLoaded: number;
  matchmake: number;
}

/**
 * The seated player's game page on the throttled phone, `RUNS` times: a first visit in a fresh
 * context, then a repeat visit (the same page navigates to the link again).
 */
async function measurePhone(browser: Browser, url: string, code: string, seatKey: string): Promise<{ first: PhoneLoad[]; repeat: PhoneLoad[] }> {
  const first: PhoneLoad[] = [];
  const repeat: PhoneLoad[] = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    await context.addInitScript(([c, k]) => localStorage.setItem(`djambi:seat:${c}`, JSON.stringify({ colour: 'R', seatKey: k })), [code, seatKey]);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    let bytes = 0;
    let requests = 0;
    let cached = 0;
    cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => {
      bytes += e.encodedDataLength;
      requests++;
    });
    cdp.on('Network.requestServedFromCache', () => {
      cached++;
    });
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: PHONE.rttMs,
      downloadThroughput: (PHONE.downKbps * 1000) / 8,
      uploadThroughput: (PHONE.upKbps * 1000) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpuSlowdown });
    for (const visits of [first, repeat]) {
      bytes = 0;
      requests = 0;
      cached = 0;
      await page.goto(`${url}/g/${code}`);
      const t = await page.waitForFunction(() => (window as unknown as { djambi?: { interactiveAt: number | null } }).djambi?.interactiveAt ?? null, null, {
        timeout: 60000,
        polling: 50,
      });
      const ms = (await t.jsonValue()) as number;
      // Whatever the page still fetches once the board is up (a lazy chunk) is counted too.
      await page.waitForLoadState('networkidle');
      const marks = await page.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        const mm = performance.getEntriesByType('resource').find((e) => e.name.includes('/matchmake/')) as PerformanceResourceTiming | undefined;
        return { html: nav.responseEnd, domContentLoaded: nav.domContentLoadedEventEnd, matchmake: mm?.responseEnd ?? Number.NaN };
      });
      visits.push({ ms, bytes, requests, cached, ...marks });
    }
    if (i === RUNS - 1) await page.screenshot({ path: outputFile('bench-phone.png') });
    await context.close();
  }
  return { first, repeat };
}

const median = (xs: readonly number[]): number => percentile(xs, 50);

/** The medians of a series of phone loads. */
function summarise(loads: readonly PhoneLoad[]): {
  medianMs: number;
  runsMs: number[];
  bytes: number;
  requests: number;
  fromCache: number;
  htmlMs: number;
  domContentLoadedMs: number;
  matchmakeMs: number;
} {
  return {
    medianMs: round(median(loads.map((l) => l.ms)), 0),
    runsMs: loads.map((l) => round(l.ms, 0)),
    bytes: median(loads.map((l) => l.bytes)),
    requests: median(loads.map((l) => l.requests)),
    fromCache: median(loads.map((l) => l.cached)),
    htmlMs: round(median(loads.map((l) => l.html)), 0),
    domContentLoadedMs: round(median(loads.map((l) => l.domContentLoaded)), 0),
    matchmakeMs: round(median(loads.map((l) => l.matchmake)), 0),
  };
}

/** Frame work times on a spectator's page while the bots play random turns. */
async function measureFrames(
  browser: Browser,
  url: string,
  code: string,
  bots: Map<Colour, Bot>,
): Promise<{ samples: number[]; intervals: number[]; turns: number; renderer: string }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page: Page = await context.newPage();
  await page.goto(`${url}/g/${code}${QUERY}`);
  await page.waitForFunction(() => (window as unknown as { djambi?: { ready: boolean } }).djambi?.ready === true, null, { timeout: 20000 });
  const renderer = await page.evaluate(() => (window as unknown as { djambi: { state(): { renderer: string } } }).djambi.state().renderer);
  const random = seeded(12345);
  const samples: number[] = [];
  const intervals: number[] = [];
  let turns = 0;
  const anyRoom = bots.get('B')!.room;
  for (let i = 0; i < TURNS; i++) {
    const state = anyRoom.state as { toMove: string; phase: string; version: number; moves: { length: number } };
    if (state.phase !== 'playing') break;
    // The synced state has no FEN: the page's position (replayed from the move list) gives it.
    const fen = await page.evaluate(() => (window as unknown as { djambi: { state(): { fen: string } } }).djambi.state().fen);
    const pos = parseFen(fen, DEFAULT_RULES);
    if (!pos.ok) throw new Error(pos.error.message);
    const mover = bots.get(state.toMove as Colour);
    if (!mover) break;
    const turn = randomTurn(pos.value, random);
    if ('pass' in turn) break;
    const before = state.moves.length;
    await page.evaluate(() => (window as unknown as { djambi: { recordFrames(on: boolean): unknown } }).djambi.recordFrames(true));
    mover.room.send('turn', { ...turn });
    await page.waitForFunction((n) => (window as unknown as { djambi: { state(): { moves: number } } }).djambi.state().moves > n, before, {
      timeout: 10000,
      polling: 20,
    });
    await page.waitForFunction(() => !(window as unknown as { djambi: { animating(): boolean } }).djambi.animating(), null, { timeout: 10000, polling: 20 });
    const rec = await page.evaluate(() =>
      (window as unknown as { djambi: { recordFrames(on: boolean): { samples: number[]; intervals: number[] } } }).djambi.recordFrames(false),
    );
    samples.push(...rec.samples);
    intervals.push(...rec.intervals);
    turns++;
    await waitFor(() => (anyRoom.state as { moves: { length: number } }).moves.length > before, 5000);
  }
  await page.screenshot({ path: outputFile('bench-spectator.png') });
  await context.close();
  return { samples, intervals, turns, renderer };
}

async function main(): Promise<void> {
  if (!chromiumAvailable()) {
    console.error(`${CHROMIUM} is missing (apt-get install -y chromium)`);
    process.exit(2);
  }
  if (!NO_BUILD && !URL_ARG) {
    log('building the client…');
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], {
      cwd: path.join(ROOT, 'client'),
      stdio: JSON_OUT ? 'ignore' : 'inherit',
    });
  }
  const { url, child } = URL_ARG ? { url: URL_ARG.replace(/\/$/, ''), child: null } : await startServer();
  let browser: Browser | null = null;
  try {
    browser = await launchChromium();
    const { code, hostToken } = await createRoom(url);
    const size = await measureSize(browser, url, code);
    log(
      `JS (gzip): game page ${size.gameKB} KB in ${size.files} files, home entry ${size.homeKB} KB; the browser fetched ${size.loadedKB} KB in ${size.loadedFiles} files`,
    );
    if (size.unmeasured.length > 0) console.error(`scripts the bundle measure does not count: ${size.unmeasured.join(', ')}`);
    const bots = await seatBots(url, code, hostToken);
    const tti = await measureInteractive(browser, url, code, bots.get('R')!.seatKey);
    log(`navigation → interactive board: ${tti.map((t) => round(t, 0)).join(', ')} ms`);
    const phone = await measurePhone(browser, url, code, bots.get('R')!.seatKey);
    const phoneFirst = summarise(phone.first);
    const phoneRepeat = summarise(phone.repeat);
    const profile = `${PHONE.downKbps / 1000} Mbps down, ${PHONE.upKbps} kbps up, ${PHONE.rttMs} ms RTT, CPU ${PHONE.cpuSlowdown}×`;
    for (const [name, v] of [
      ['first visit', phoneFirst],
      ['repeat visit', phoneRepeat],
    ] as const) {
      log(
        `phone (${profile}), ${name}: interactive board ${v.runsMs.join(', ')} ms (median ${v.medianMs}; HTML ${v.htmlMs}, DOMContentLoaded ${v.domContentLoadedMs}, matchmaking answered ${v.matchmakeMs}); ${v.bytes} B on the wire in ${v.requests} responses, ${v.fromCache} from the cache`,
      );
    }
    // The browser runs reclaimed Red's seat: bring Red's bot back for the game.
    const red = bots.get('R')!;
    red.room = await new Client(url).joinById(code, { seatKey: red.seatKey });
    red.room.onMessage('*', () => undefined);
    const frames = await measureFrames(browser, url, code, bots);
    for (const b of bots.values()) await b.room.leave(true).catch(() => undefined);
    const result = {
      jsGzipKB: size.gameKB,
      homeEntryGzipKB: size.homeKB,
      jsFiles: size.files,
      jsLoadedGzipKB: size.loadedKB,
      jsLoadedFiles: size.loadedFiles,
      jsUnmeasured: size.unmeasured,
      interactiveMs: { median: round(percentile(tti, 50), 0), max: round(Math.max(...tti), 0), runs: tti.map((t) => round(t, 0)) },
      phone: { profile: PHONE, first: phoneFirst, repeat: phoneRepeat },
      frames: {
        renderer: frames.renderer,
        turns: frames.turns,
        count: frames.samples.length,
        workP50Ms: round(percentile(frames.samples, 50), 2),
        workP95Ms: round(percentile(frames.samples, 95), 2),
        workMaxMs: round(Math.max(...frames.samples), 2),
        intervalP50Ms: round(percentile(frames.intervals, 50), 2),
        intervalP95Ms: round(percentile(frames.intervals, 95), 2),
      },
      targets: TARGETS,
      pass: {
        jsGzip: size.gameBytes <= GAME_PAGE_BUDGET_BYTES && size.unmeasured.length === 0,
        interactive: percentile(tti, 50) <= TARGETS.interactiveMs,
        frameP95: percentile(frames.samples, 95) <= TARGETS.frameP95Ms,
        phoneFirst: phoneFirst.medianMs <= TARGETS.phoneFirstMs,
        phoneRepeat: phoneRepeat.medianMs <= TARGETS.phoneRepeatMs,
      },
    };
    if (JSON_OUT) console.log(JSON.stringify(result, null, 2));
    else {
      log(
        `frames during ${frames.turns} animated turns (${frames.renderer}): ${frames.samples.length} frames, work p50 ${result.frames.workP50Ms} ms, p95 ${result.frames.workP95Ms} ms, max ${result.frames.workMaxMs} ms; interval p50 ${result.frames.intervalP50Ms} ms, p95 ${result.frames.intervalP95Ms} ms`,
      );
      log(
        `targets: JS ≤ ${TARGETS.jsGzipKB} KB ${result.pass.jsGzip ? 'ok' : 'MISSED'}; interactive ≤ ${TARGETS.interactiveMs} ms ${result.pass.interactive ? 'ok' : 'MISSED'}; frame p95 ≤ ${TARGETS.frameP95Ms} ms ${result.pass.frameP95 ? 'ok' : 'MISSED'}; phone first visit ≤ ${TARGETS.phoneFirstMs} ms ${result.pass.phoneFirst ? 'ok' : 'MISSED'}, repeat ≤ ${TARGETS.phoneRepeatMs} ms ${result.pass.phoneRepeat ? 'ok' : 'MISSED'}`,
      );
    }
  } finally {
    await browser?.close();
    child?.kill('SIGTERM');
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
