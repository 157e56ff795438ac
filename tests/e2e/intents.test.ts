/**
 * Intents are never lost, in Debian's Chromium against the real server, two players seated
 * through the invite link:
 * - a tap on the piece the last turn displaced, while that turn animates, selects it: the tap
 *   finishes the animation and acts on the position after it;
 * - a turn made while the network is down is kept: the prompt says it will be sent, the board
 *   waits, and when the network is back the turn is sent with its state version and the other
 *   player sees it; then both play on;
 * - a side chosen in "view as" while a turn animates is the side shown.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { initialPosition, makeFen, parseRules, parseTurn, playTurn, type Colour, type Position } from '@djambi/shared';
import { createServer, type RunningServer } from '../../server/src/app.js';
import {
  CLIENT_DIST,
  clickSquare,
  describeWithBrowser,
  ensureClientBuilt,
  launchChromium,
  outputFile,
  pageState,
  playByClicks,
  squareCenter,
  waitForText,
  waitReady,
  waitState,
  keepHostToken,
  postRoom,
} from './helpers.js';

const describeBrowser = describeWithBrowser();

/** Red's diplomat crosses to h2 and displaces Yellow's diplomat to e3; Yellow is next. */
const OPENING = ['c7-d7', 'g3-f3'];
const DISPLACE = 'b8-h2>e3';
const DISPLACED = 'e3';
/** Yellow's turn while offline, and Red's answer. */
const OFFLINE_TURN = 'e3-e4';
const ANSWER = 'a7-a6';

/** The page's test hook, as far as these tests read it. */
interface Hook {
  animating(): boolean;
  holdAnimations(on: boolean): void;
  state(): { interactive: boolean; selected: string | null; moves: number; fen: string; prompt: string; view: string };
}

function hookState(page: Page): Promise<ReturnType<Hook['state']>> {
  return page.evaluate(() => (window as unknown as { djambi: Hook }).djambi.state());
}

/** Holds the board's animations on `page` where they stand (true), or lets them go on (false). */
function holdAnimations(page: Page, on: boolean): Promise<void> {
  return page.evaluate((hold) => (window as unknown as { djambi: Hook }).djambi.holdAnimations(hold), on);
}

/** Waits until `page` reports that a turn animates (held: it stays in flight until an input finishes it). */
async function animationStarted(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as unknown as { djambi: Hook }).djambi.animating(), null, { timeout: 15000, polling: 'raf' });
}

describeBrowser('intents are never lost in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  const opened: BrowserContext[] = [];
  const contexts = new Map<Colour, BrowserContext>();
  const pages = new Map<Colour, Page>();
  const errors: string[] = [];
  let expected: Position;
  let played = 0;

  beforeAll(async () => {
    ensureClientBuilt();
    // No reconnection grace (see press.test.ts): the page comes back with its seat key.
    server = await createServer({ port: 0, host: '127.0.0.1', clientDir: CLIENT_DIST, graceSeconds: 0 });
    browser = await launchChromium();
    const rules = parseRules({ players: 2 });
    if (!rules.ok) throw new Error('rules');
    expected = initialPosition(rules.value);
    const { code, hostToken } = await postRoom(server.url, { rules: { players: 2 } });
    for (const colour of ['R', 'Y'] as Colour[]) {
      const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
      opened.push(context);
      contexts.set(colour, context);
      const page = await context.newPage();
      page.on('pageerror', (e) => errors.push(e.message));
      pages.set(colour, page);
      // Red created the game: the host, who starts it.
      if (colour === 'R') await keepHostToken(page, code, hostToken);
      await page.goto(`${server.url}/g/${code}`);
      await waitReady(page);
      await page.fill('#player-name', `Player ${colour}`);
      await page.click(`[data-sit="${colour}"]`);
      await waitState(page, `s.seat === '${colour}'`);
    }
    await pages.get('R')!.click('#start');
    for (const page of pages.values()) await waitState(page, "s.phase === 'playing' && s.toMove === 'R'");
  });

  afterAll(async () => {
    // The server first, while the pages are connected (see game.test.ts), then the browser.
    await server?.close();
    await Promise.all(opened.map((c) => c.close().catch(() => undefined)));
    await browser?.close().catch(() => undefined);
  });

  /** The expected position after `text`, counted as played. */
  function advance(text: string): string {
    const turn = parseTurn(text);
    if (!turn.ok) throw new Error(text);
    const res = playTurn(expected, turn.value);
    if (!res.ok) throw new Error(`${text}: ${res.error.message}`);
    expected = res.value.position;
    played++;
    return makeFen(expected);
  }

  /** Every page shows the expected position. */
  async function allSee(fen: string): Promise<void> {
    for (const p of pages.values()) await waitState(p, `s.moves === ${played} && s.fen === ${JSON.stringify(fen)}`);
  }

  /** Play `text` by clicks on its mover's page and wait until both pages have it. */
  async function playNext(text: string): Promise<void> {
    const mover = expected.toMove!;
    const page = pages.get(mover)!;
    await waitState(page, `s.toMove === '${mover}' && s.moves === ${played}`);
    await playByClicks(page, text);
    await allSee(advance(text));
  }

  test('a tap on the piece the last turn displaced, during the animation, selects it', async () => {
    for (const text of OPENING) await playNext(text);
    const red = pages.get('R')!;
    const yellow = pages.get('Y')!;
    // Note, for each press on Yellow's page, whether the board was animating then.
    await yellow.evaluate(() => {
      const w = window as unknown as { djambi: Hook; pressedWhileAnimating: boolean[] };
      w.pressedWhileAnimating = [];
      document.addEventListener('pointerdown', () => w.pressedWhileAnimating.push(w.djambi.animating()), true);
    });
    const target = await squareCenter(yellow, DISPLACED);
    await waitState(red, `s.toMove === 'R' && s.moves === ${played}`);
    // Yellow's board holds the animation of Red's turn in flight, however slow the machine.
    await holdAnimations(yellow, true);
    await playByClicks(red, DISPLACE);
    const fen = advance(DISPLACE);
    // Once Yellow's board animates Red's turn, Yellow taps its displaced diplomat.
    await animationStarted(yellow);
    await yellow.mouse.click(target.x, target.y);
    expect(await yellow.evaluate(() => (window as unknown as { pressedWhileAnimating: boolean[] }).pressedWhileAnimating)).toEqual([true]);
    await holdAnimations(yellow, false);
    await allSee(fen);
    await yellow.waitForFunction(() => !(window as unknown as { djambi: Hook }).djambi.animating(), null, { timeout: 5000 });
    // Selected, and still selected after the release: the tap acted on the position after the turn.
    await waitForText(yellow.locator('#prompt'), /destination/i);
    const s = await hookState(yellow);
    expect(s.selected).toBe(DISPLACED);
    expect(s.interactive).toBe(true);
    await yellow.screenshot({ path: outputFile('e2e-intents-displaced.png') });
    // A tap at rest deselects it again.
    await clickSquare(yellow, DISPLACED);
    await waitForText(yellow.locator('#prompt'), /pick a piece/i);
  });

  test('a turn made while the network is down is sent when it is back', async () => {
    const red = pages.get('R')!;
    const yellow = pages.get('Y')!;
    const context = contexts.get('Y')!;
    await waitState(yellow, `s.toMove === 'Y' && s.moves === ${played}`);
    await context.setOffline(true);
    await yellow.waitForSelector('#net-banner:not([hidden])', { timeout: 10000 });
    await waitForText(yellow.locator('#net-banner'), /connection lost|offline/i);
    // Yellow makes its turn anyway: it is kept, not dropped.
    await playByClicks(yellow, OFFLINE_TURN);
    await waitForText(yellow.locator('#prompt'), /Reconnecting: your turn will be sent/);
    // The board is not interactive while the link is down: no Undo, no Cancel, clicks ignored.
    expect((await hookState(yellow)).interactive).toBe(false);
    expect(await yellow.locator('#prompt.mine').count()).toBe(0);
    expect(await yellow.locator('#undo').isHidden()).toBe(true);
    expect(await yellow.locator('#cancel').isHidden()).toBe(true);
    await clickSquare(yellow, 'g2');
    const waiting = await hookState(yellow);
    expect(waiting.prompt).toMatch(/Reconnecting: your turn will be sent/);
    expect(waiting.selected).toBe('e3');
    expect(waiting.moves).toBe(played);
    await yellow.screenshot({ path: outputFile('e2e-intents-offline.png') });
    // Red has not seen it.
    expect((await pageState(red)).moves).toBe(played);
    // The network is back: the kept turn goes out and Red sees it applied (its animation held in flight).
    await holdAnimations(red, true);
    await context.setOffline(false);
    // While Red's board animates it, Red looks from Yellow's side: the choice holds (the redraw
    // that ends the animation first must not put the select back). Noted: whether the board was
    // animating when the choice reached the page (before the select's own listener ran).
    await red.evaluate(() => {
      const w = window as unknown as { djambi: Hook; choseWhileAnimating: boolean[] };
      w.choseWhileAnimating = [];
      document.addEventListener('change', () => w.choseWhileAnimating.push(w.djambi.animating()), true);
    });
    await animationStarted(red);
    await red.selectOption('#view-from', 'Y');
    expect(await red.evaluate(() => (window as unknown as { choseWhileAnimating: boolean[] }).choseWhileAnimating)).toEqual([true]);
    await holdAnimations(red, false);
    expect((await hookState(red)).view).toBe('Y');
    expect(await red.locator('#view-from').inputValue()).toBe('Y');
    await allSee(advance(OFFLINE_TURN));
    await red.selectOption('#view-from', 'R');
    expect((await hookState(red)).view).toBe('R');
    await waitState(yellow, "s.seat === 'Y'");
    await waitForText(yellow.locator('#prompt'), /Waiting for Player R/);
    expect(await yellow.locator('#prompt').textContent()).not.toMatch(/refused/i);
    // Both play on: Red answers, Yellow can pick a piece again.
    await playNext(ANSWER);
    await clickSquare(yellow, 'e4');
    await waitForText(yellow.locator('#prompt'), /destination/i);
    expect(errors).toEqual([]);
  });
});
