/**
 * Screenshots of the main screens for docs/screenshots, at desktop (1280×800) and phone (390×844)
 * sizes: `npm run screenshots` (`tsx tests/tools/screenshots.ts`). It builds nothing: it expects
 * the built client and server (`npm run build`). It starts the real server (`server/dist`) on a
 * free loopback port with a temporary SQLite store, drives Debian's Chromium with the e2e
 * helpers' flags, and writes `<screen>-<size>.png`: home, seat-link (the "Continue on your
 * phone" notice), lobby (the host badge), game (a two-player game in progress, the armies each
 * player commands ringed in its colour), arabic (the game page right to left, when the header
 * has a language select), draw-banner, result (after a resignation), replay, and game-hex3,
 * game-hex5, game-hex6 (a game in progress on each hex board, seen by its first seat). Other images in
 * docs/screenshots are left alone.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { legalTurns, makeTurn, parseFen, parseRules, pieceAt, seatsOf, type Board, type MoveTurn } from '../../shared/src/index.js';
import { freePort } from '../support/ports.js';
import { started } from '../support/started.js';
import { CLIENT_DIST, clickSquare, keepHostToken, launchChromium, pageState, playByClicks, postRoom, ROOT, waitReady, waitState } from '../e2e/helpers.js';

const OUT = path.join(ROOT, 'docs', 'screenshots');
const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

/** Start `node server/dist/index.js` on `port` with its games in `dataDir`; resolves once it listens. */
async function startServer(port: number, dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(ROOT, 'server', 'dist', 'index.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_CREATE: 'off',
      RATE_LIMIT_RESERVE: 'off',
      RATE_LIMIT_LOOKUP: 'off',
      RATE_LIMIT_API: 'off',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await started(child, 'listening on', { what: 'the server' });
  return child;
}

/** Play `n` plain moves (no kill, no further choice) for whoever is to move on `pages`. */
async function playMoves(pages: Map<string, Page>, n: number): Promise<void> {
  const any = [...pages.values()][0];
  for (let i = 0; i < n; i++) {
    const state = await pageState(any);
    const pos = parseFen(state.fen);
    if (!pos.ok) throw new Error(`bad fen ${state.fen}`);
    const plain = legalTurns(pos.value)
      .map((t) => makeTurn(t, pos.value))
      .filter((t) => /^[a-i][1-9]-[a-i][1-9]$/.test(t));
    const text = plain[(i * 7 + 3) % plain.length];
    const page = pages.get(state.toMove);
    if (!page || !text) throw new Error(`nobody to play ${state.toMove}`);
    // The squares are clicked where they are on screen: the board in view.
    await page.evaluate(() => window.scrollTo(0, 0));
    await playByClicks(page, text);
    for (const p of pages.values()) await waitState(p, `s.moves === ${state.moves + 1}`);
  }
}

/**
 * A hex game in progress, `<board>` seen by its first seat: every seat taken, `turns` turns played
 * by clicking cells, kills with the corpse placed when there are some (never a reporter's or a
 * turn that would ask something more), so the board shows a last move and some corpses.
 */
async function hexGame(newPage: () => Promise<Page>, url: string, board: Exclude<Board, 'square'>, turns: number): Promise<Page> {
  const players = { hex3: 3, hex5: 5, hex6: 6 }[board];
  const rules = parseRules({ board, players });
  if (!rules.ok) throw new Error(`rules of ${board}`);
  const { code, hostToken } = await postRoom(url, { rules: { board, players } });
  const pages = new Map<string, Page>();
  for (const colour of seatsOf(rules.value)) {
    const page = await newPage();
    if (!pages.size) await keepHostToken(page, code, hostToken);
    await sit(page, url, code, `Player ${colour}`);
    if (await page.isVisible('#seat-link-close')) await page.click('#seat-link-close');
    pages.set(colour, page);
  }
  const host = [...pages.values()][0];
  await host.click('#start');
  for (const p of pages.values()) await waitState(p, `s.phase === 'playing'`);
  for (let i = 0; i < turns; i++) {
    const state = await pageState(host);
    const pos = parseFen(state.fen, rules.value);
    if (!pos.ok) throw new Error(`bad fen ${state.fen}`);
    const simple = legalTurns(pos.value).filter(
      (t): t is MoveTurn => !('pass' in t) && pieceAt(pos.value, t.from)?.kind !== 'reporter' && t.exit === undefined,
    );
    const kills = simple.filter((t) => t.placement !== undefined && pieceAt(pos.value, t.from)?.kind === 'militant');
    const plain = simple.filter((t) => t.placement === undefined && !pieceAt(pos.value, t.to));
    const turn = kills[0] ?? plain[(i * 7 + 3) % plain.length];
    const page = pages.get(state.toMove);
    if (!page || !turn) throw new Error(`nobody to play ${state.toMove}`);
    await page.evaluate(() => window.scrollTo(0, 0));
    for (const cell of makeTurn(turn, pos.value).match(/[A-Z]\d{1,2}/g) ?? []) await clickSquare(page, cell);
    for (const p of pages.values()) await waitState(p, `s.moves === ${state.moves + 1}`);
  }
  await host.evaluate(() => window.scrollTo(0, 0));
  return host;
}

/** Let the board's animations settle before a shot. */
async function settle(page: Page): Promise<void> {
  await page
    .waitForFunction(() => !(window as unknown as { djambi?: { animating(): boolean } }).djambi?.animating?.(), null, { timeout: 5000 })
    .catch(() => undefined);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

async function shot(page: Page, name: string, size: string): Promise<void> {
  await settle(page);
  const file = path.join(OUT, `${name}-${size}.png`);
  await page.screenshot({ path: file });
  console.log(`  ${path.relative(ROOT, file)}`);
}

async function sit(page: Page, url: string, code: string, name: string): Promise<void> {
  await page.goto(`${url}/g/${code}`);
  await waitReady(page);
  await page.fill('#player-name', name);
  await page.click('#take-seat');
  await waitState(page, 's.seat !== null');
}

async function run(browser: Browser, url: string, size: (typeof SIZES)[number]): Promise<void> {
  console.log(`${size.name} (${size.viewport.width}×${size.viewport.height}):`);
  const newPage = async (): Promise<Page> => (await browser.newContext({ viewport: size.viewport, locale: 'en-US' })).newPage();

  const home = await newPage();
  await home.goto(`${url}/`);
  await home.waitForSelector('#create');
  await shot(home, 'home', size.name);

  // A two-player game: Ann created it (the host) and sits first; her notice shows.
  const { code, hostToken } = await postRoom(url, { rules: { players: 2 } });
  const ann = await newPage();
  await keepHostToken(ann, code, hostToken);
  await sit(ann, url, code, 'Ann');
  await ann.waitForSelector('#seat-link:not([hidden])');
  await ann.locator('#seat-link').scrollIntoViewIfNeeded();
  await shot(ann, 'seat-link', size.name);
  await ann.click('#seat-link-close');
  const bo = await newPage();
  await sit(bo, url, code, 'Bo');
  await bo.click('#seat-link-close');
  await bo.waitForSelector('[data-host]');
  await bo.locator('#host-note').scrollIntoViewIfNeeded();
  await shot(bo, 'lobby', size.name);

  await ann.click('#start');
  const pages = new Map<string, Page>();
  for (const p of [ann, bo]) {
    await waitState(p, `s.phase === 'playing'`);
    pages.set((await pageState(p)).seat as string, p);
  }
  await playMoves(pages, 6);
  await ann.evaluate(() => window.scrollTo(0, 0));
  await shot(ann, 'game', size.name);

  // A visitor switches the page to Arabic, when the header offers the choice.
  const visitor = await newPage();
  await visitor.goto(`${url}/g/${code}`);
  await waitReady(visitor);
  if ((await visitor.locator('#language').count()) > 0) {
    await Promise.all([visitor.waitForEvent('load'), visitor.selectOption('#language', 'ar')]);
    await visitor.waitForFunction(() => document.documentElement.dir === 'rtl');
    await waitReady(visitor);
    await shot(visitor, 'arabic', size.name);
  } else console.log('  (no language select in the header: arabic skipped)');

  // Ann offers a draw: Bo sees the banner next to the board.
  await ann.click('#draw-offer-btn');
  await bo.waitForSelector('#draw-banner #draw-accept');
  await bo.evaluate(() => window.scrollTo(0, 0));
  await shot(bo, 'draw-banner', size.name);
  await bo.click('#draw-decline');

  // Bo resigns: the result screen; then the replay.
  await bo.click('#resign');
  await bo.click('#resign-yes');
  await waitState(ann, `s.phase === 'over'`);
  await ann.waitForSelector('#result-screen', { state: 'visible' });
  await ann.evaluate(() => window.scrollTo(0, 0));
  await shot(ann, 'result', size.name);
  await ann.goto(`${url}/g/${code}/replay#ply=4`);
  await ann.waitForSelector('#replay canvas');
  await ann.evaluate(() => window.scrollTo(0, 0));
  await shot(ann, 'replay', size.name);
  await Promise.all(browser.contexts().map((c) => c.close()));

  // The hex boards, a game in progress on each.
  for (const board of ['hex3', 'hex5', 'hex6'] as const) {
    await shot(await hexGame(newPage, url, board, 9), `game-${board}`, size.name);
    await Promise.all(browser.contexts().map((c) => c.close()));
  }
}

async function main(): Promise<void> {
  for (const f of [path.join(CLIENT_DIST, 'index.html'), path.join(ROOT, 'server', 'dist', 'index.js')]) {
    if (!existsSync(f)) throw new Error(`${path.relative(ROOT, f)} is missing: npm run build first`);
  }
  mkdirSync(OUT, { recursive: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'djambi-shots-'));
  const port = await freePort();
  const server = await startServer(port, dataDir);
  const url = `http://127.0.0.1:${port}`;
  let browser: Browser | null = null;
  try {
    browser = await launchChromium();
    for (const size of SIZES) await run(browser, url, size);
  } finally {
    await browser?.close().catch(() => undefined);
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
