/**
 * Issue 40's naming and placement bugs in Chromium: pact notices stay in the Pacts panel, not
 * fixed over the page like the table's toasts (bug 2); the creator, right after "Create game", is
 * told to take a seat to host the game and sees one name field, and a spectator sees no
 * player-only control (bug 5); a player is named one way everywhere, the name with a colour
 * swatch: the status card, the result screen and "Your games", a bot's game too (bug 11).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { SqliteStore } from '../../server/src/store/sqlite.js';
import { browserFixture } from './fixture.js';
import { describeWithBrowser, keepHostToken, postRoom, takeSeat, waitForText, waitReady, waitState } from './helpers.js';

const describeBrowser = describeWithBrowser();

describeBrowser("issue 40's names and notices in Chromium", () => {
  // A stored game is listed under "Your games" by its summary: the real default store.
  const store = SqliteStore.open(path.join(mkdtempSync(path.join(os.tmpdir(), 'djambi-e2e-')), 'names.sqlite'));
  const fixture = browserFixture({ store });
  const errors = fixture.errors;
  afterAll(() => store.close());
  // Each test's pages close with it: seven pages left open until the server's shutdown kept it
  // from finishing (their rooms' reconnections), past the hook's minute.
  afterEach(() => fixture.closePages());

  /** The visible elements of `selector`. */
  const visible = (page: Page, selector: string): Promise<number> =>
    page.$$eval(selector, (els) => els.filter((e) => (e as HTMLElement).offsetParent !== null || getComputedStyle(e).position === 'fixed').length);

  test('bug 2: a pact notice sits inside the Pacts panel, in the flow, not fixed over the page', async () => {
    const { code, hostToken } = await postRoom(fixture.url, { rules: { players: 3 } });
    const names = { R: 'Ada', B: 'Boris', Y: 'Yoko' } as const;
    const pages: Page[] = [];
    for (const colour of ['R', 'B', 'Y'] as const) {
      const page = await fixture.newPage();
      if (colour === 'R') await keepHostToken(page, code, hostToken);
      await takeSeat(page, fixture.url, code, names[colour], colour);
      pages.push(page);
    }
    const [ada, boris] = pages;
    await ada.click('#start');
    for (const p of pages) await waitState(p, `s.phase === 'playing'`);
    await ada.click('#pact-propose summary');
    await ada.check('#pact-form input[name="pact-with"][value="B"]');
    await ada.click('#pact-submit');
    await waitForText(boris.locator('#pacts .pact.invitation'), /Ada proposes a pact/);
    await boris.click('#pacts [data-pact-decline]');
    const notices = ada.locator('#pact-notices');
    await waitForText(notices, /Boris/);
    const style = await notices.evaluate((e) => getComputedStyle(e).position);
    expect(style).not.toBe('fixed');
    // Inside the Pacts panel's box.
    const panel = (await ada.locator('#pacts').boundingBox())!;
    const box = (await notices.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(panel.x - 1);
    expect(box.y).toBeGreaterThanOrEqual(panel.y - 1);
    expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width + 1);
    expect(box.y + box.height).toBeLessThanOrEqual(panel.y + panel.height + 1);
    expect(errors).toEqual([]);
  });

  test('bug 5: the creator is told to take a seat to host, with one name field; a spectator has no player-only control', async () => {
    const creator = await fixture.newPage();
    await creator.goto(`${fixture.url}/`);
    await creator.waitForSelector('#create-form');
    await creator.check('input[name="players"][value="2"]');
    await creator.click('#create');
    await creator.waitForURL(/\/g\/[A-Z0-9]{6}$/);
    const code = creator.url().split('/g/')[1];
    await waitReady(creator);
    await waitForText(creator.locator('#host-note'), /You created this game: take a seat to host it/);
    expect(await creator.locator('#waiting-start').count()).toBe(0);
    expect(await visible(creator, '#player-name, #spectator-name')).toBe(1);
    // The options under the board are a player's: none before a seat is taken.
    expect(await visible(creator, '#square-input, #confirm-toggle, #notify-toggle')).toBe(0);

    await creator.fill('#player-name', 'Ann');
    await creator.click('#take-seat');
    await waitState(creator, `s.seat === 'R'`);
    await waitForText(creator.locator('#host-note'), /You are the host/);
    expect(await visible(creator, '#square-input, #confirm-toggle, #notify-toggle')).toBe(3);
    const bo = await fixture.newPage();
    await takeSeat(bo, fixture.url, code, 'Bo', 'Y');
    await creator.click('#start');
    const watcher = await fixture.newPage();
    await watcher.goto(`${fixture.url}/g/${code}`);
    await waitReady(watcher);
    await waitState(watcher, `s.phase === 'playing'`);
    expect(await visible(watcher, '#square-input, #confirm-toggle, #notify-toggle')).toBe(0);
    // The sound switch is the spectator's too.
    expect(await visible(watcher, '#sound-toggle')).toBe(1);
    expect(errors).toEqual([]);
  });

  test('bug 11: the players by name with a colour swatch: the turn, the prompt, the out list, the winner on the status card, the result screen and "Your games"', async () => {
    const { code, hostToken } = await postRoom(fixture.url, { rules: { players: 2 } });
    const ann = await fixture.newPage();
    await keepHostToken(ann, code, hostToken);
    await takeSeat(ann, fixture.url, code, 'Ann', 'R');
    const bo = await fixture.newPage();
    await takeSeat(bo, fixture.url, code, 'Bo', 'Y');
    await ann.click('#start');
    await waitState(bo, `s.phase === 'playing'`);
    // Whose turn it is, on the status card and in the prompt: the name, with its swatch.
    await waitForText(bo.locator('#turn-line'), /^Ann to move$/);
    expect(await bo.locator('#turn-line .swatch.c-R').count()).toBe(1);
    await waitForText(bo.locator('#prompt'), /^Waiting for Ann\.$/);
    await bo.click('#resign');
    await bo.click('#resign-yes');
    await waitForText(ann.locator('#status .out'), /^Bo \(resigned\)$/);
    for (const p of [ann, bo]) {
      await waitState(p, `s.phase === 'over'`);
      await p.waitForSelector('#result-screen', { state: 'visible' });
      expect(await p.textContent('#result-headline')).toBe('Ann wins');
      expect(await p.locator('#result-headline .swatch.c-R').count()).toBe(1);
      await waitForText(p.locator('#result'), /^Ann wins$/);
      expect(await p.locator('#result .swatch.c-R').count()).toBe(1);
    }
    await bo.goto(`${fixture.url}/`);
    const item = bo.locator(`#your-games li[data-code="${code}"]`);
    await waitForText(item, /Ann wins/);
    expect(await item.textContent()).not.toMatch(/Red/);
    expect(await item.locator('.swatch.c-R').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  test('bug 11: a bot that wins is named once ("Yellow (bot, easy) wins"), not with its colour again', async () => {
    const { code, hostToken } = await postRoom(fixture.url, { rules: { players: 2 }, bots: { Y: 'easy' } });
    const ann = await fixture.newPage();
    await keepHostToken(ann, code, hostToken);
    await takeSeat(ann, fixture.url, code, 'Ann', 'R');
    await ann.click('#start');
    await waitState(ann, `s.phase === 'playing'`);
    await ann.click('#resign');
    await ann.click('#resign-yes');
    await waitState(ann, `s.phase === 'over'`);
    await ann.waitForSelector('#result-screen', { state: 'visible' });
    const headline = (await ann.textContent('#result-headline')) ?? '';
    expect(headline).toMatch(/^Yellow \(bot, easy\) wins$/);
    expect(await ann.locator('#result-headline .swatch.c-Y').count()).toBe(1);
    await waitForText(ann.locator('#result'), /^Yellow \(bot, easy\) wins$/);
    expect(errors).toEqual([]);
  });
});
