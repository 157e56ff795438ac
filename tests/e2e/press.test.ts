/**
 * Negotiation in Chromium against the real server: a private conversation opened from the seats
 * panel reaches its two players and leaves no trace in a third player's or a spectator's page;
 * a pact proposed and accepted shows for both, and a kill under it is reported as a betrayal;
 * the history comes back after a reload; after the game the reveal shows the private talk.
 * With DOCS_SCREENSHOTS=1 it also writes the screenshots of docs/screenshots/.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { initialPosition, makeFen, parseTurn, playTurn, type Colour, type Position } from '@djambi/shared';
import { createServer, type RunningServer } from '../../server/src/app.js';
import {
  CLIENT_DIST,
  ROOT,
  ensureClientBuilt,
  launchChromium,
  playByClicks,
  waitForCount,
  waitForText,
  waitReady,
  waitState,
  describeWithBrowser,
  keepHostToken,
  postRoom,
} from './helpers.js';

const describeBrowser = describeWithBrowser();
const DOCS = process.env.DOCS_SCREENSHOTS === '1';
const DOCS_DIR = path.join(ROOT, 'docs', 'screenshots');

/** Red, Blue, Yellow and Green open the game; Red's militant then kills a Green militant (`a5xa3>e9`). */
const OPENING = ['a7-a5', 'h7-h6', 'h3-h4', 'c3-c4', 'a5xa3>e9'];
const SECRET = 'Blue, shall we share Yellow? <b>not bold</b> & <img src=x onerror="window.pwned=1">';

interface PressSummary {
  ready: boolean;
  tabs: string[];
  unread: Record<string, number>;
  pacts: number;
  betrayals: number;
  reveal: boolean;
}

function pressState(page: Page): Promise<PressSummary> {
  return page.evaluate(() => (window as unknown as { djambi: { press(): PressSummary } }).djambi.press());
}

/** Wait until the page's press summary satisfies a predicate on `p`. */
async function waitPress(page: Page, predicate: string, timeout = 15000): Promise<void> {
  await page.waitForFunction(`(() => { const p = window.djambi && window.djambi.press(); return !!p && (${predicate}); })()`, null, { timeout, polling: 50 });
}

/** Everything in the page, hidden parts and attributes included. */
function pageHtml(page: Page): Promise<string> {
  return page.evaluate(() => document.documentElement.outerHTML);
}

describeBrowser('negotiation in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let code = '';
  let hostToken = '';
  let invite = '';
  const opened: BrowserContext[] = [];
  const pages = new Map<Colour, Page>();
  let watcher: Page;
  let expected: Position = initialPosition();
  let played = 0;
  const errors: string[] = [];

  beforeAll(async () => {
    ensureClientBuilt();
    // No reconnection grace: a reloaded page reclaims its seat with its key, and no grace timer
    // of Colyseus outlives the server (they are not cleared when it shuts down).
    server = await createServer({ port: 0, host: '127.0.0.1', clientDir: CLIENT_DIST, graceSeconds: 0 });
    browser = await launchChromium();
    ({ code, hostToken } = await postRoom(server.url));
    invite = `${server.url}/g/${code}`;
  });

  afterAll(async () => {
    // The server first, while the pages are connected (see game.test.ts), then the browser.
    await server?.close();
    await Promise.all(opened.map((c) => c.close().catch(() => undefined)));
    await browser?.close().catch(() => undefined);
  });

  async function newPage(viewport = { width: 1100, height: 760 }): Promise<Page> {
    const context = await browser.newContext({ viewport });
    opened.push(context);
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    return page;
  }

  async function playNext(): Promise<void> {
    const text = OPENING[played];
    const mover = expected.toMove!;
    const page = pages.get(mover)!;
    await waitState(page, `s.toMove === '${mover}' && s.moves === ${played}`);
    await playByClicks(page, text);
    const turn = parseTurn(text);
    if (!turn.ok) throw new Error(text);
    const res = playTurn(expected, turn.value);
    if (!res.ok) throw new Error(`${text}: ${res.error.message}`);
    expected = res.value.position;
    played++;
    const fen = makeFen(expected);
    for (const p of [...pages.values(), watcher]) await waitState(p, `s.moves === ${played} && s.fen === ${JSON.stringify(fen)}`);
  }

  /** Type a message in the selected channel and send it with Enter. */
  async function say(page: Page, text: string): Promise<void> {
    await page.fill('#press-input', text);
    await page.press('#press-input', 'Enter');
  }

  test('four players and a spectator join; everyone has the table, nobody a private channel', async () => {
    for (const colour of ['R', 'B', 'Y', 'G'] as Colour[]) {
      // Red plays on a wide screen (the talk in its own column), the others on a laptop.
      const page = await newPage(colour === 'R' ? { width: 1280, height: 800 } : undefined);
      pages.set(colour, page);
      // Red created the game: the host, who starts it.
      if (colour === 'R') await keepHostToken(page, code, hostToken);
      await page.goto(invite);
      await waitReady(page);
      await page.fill('#player-name', ({ R: 'Ada', B: 'Boris', Y: 'Yoko', G: 'Gus' } as Record<string, string>)[colour]);
      if (colour === 'R') await page.click('#take-seat');
      else await page.click(`[data-sit="${colour}"]`);
      await waitState(page, `s.seat === '${colour}'`);
    }
    await pages.get('R')!.click('#start');
    watcher = await newPage();
    await watcher.goto(invite);
    await waitReady(watcher);
    for (const page of [...pages.values(), watcher]) {
      await waitState(page, "s.phase === 'playing'");
      await waitPress(page, "p.ready && p.tabs[0] === 'table'");
    }
    expect((await pressState(watcher)).tabs).toEqual(['table', 'spectators']);
    for (const page of pages.values()) expect((await pressState(page)).tabs).toEqual(['table']);
  });

  test('a private message reaches its two players only', async () => {
    const red = pages.get('R')!;
    const blue = pages.get('B')!;
    // Red starts the conversation from Blue's seat.
    await red.click('#seats [data-talk="B"]');
    await red.waitForSelector('#press-tabs [data-channel="dm:RB"][aria-selected="true"]');
    await say(red, SECRET);
    await waitForText(red.locator('#press-feed .msg .text'), /share Yellow/);
    // Blue gets a tab with an unread badge, reads it, and the badge goes.
    const tab = blue.locator('#press-tabs [data-channel="dm:RB"]');
    await waitForText(tab.locator('.badge'), /^1$/);
    await waitForText(blue.locator('#talk-link .badge'), /^1$/);
    await tab.click();
    await waitForText(blue.locator('#press-feed .msg .text'), /share Yellow/);
    await waitForCount(tab.locator('.badge'), 0);
    await waitPress(blue, 'p.unread["dm:RB"] === 0');
    // Text only: the markup arrives as characters, nothing is parsed or run.
    const feedHtml = await blue.locator('#press-feed').innerHTML();
    expect(feedHtml).not.toMatch(/<b>|<img/);
    expect(await blue.locator('#press-feed .msg .text').textContent()).toBe(SECRET);
    expect(await blue.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    // Blue answers; Red's page has it.
    await say(blue, 'Deal.');
    await waitForText(red.locator('#press-feed'), /Deal\./);
    // A table message after it: once the others have it, they would have had the private one too.
    await red.click('#press-tabs [data-channel="table"]');
    await say(red, 'Good luck, everyone.');
    for (const page of [pages.get('Y')!, pages.get('G')!, watcher]) {
      await page.click('#press-tabs [data-channel="table"]');
      await waitForText(page.locator('#press-feed'), /Good luck, everyone\./);
      const html = await pageHtml(page);
      expect(html).not.toMatch(/share Yellow|Deal\.|dm:RB/);
      await waitForCount(page.locator('#press-tabs [data-channel^="dm:"], #press-tabs [data-channel^="group:"]'), 0);
      const summary = await pressState(page);
      expect(summary.tabs.filter((t) => t.startsWith('dm:') || t.startsWith('group:'))).toEqual([]);
      expect(Object.keys(summary.unread).filter((k) => k.startsWith('dm:'))).toEqual([]);
      // No badge anywhere (the table was read while on screen).
      await waitForCount(page.locator('#press-tabs .badge'), 0);
    }
  });

  test('an announced pact proposed by Red and accepted by Green shows for both, and on the table', async () => {
    const red = pages.get('R')!;
    const green = pages.get('G')!;
    await red.click('#pact-propose summary');
    await red.check('#pact-form input[name="pact-with"][value="G"]');
    await red.check('#pact-announce');
    await red.click('#pact-submit');
    await waitForText(red.locator('#pacts .pact.waiting'), /Gus/);
    const accept = green.locator('#pacts [data-pact-accept]');
    await waitForText(green.locator('#pacts .pact.invitation'), /Ada proposes a pact/);
    await accept.click();
    for (const page of [red, green]) await waitForText(page.locator('#pacts .pact.in-force'), /Ada · Gus: in force/);
    // Announced: the table hears of it, Yellow included; Blue sees it in force too.
    await waitForText(pages.get('Y')!.locator('#press-feed'), /Pact announced: Ada · Gus/);
    await waitForText(watcher.locator('#press-feed'), /Pact announced: Ada · Gus/);
  });

  test('Red kills a piece of Green under the pact: a betrayal alert for both, and on the table', async () => {
    for (let i = 0; i < OPENING.length; i++) await playNext();
    for (const page of [pages.get('R')!, pages.get('G')!]) {
      await waitForText(page.locator('#press-alerts'), /Ada betrayed Gus: killed a piece on turn 5 \(a5xa3>e9\)/);
      await waitForText(page.locator('#pacts'), /betrayed/);
    }
    for (const page of [pages.get('Y')!, watcher]) await waitForText(page.locator('#press-feed .sys.betrayal'), /Ada betrayed Gus/);
    // Blue is not in the pact, but it was announced: Blue hears of it too, on the table.
    await pages.get('B')!.click('#press-tabs [data-channel="table"]');
    await waitForText(pages.get('B')!.locator('#press-feed .sys.betrayal'), /Ada betrayed Gus/);
  });

  test('after a reload the private conversation is back', async () => {
    const blue = pages.get('B')!;
    await blue.reload();
    await waitReady(blue);
    await waitState(blue, "s.seat === 'B'");
    await waitPress(blue, "p.ready && p.tabs.includes('dm:RB')");
    await blue.click('#press-tabs [data-channel="dm:RB"]');
    await waitForText(blue.locator('#press-feed'), /share Yellow.*Deal\./s);
    expect(errors).toEqual([]);
  });

  test('screenshots for the docs (DOCS_SCREENSHOTS=1)', async () => {
    if (!DOCS) return;
    mkdirSync(DOCS_DIR, { recursive: true });
    const red = pages.get('R')!;
    const blue = pages.get('B')!;
    const yellow = pages.get('Y')!;
    // A little more talk for the picture: Blue on the table, Yellow invites Red to a pact.
    await blue.click('#press-tabs [data-channel="table"]');
    await say(blue, 'So much for promises, Ada.');
    await yellow.click('#pact-propose summary');
    await yellow.check('#pact-form input[name="pact-with"][value="R"]');
    await yellow.fill('#pact-rounds', '3');
    await yellow.click('#pact-submit');
    await red.click('#press-tabs [data-channel="table"]');
    await waitForText(red.locator('#press-feed'), /So much for promises/);
    await waitForText(red.locator('#pacts .pact.invitation'), /Yoko proposes a pact/);
    await red.locator('#press-alerts').waitFor();
    await red.screenshot({ path: path.join(DOCS_DIR, 'player-desktop.png') });
    // The panel alone, on a screen tall enough for all of it.
    await red.setViewportSize({ width: 1280, height: 1000 });
    await red.locator('#talk').screenshot({ path: path.join(DOCS_DIR, 'negotiation-panel.png') });
    await red.setViewportSize({ width: 1280, height: 800 });
    // Blue on a phone: the board fills the width; the talk comes right under it.
    await blue.setViewportSize({ width: 390, height: 844 });
    await blue.evaluate(() => window.scrollTo(0, 0));
    await blue.screenshot({ path: path.join(DOCS_DIR, 'player-phone.png') });
    await blue.evaluate(() => document.getElementById('talk')!.scrollIntoView({ block: 'start' }));
    await blue.screenshot({ path: path.join(DOCS_DIR, 'player-phone-talk.png') });
    await blue.setViewportSize({ width: 1100, height: 760 });
  });

  test('a draw ends the game: everyone, the spectator too, gets the reveal with the private talk', async () => {
    await pages.get('B')!.click('#draw-offer-btn');
    for (const c of ['R', 'Y', 'G'] as Colour[]) {
      const p = pages.get(c)!;
      await p.waitForSelector('#draw-accept');
      await p.click('#draw-accept');
    }
    for (const page of [...pages.values(), watcher]) {
      await waitState(page, "s.phase === 'over'");
      await waitPress(page, 'p.reveal');
      await page.locator('#press-reveal').waitFor();
      await waitForText(page.locator('#press-reveal'), /share Yellow/);
      await waitForText(page.locator('#press-reveal'), /Ada betrayed Gus/);
      // Pacts end with the game: nothing is left to answer.
      await waitForCount(page.locator('#pacts [data-pact-accept], #pacts [data-pact-leave]'), 0);
    }
    if (DOCS) {
      const red = pages.get('R')!;
      await red.setViewportSize({ width: 1600, height: 1400 });
      await red.click('#press-alerts-dismiss');
      await red.locator('#talk').screenshot({ path: path.join(DOCS_DIR, 'reveal.png') });
    }
    expect(errors).toEqual([]);
  });
});
