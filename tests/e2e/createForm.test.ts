/**
 * The home page's create form in Chromium, board by board: the request it sends to
 * `POST /api/rooms` (caught with `page.route`, as the server seats hex games only once issue 39's
 * server part lands) carries the board, its player count, its own options only and bot seats of
 * its own colours; a square game is still created for real. The rules page shows the hex boards'
 * section with its SVG diagrams.
 */
import type { Page } from 'playwright-core';
import { browserFixture } from './fixture.js';
import { describeWithBrowser, outputFile, waitReady } from './helpers.js';

const describeBrowser = describeWithBrowser();

describeBrowser('the create form offers the hex boards', () => {
  const fixture = browserFixture({ graceSeconds: 0 });

  /** Submit the form and return the body it posted, answering with a refusal so that the page stays. */
  async function submitted(page: Page): Promise<Record<string, unknown>> {
    let body: Record<string, unknown> | null = null;
    await page.route('**/api/rooms', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      body = route.request().postDataJSON() as Record<string, unknown>;
      await route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'bad_rules', message: 'caught by the test' } }),
      });
    });
    await page.click('#create');
    await page.waitForSelector('#create-form .error:has-text("caught by the test")');
    await page.unroute('**/api/rooms');
    if (!body) throw new Error('the form posted nothing');
    return body;
  }

  /** The bot seats the form offers, by colour. */
  const botSeats = (page: Page): Promise<string[]> =>
    page.$$eval('#bot-seats .field:not([hidden]) select', (els) => els.map((e) => e.id.replace('bot-seat-', '')));

  async function home(): Promise<Page> {
    const page = await fixture.newPage();
    await page.goto(`${fixture.url}/`);
    await page.waitForSelector('#board-choice');
    return page;
  }

  test('hex6: board hex6, 6 players, a vertex_step, no layout or hostage seat; six bot seats', async () => {
    const page = await home();
    await page.check('input[name="board"][value="hex6"]');
    expect(await page.$$eval('input[name="players"]', (els) => els.map((e) => (e as HTMLInputElement).value))).toEqual(['6']);
    expect(await page.isVisible('#rule-vertex_step')).toBe(true);
    expect(await page.isVisible('#rule-hostage_seat')).toBe(false);
    await page.click('#create-form details summary');
    expect(await page.isVisible('#rule-layout')).toBe(false);
    await page.selectOption('#rule-vertex_step', 'either_flank_blocks');
    await page.click('#bot-seats summary');
    expect(await botSeats(page)).toEqual(['R', 'B', 'Y', 'G', 'P', 'W']);
    await page.selectOption('#bot-seat-W', 'easy');
    await page.selectOption('#bot-seat-P', 'hard');
    await page.screenshot({ path: outputFile('home-hex6-1280.png'), fullPage: true });
    const body = await submitted(page);
    const rules = body.rules as Record<string, unknown>;
    expect(rules).toMatchObject({ board: 'hex6', players: 6, vertex_step: 'either_flank_blocks' });
    expect(rules).not.toHaveProperty('layout');
    expect(rules).not.toHaveProperty('hostage_seat');
    expect(body.bots).toEqual({ P: 'hard', W: 'easy' });
    expect(fixture.errors).toEqual([]);
  });

  test('hex5: the hostage seat is sent, and its colour is no bot seat', async () => {
    const page = await home();
    await page.check('input[name="board"][value="hex5"]');
    expect(await page.isVisible('#rule-hostage_seat')).toBe(true);
    expect(await page.inputValue('#rule-hostage_seat')).toBe('6');
    await page.selectOption('#rule-hostage_seat', '3');
    await page.click('#bot-seats summary');
    expect(await botSeats(page)).toEqual(['R', 'B', 'G', 'P', 'W']);
    await page.selectOption('#bot-seat-B', 'normal');
    const body = await submitted(page);
    expect(body.rules).toMatchObject({ board: 'hex5', players: 5, vertex_step: 'free', hostage_seat: 3 });
    expect(body.rules).not.toHaveProperty('layout');
    expect(body.bots).toEqual({ B: 'normal' });
    expect(fixture.errors).toEqual([]);
  });

  test('hex3: 3 players, no large-board option; back to square, the square form as before', async () => {
    const page = await home();
    await page.check('input[name="board"][value="hex3"]');
    expect(await page.isVisible('#rule-vertex_step')).toBe(false);
    await page.click('#bot-seats summary');
    expect(await botSeats(page)).toEqual(['R', 'B', 'Y']);
    const body = await submitted(page);
    expect(body.rules).toMatchObject({ board: 'hex3', players: 3 });
    for (const key of ['layout', 'vertex_step', 'hostage_seat']) expect(body.rules).not.toHaveProperty(key);

    await page.check('input[name="board"][value="square"]');
    expect(await page.$$eval('input[name="players"]', (els) => els.map((e) => (e as HTMLInputElement).value))).toEqual(['4', '3', '2']);
    await page.check('input[name="players"][value="2"]');
    expect(await botSeats(page)).toEqual(['R', 'Y']);
    const square = await submitted(page);
    expect(square.rules).toMatchObject({ players: 2, layout: 'mirror' });
    for (const key of ['board', 'vertex_step', 'hostage_seat']) expect(square.rules).not.toHaveProperty(key);
    expect(fixture.errors).toEqual([]);
  });

  test('2 players: only the Red and Yellow bot seats are offered, and the request carries exactly the chosen bots (issue 40, bug 10)', async () => {
    const page = await home();
    await page.click('#bot-seats summary');
    expect(await botSeats(page)).toEqual(['R', 'B', 'Y', 'G']);
    // Bots chosen for Blue and Green in a four-player game, then the game made a two-player one.
    await page.selectOption('#bot-seat-B', 'hard');
    await page.selectOption('#bot-seat-G', 'easy');
    await page.check('input[name="players"][value="2"]');
    expect(await botSeats(page)).toEqual(['R', 'Y']);
    await page.selectOption('#bot-seat-Y', 'normal');
    const body = await submitted(page);
    expect(body.rules).toMatchObject({ players: 2 });
    expect(body.bots).toEqual({ Y: 'normal' });
    // Back to four players: the Blue and Green bots are offered again, and sent again.
    await page.check('input[name="players"][value="4"]');
    expect(await botSeats(page)).toEqual(['R', 'B', 'Y', 'G']);
    const four = await submitted(page);
    expect(four.bots).toEqual({ B: 'hard', Y: 'normal', G: 'easy' });
    expect(fixture.errors).toEqual([]);
  });

  test('square still creates a game for real', async () => {
    const page = await home();
    await page.check('input[name="players"][value="3"]');
    await page.click('#create');
    await page.waitForURL(/\/g\/[A-Z0-9]{6}$/);
    await waitReady(page);
    expect(fixture.errors).toEqual([]);
  });

  test('the rules page explains the hex boards with SVG diagrams of both boards', async () => {
    const page = await fixture.newPage();
    await page.goto(`${fixture.url}/rules`);
    await page.waitForSelector('#hex-rules');
    // The small board's 61 cells and 27 pieces, the large board's 127 cells and 54 pieces, 6 and 12 direction arrows.
    expect(await page.locator('#hex-rules .hex-start').nth(0).locator('polygon').count()).toBe(61);
    expect(await page.locator('#hex-rules .hex-start').nth(0).locator('circle').count()).toBe(27);
    expect(await page.locator('#hex-rules .hex-start').nth(1).locator('polygon').count()).toBe(127);
    expect(await page.locator('#hex-rules .hex-start').nth(1).locator('circle.c-W').count()).toBe(9);
    expect(await page.locator('#hex-rules .hex-dirs').nth(0).locator('line').count()).toBe(6);
    expect(await page.locator('#hex-rules .hex-dirs').nth(1).locator('line').count()).toBe(12);
    await page.locator('#hex-rules').screenshot({ path: outputFile('rules-hex-1100.png') });
    expect(fixture.errors).toEqual([]);
  });

  test('on a phone, in Arabic (right to left), the form and the hex section fit the width', async () => {
    for (const [width, height, locale] of [
      [390, 844, 'ar'],
      [1280, 800, 'en'],
    ] as const) {
      const page = await fixture.newPage({ viewport: { width, height }, locale });
      await page.goto(`${fixture.url}/`);
      await page.check('input[name="board"][value="hex5"]');
      await page.locator('#create-form').screenshot({ path: outputFile(`home-hex5-${locale}-${width}.png`) });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.goto(`${fixture.url}/rules`);
      await page.waitForSelector('#hex-rules');
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(locale === 'ar' ? 'rtl' : 'ltr');
      await page.locator('#hex-rules').screenshot({ path: outputFile(`rules-hex-${locale}-${width}.png`) });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
    expect(fixture.errors).toEqual([]);
  });
});
