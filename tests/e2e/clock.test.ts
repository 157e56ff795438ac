/**
 * Clocks and the your-turn signal in Debian's Chromium against the real server, two players
 * seated through the invite link:
 * - a game with a clock: both pages show both clocks, the one of the player to move counts down,
 *   a move adds the increment, and when Yellow's time runs out the game ends as a loss on time
 *   for Yellow (result, "Out" list and move list) on both pages;
 * - device clocks an hour fast and an hour slow (`Date` skewed in the page): both show the
 *   server's remaining time (the client estimates the offset with `time` round trips);
 * - a game without a clock: a page in the background (visibility emulated in the page) gets a
 *   title mark when its turn comes, restored when it is shown again; the beep (an oscillator,
 *   observed through a stub) sounds only for the page that switched the sound on.
 */
import type { Locator, Page } from 'playwright-core';
import { initialPosition, makeFen, parseRules, parseTurn, playTurn, type Colour, type Position } from '@djambi/shared';
import { browserFixture } from './fixture.js';
import {
  outputFile,
  pageState,
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

/**
 * The clock of the clocked game. Red must see its clock count down and move within INITIAL
 * seconds (a few clicks: ample even on a loaded machine); Yellow then lets its INITIAL seconds
 * run out. The increment is larger than INITIAL, so Red's clock after its move can only be
 * above INITIAL if the increment was added.
 */
const INITIAL = 6;
const INCREMENT = 10;

/** Two-player turns (Red, then Yellow, then Red) used by both games. */
const TURNS = ['a7-a5', 'i3-i5', 'a5-a4'];

/** Seconds shown by a clock (`m:ss` or `h:mm:ss`). */
function seconds(text: string): number {
  const parts = text.trim().split(':').map(Number);
  if (parts.length < 2 || parts.some((n) => !Number.isInteger(n))) throw new Error(`not a clock: ${JSON.stringify(text)}`);
  return parts.reduce((acc, n) => acc * 60 + n, 0);
}

/** The clock of a seat in the status panel. */
function clockOf(page: Page, colour: Colour): Locator {
  return page.locator(`#status ul.clocks li:has(.swatch.c-${colour}) .clock`);
}

/** The running clock's row(s) in the status panel. */
function runningClock(page: Page, colour?: Colour): Locator {
  return page.locator(colour ? `#status ul.clocks li.running:has(.swatch.c-${colour})` : '#status ul.clocks li.running');
}

/** Emulate the tab going to the background (or coming back): what a tab switch does to the page. */
async function setHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((h) => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

/** Wait until the page's title is `title`. */
async function waitTitle(page: Page, title: string, timeout = 10000): Promise<void> {
  await page
    .waitForFunction((t) => document.title === t, title, { timeout, polling: 50 })
    .catch(async (e: Error) => {
      throw new Error(`title ${JSON.stringify(title)} not seen in ${timeout} ms; last ${JSON.stringify(await page.title())} (${e.message.split('\n')[0]})`);
    });
}

/** Oscillators started in the page (see the stub installed in `newPage`). */
function beeps(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __beeps: number }).__beeps);
}

describeBrowser('clocks and the your-turn signal in Chromium', () => {
  // No reconnection grace (see press.test.ts): no Colyseus grace timer outlives the server.
  const fixture = browserFixture({ graceSeconds: 0 });
  const errors = fixture.errors;

  /**
   * A page in a fresh context, with every oscillator start counted in `window.__beeps`; its
   * device clock (`Date`) is `skewMs` off the real one.
   */
  async function newPage(skewMs = 0): Promise<Page> {
    const page = await fixture.newPage();
    if (skewMs !== 0) {
      await page.addInitScript((skew) => {
        const RealDate = Date;
        const realNow = Date.now.bind(Date);
        class SkewedDate extends RealDate {
          constructor(...args: ConstructorParameters<typeof Date> | []) {
            if (args.length === 0) super(realNow() + skew);
            else super(...(args as ConstructorParameters<typeof Date>));
          }
          static override now(): number {
            return realNow() + skew;
          }
        }
        window.Date = SkewedDate as DateConstructor;
      }, skewMs);
    }
    await page.addInitScript(() => {
      const w = window as unknown as { __beeps: number };
      w.__beeps = 0;
      if (typeof OscillatorNode !== 'undefined') {
        const start = OscillatorNode.prototype.start;
        OscillatorNode.prototype.start = function (this: OscillatorNode, when?: number) {
          w.__beeps++;
          return start.call(this, when);
        };
      }
    });
    return page;
  }

  /** A two-player game: created through the API, Red and Yellow seated through the invite link. */
  interface Game {
    code: string;
    pages: Map<Colour, Page>;
    expected: Position;
    played: number;
  }

  async function seatTwo(clock: { initialSeconds: number; incrementSeconds: number } | null, skews: Partial<Record<Colour, number>> = {}): Promise<Game> {
    const { code, hostToken } = await postRoom(fixture.url, { rules: { players: 2 }, clock });
    const rules = parseRules({ players: 2 });
    if (!rules.ok) throw new Error('rules');
    const pages = new Map<Colour, Page>();
    for (const colour of ['R', 'Y'] as Colour[]) {
      const page = await newPage(skews[colour]);
      pages.set(colour, page);
      // Red created the game: the host, who starts it.
      if (colour === 'R') await keepHostToken(page, code, hostToken);
      await page.goto(`${fixture.url}/g/${code}`);
      await waitReady(page);
      await page.fill('#player-name', `Player ${colour}`);
      await page.click(`[data-sit="${colour}"]`);
      await waitState(page, `s.seat === '${colour}'`);
    }
    return { code, pages, expected: initialPosition(rules.value), played: 0 };
  }

  async function start(game: Game): Promise<void> {
    await game.pages.get('R')!.click('#start');
    for (const page of game.pages.values()) await waitState(page, "s.phase === 'playing' && s.toMove === 'R'");
  }

  /** Play the next of TURNS by clicks on its mover's page and wait until both pages have it. */
  async function playNext(game: Game): Promise<void> {
    const text = TURNS[game.played];
    const mover = game.expected.toMove!;
    const page = game.pages.get(mover)!;
    await waitState(page, `s.toMove === '${mover}' && s.moves === ${game.played}`);
    await playByClicks(page, text);
    const turn = parseTurn(text);
    if (!turn.ok) throw new Error(text);
    const res = playTurn(game.expected, turn.value);
    if (!res.ok) throw new Error(`${text}: ${res.error.message}`);
    game.expected = res.value.position;
    game.played++;
    const fen = makeFen(game.expected);
    for (const p of game.pages.values()) await waitState(p, `s.moves === ${game.played} && s.fen === ${JSON.stringify(fen)}`);
  }

  describe('a game with a clock', () => {
    let game: Game;
    /** `Date.now()` just before Red's move was entered: Yellow's clock starts after it. */
    let movedAt = 0;

    test('before the start both pages show both clocks at the initial time, none running', async () => {
      game = await seatTwo({ initialSeconds: INITIAL, incrementSeconds: INCREMENT });
      for (const page of game.pages.values()) {
        await waitForText(page.locator('#status'), /Clocks/);
        for (const c of ['R', 'Y'] as Colour[]) expect(seconds(await waitForText(clockOf(page, c), /^\d+:\d\d$/))).toBe(INITIAL);
        await waitForCount(page.locator('#status ul.clocks li'), 2);
        await waitForCount(runningClock(page), 0);
      }
    });

    test('the clock of the player to move counts down on both pages; a move adds the increment', async () => {
      await start(game);
      // Red to move: Red's clock runs (and goes below the initial time), Yellow's stands still.
      for (const page of game.pages.values()) {
        await waitForCount(runningClock(page, 'R'), 1, 5000);
        await waitForText(clockOf(page, 'R'), /^0:0[0-5]$/, 5000);
        expect(seconds((await clockOf(page, 'Y').textContent()) ?? '')).toBe(INITIAL);
        await waitForCount(runningClock(page), 1);
      }
      movedAt = Date.now();
      await playNext(game); // Red: a7-a5
      // Yellow to move: Red's clock stopped with the increment added, Yellow's now runs.
      const redAfter = new Map<Page, number>();
      for (const page of game.pages.values()) {
        await waitForCount(runningClock(page, 'Y'), 1, 5000);
        await waitForCount(runningClock(page), 1);
        const red = seconds(await waitForText(clockOf(page, 'R'), /^\d+:\d\d$/));
        expect(red).toBeGreaterThan(INITIAL); // only possible with the increment
        expect(red).toBeLessThanOrEqual(INITIAL + INCREMENT);
        redAfter.set(page, red);
      }
      for (const page of game.pages.values()) {
        await waitForText(clockOf(page, 'Y'), new RegExp(`^0:0[0-${INITIAL - 1}]$`), 5000);
        // Red's clock did not move meanwhile.
        expect(seconds((await clockOf(page, 'R').textContent()) ?? '')).toBe(redAfter.get(page));
      }
    });

    test("when Yellow's time runs out the game ends as a loss on time for Yellow, on both pages", async () => {
      for (const page of game.pages.values()) await waitState(page, "s.phase === 'over'", (INITIAL + 10) * 1000);
      // Not before Yellow's time was up.
      expect(Date.now() - movedAt).toBeGreaterThanOrEqual(INITIAL * 1000 - 250);
      for (const [colour, page] of game.pages) {
        const state = await pageState(page);
        expect(state.moves).toBe(2);
        await waitForText(page.locator('#result'), /^Player R wins$/);
        await waitForText(page.locator('#status'), /Out.*Player Y \(out of time\)/s);
        // The move list: Red's move, then Yellow's time-out.
        await waitForCount(page.locator('#moves li'), 2);
        expect(await page.locator('#moves li').nth(0).textContent()).toMatch(/a7-a5/);
        await waitForText(page.locator('#moves li').nth(1), /^out of time$/);
        expect(await page.locator('#moves li button').nth(1).getAttribute('aria-label')).toBe('Move 2: Yellow out of time');
        // The clocks are stopped: Yellow's at zero, Red's as it was.
        await waitForCount(runningClock(page), 0);
        expect(await clockOf(page, 'Y').textContent()).toBe('0:00');
        expect(seconds((await clockOf(page, 'R').textContent()) ?? '')).toBeGreaterThan(INITIAL);
        // Nobody is asked to move any more.
        await waitForCount(page.locator('#turn-line'), 0);
        await page.screenshot({ path: outputFile(`e2e-clock-${colour}.png`) });
      }
      expect(errors).toEqual([]);
    });
  });

  test("device clocks an hour fast and an hour slow show the server's remaining time", async () => {
    const HOUR = 3_600_000;
    const skews: Partial<Record<Colour, number>> = { R: HOUR, Y: -HOUR };
    const game = await seatTwo({ initialSeconds: 600, incrementSeconds: 0 }, skews);
    for (const [colour, skew] of Object.entries(skews) as [Colour, number][]) {
      const pageNow = await game.pages.get(colour)!.evaluate(() => Date.now());
      expect(Math.abs(pageNow - Date.now() - skew)).toBeLessThan(5000); // the page's clock is off indeed
    }
    await start(game);
    // Red's clock runs: 9:5x on both pages (the device clocks alone would show 0:00 and 1:09:5x).
    for (const page of game.pages.values()) {
      await waitForCount(runningClock(page, 'R'), 1, 5000);
      await waitForText(clockOf(page, 'R'), /^9:5\d$/, 5000);
      expect(await clockOf(page, 'Y').textContent()).toBe('10:00');
    }
    // And it keeps counting down from there, on the server's time.
    for (const page of game.pages.values()) await waitForText(clockOf(page, 'R'), /^9:5[0-7]$/, 10_000);
    expect(errors).toEqual([]);
  });

  test('while its link is down a page stops the clocks where they were and says "reconnecting", not "Your turn" (issue 40, bug 7)', async () => {
    const game = await seatTwo({ initialSeconds: 600, incrementSeconds: 0 });
    await start(game);
    const red = game.pages.get('R')!;
    const yellow = game.pages.get('Y')!;
    await waitForText(red.locator('#turn-line'), /Your turn/, 5000);
    await waitForText(clockOf(red, 'R'), /^9:5\d$/, 5000);
    await red.context().setOffline(true);
    await waitForText(red.locator('#turn-line'), /^Reconnecting/, 5000);
    await waitForText(red.locator('#prompt'), /^Reconnecting/, 5000);
    const frozen = seconds((await clockOf(red, 'R').textContent()) ?? '');
    // The server's clock runs on (Yellow's page sees it) while Red's page shows it standing.
    await waitForText(
      clockOf(yellow, 'R'),
      new RegExp(`^9:(${[...Array(10).keys()].map((d) => String(frozen - 540 - 3 - d).padStart(2, '0')).join('|')})$`),
      15_000,
    );
    expect(seconds((await clockOf(red, 'R').textContent()) ?? '')).toBe(frozen);
    expect(await red.textContent('#status')).not.toContain('Your turn');
    await red.context().setOffline(false);
    // Back: the clocks run again from the server's time, and it is Red's turn again.
    await waitForText(red.locator('#turn-line'), /Your turn/, 15_000);
    await waitForText(clockOf(red, 'R'), /^9:[0-5]\d$/, 5000);
    expect(seconds((await clockOf(red, 'R').textContent()) ?? '')).toBeLessThan(frozen);
    expect(errors).toEqual([]);
  });

  describe('the your-turn signal', () => {
    let game: Game;
    let base = '';
    let marked = '';

    test('a page in the background gets a title mark when its turn comes; it goes when the page is shown', async () => {
      game = await seatTwo(null);
      base = `Djambi ${game.code}`;
      marked = `● Your turn — Djambi ${game.code}`;
      const red = game.pages.get('R')!;
      const yellow = game.pages.get('Y')!;
      for (const page of game.pages.values()) await waitTitle(page, base);
      await start(game);
      // Red's turn comes while its page is in front: no mark.
      await waitForText(red.locator('#turn-line'), /Your turn/);
      expect(await red.title()).toBe(base);

      await setHidden(yellow, true);
      await playNext(game); // Red: a7-a5, and it is Yellow's turn
      await waitTitle(yellow, marked);
      expect(await red.title()).toBe(base);
      // Shown again: the title is restored.
      await setHidden(yellow, false);
      await waitTitle(yellow, base);
    });

    test('the beep sounds only on the page that switched the sound on', async () => {
      const red = game.pages.get('R')!;
      const yellow = game.pages.get('Y')!;
      // Sound is off by default: Red's turn at the start and Yellow's turn above made no beep.
      expect(await beeps(red)).toBe(0);
      expect(await beeps(yellow)).toBe(0);
      expect(await yellow.isChecked('#sound-toggle')).toBe(false);
      await yellow.check('#sound-toggle');

      await playNext(game); // Yellow: i3-i5 (Red's turn: Red's sound is off)
      await setHidden(yellow, true);
      await playNext(game); // Red: a5-a4, and it is Yellow's turn again
      await waitTitle(yellow, marked);
      await yellow.waitForFunction(() => (window as unknown as { __beeps: number }).__beeps === 1, null, { timeout: 5000, polling: 50 });
      expect(await beeps(red)).toBe(0);
      await setHidden(yellow, false);
      await waitTitle(yellow, base);
      expect(await beeps(yellow)).toBe(1);
      expect(errors).toEqual([]);
    });
  });
});
