/**
 * Shared pieces of the browser tests and the client benchmark: Debian's Chromium through
 * playwright-core, the built client, and page helpers that click squares on the canvas.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

/** Where Debian installs Chromium (`apt-get install chromium`). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Launch flags: headless, no sandbox (root in a container), nothing phoning home. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The repository root: the nearest folder up from the working directory whose package is `djambi`. */
function findRoot(): string {
  let dir = process.cwd();
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'djambi') return dir;
    const up = path.dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
}

/** The repository root. */
export const ROOT = findRoot();
/** The built client. */
export const CLIENT_DIST = path.join(ROOT, 'client', 'dist');
/** Screenshots and other test output (gitignored). */
export const OUTPUT = path.join(ROOT, 'test-output');

/** Is the browser there? Under CI it must be. */
export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM);
}

/**
 * `describe` for a browser suite: without Chromium the suite is skipped with a warning, except
 * under CI=true, where a failing test says the browser is missing.
 */
export function describeWithBrowser(): jest.Describe {
  if (chromiumAvailable()) return describe;
  if (process.env.CI === 'true') {
    test('Chromium is installed for the browser tests', () => {
      throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
    });
  } else {
    console.warn(`[e2e] ${CHROMIUM} not found: browser tests skipped (apt-get install -y chromium)`);
  }
  return describe.skip;
}

/** Build the client if it has not been built (npm test builds it first anyway). */
export function ensureClientBuilt(): void {
  if (existsSync(path.join(CLIENT_DIST, 'index.html'))) return;
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], {
    cwd: path.join(ROOT, 'client'),
    stdio: 'inherit',
  });
}

/** Launch Chromium with a fresh profile. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/** Make sure the output folder exists; returns the path of a file in it. */
export function outputFile(name: string): string {
  mkdirSync(OUTPUT, { recursive: true });
  return path.join(OUTPUT, name);
}

/** A game made the way the home page makes one: `POST /api/rooms`, answered with its host token. */
export async function postRoom(serverUrl: string, body: unknown = {}): Promise<{ code: string; hostToken: string }> {
  const res = await fetch(`${serverUrl}/api/rooms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`POST /api/rooms: ${res.status}`);
  return (await res.json()) as { code: string; hostToken: string };
}

/**
 * Make the browser of `page` the creator of `code`: its host token stored where the home page
 * keeps it after "Create game" (`djambi:host:CODE`, see client/src/net/seatStore.ts), before the
 * page opens the game. Stored once per context, so a reload does not bring it back.
 */
export async function keepHostToken(page: Page, code: string, hostToken: string): Promise<void> {
  await page.context().addInitScript(
    ([c, t]) => {
      try {
        if (localStorage.getItem(`e2e:host:${c}`)) return;
        localStorage.setItem(`djambi:host:${c}`, t);
        localStorage.setItem(`e2e:host:${c}`, '1');
      } catch {
        /* a document without storage (about:blank) */
      }
    },
    [code, hostToken] as const,
  );
}

/** The page's test hook state (`window.djambi.state()`). */
export interface PageState {
  fen: string;
  seat: string | null;
  view: string;
  phase: string;
  moves: number;
  renderer: string;
  toMove: string;
  prompt: string;
}

/** Read the page's state. */
export function pageState(page: Page): Promise<PageState> {
  return page.evaluate(() => (window as unknown as { djambi: { state(): PageState } }).djambi.state());
}

/** Wait until the board is drawn and the room state has arrived. */
export async function waitReady(page: Page, timeout = 20000): Promise<void> {
  await page.waitForFunction(() => (window as unknown as { djambi?: { ready: boolean } }).djambi?.ready === true, null, { timeout });
}

/** Wait until the page's state satisfies a predicate (polled in the page). */
export async function waitState(page: Page, predicate: string, timeout = 15000): Promise<void> {
  await page.waitForFunction(`(() => { const s = window.djambi && window.djambi.state(); return !!s && (${predicate}); })()`, null, { timeout, polling: 50 });
}

/** Opens the game `code` at `baseUrl` on `page`, takes a free seat as `name` and waits until it holds `colour`. */
export async function takeSeat(page: Page, baseUrl: string, code: string, name: string, colour: string): Promise<void> {
  await page.goto(`${baseUrl}/g/${code}`);
  await waitReady(page);
  await page.fill('#player-name', name);
  await page.click('#take-seat');
  await waitState(page, `s.seat === '${colour}'`);
}

/** Centre of a square on screen. */
export async function squareCenter(page: Page, square: string): Promise<{ x: number; y: number }> {
  const c = await page.evaluate(
    (sq) => (window as unknown as { djambi: { squareCenter(s: string): { x: number; y: number } | null } }).djambi.squareCenter(sq),
    square,
  );
  if (!c) throw new Error(`no square ${square}`);
  return c;
}

/** Click a square on the canvas. */
export async function clickSquare(page: Page, square: string): Promise<void> {
  // Let any running animation finish, so the click is not eaten by it.
  await page.waitForFunction(() => !(window as unknown as { djambi: { animating(): boolean } }).djambi.animating(), null, { timeout: 5000 });
  const { x, y } = await squareCenter(page, square);
  await page.mouse.click(x, y);
}

/** Drag a piece from one square to another on the canvas. */
export async function dragSquare(page: Page, from: string, to: string): Promise<void> {
  const a = await squareCenter(page, from);
  const b = await squareCenter(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
  await page.mouse.move(b.x, b.y, { steps: 4 });
  await page.mouse.up();
}

/**
 * Play a turn written in notation (`a5xa3>e9`) by clicking its squares in order: the piece,
 * the destination, then each further choice.
 */
export async function playByClicks(page: Page, text: string): Promise<void> {
  const squares = text.match(/[a-i][1-9]/g) ?? [];
  for (const sq of squares) await clickSquare(page, sq);
  // A turn that breaks one of the player's pacts waits for a confirmation: the player gives it.
  const warned = await page.evaluate(() => /breaks your pact/.test((window as unknown as { djambi: { state(): { prompt: string } } }).djambi.state().prompt));
  if (warned) await page.click('#confirm');
}

/**
 * Wait until a locator's text matches `re`, polling: the page applies patches and renders a few
 * milliseconds after the action that caused them, more under load. Returns the matching text;
 * on timeout the error shows the last text seen.
 */
export async function waitForText(locator: Locator, re: RegExp, timeout = 15000): Promise<string> {
  const end = Date.now() + timeout;
  let last: string | null = null;
  let failure = 'no such element';
  for (;;) {
    const text = await locator
      .first()
      .textContent({ timeout: Math.max(100, Math.min(1000, end - Date.now())) })
      .catch((e: Error) => {
        failure = e.message.split('\n')[0];
        return null;
      });
    if (text !== null) last = text;
    if (text !== null && re.test(text)) return text;
    if (Date.now() >= end)
      throw new Error(`waitForText(${locator}): ${re} not matched in ${timeout} ms; ${last === null ? failure : `last text: ${JSON.stringify(last)}`}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Wait until a locator matches exactly `n` elements (polling, as `waitForText`). */
export async function waitForCount(locator: Locator, n: number, timeout = 15000): Promise<void> {
  const end = Date.now() + timeout;
  for (;;) {
    const count = await locator.count();
    if (count === n) return;
    if (Date.now() >= end) throw new Error(`waitForCount(${locator}): expected ${n}, found ${count} after ${timeout} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Wait until an input's value is `value` (polling). */
export async function waitForValue(locator: Locator, value: string, timeout = 15000): Promise<void> {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await locator.inputValue({ timeout: Math.max(1, Math.min(1000, end - Date.now())) }).catch(() => null);
    if (v === value) return;
    if (Date.now() >= end) throw new Error(`waitForValue(${locator}): expected ${JSON.stringify(value)}, last ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
