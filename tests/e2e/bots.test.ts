/**
 * "Play against the computer" in Chromium: one click on the home page creates a game of one
 * person and three bots, the game page takes the person's seat by itself with the host token
 * (no "Take seat"), the game starts at once (`autostart`), and after the person's first turn
 * the bots' turns arrive in the move list.
 */
import { initialPosition, legalTurns, makeTurn } from '@djambi/shared';
import type { Browser, BrowserContext } from 'playwright-core';
import { createServer, type RunningServer } from '../../server/src/app.js';
import { DEFAULT_BOT_SETTINGS } from '../../server/src/table/bots.js';
import { CLIENT_DIST, describeWithBrowser, ensureClientBuilt, launchChromium, pageState, playByClicks, waitReady, waitState } from './helpers.js';

const describeBrowser = describeWithBrowser();

describeBrowser('play against the computer in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  const opened: BrowserContext[] = [];

  beforeAll(async () => {
    ensureClientBuilt();
    // The real pool and worker, with a short human-like delay and small budgets.
    const bots = { ...DEFAULT_BOT_SETTINGS, minDelayMs: 100, maxDelayMs: 200, nodes: 150 };
    server = await createServer({ port: 0, host: '127.0.0.1', clientDir: CLIENT_DIST, graceSeconds: 5, rooms: { bots } });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await server?.close();
    await Promise.all(opened.map((c) => c.close().catch(() => undefined)));
    await browser?.close().catch(() => undefined);
  });

  test('one click: the board appears with the person seated and the game started; the bots answer its first turn', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    opened.push(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/`);
    await page.selectOption('#bot-level', 'easy');
    await page.click('#play-computer');
    await page.waitForURL(/\/g\/[0-9A-Z]{6}$/);
    const code = page.url().split('/g/')[1];
    await waitReady(page);
    await waitState(page, `s.seat === 'R' && s.phase === 'playing' && s.toMove === 'R' && s.moves === 0`);
    expect(await page.locator('#take-seat').count()).toBe(0);
    // The host token was used and forgotten; the seat key is kept instead.
    expect(await page.evaluate((c) => [localStorage.getItem(`djambi:host:${c}`), localStorage.getItem(`djambi:host-join:${c}`)], code)).toEqual([null, null]);
    expect(await page.evaluate((c) => localStorage.getItem(`djambi:seat:${c}`), code)).toContain('"colour":"R"');

    // The person plays a plain move; the bots' turns follow in the move list.
    const turn = legalTurns(initialPosition()).find((t) => 'from' in t && t.placement === undefined && t.exit === undefined && t.reporterTarget === undefined);
    if (!turn) throw new Error('no plain opening move');
    await playByClicks(page, makeTurn(turn));
    await waitState(page, 's.moves >= 2', 20_000);
    await page.waitForFunction(() => document.querySelectorAll('#moves li').length >= 2, null, { timeout: 5000 });
    expect((await pageState(page)).phase).toBe('playing');
    expect(errors).toEqual([]);
  });
});
