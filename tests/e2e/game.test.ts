/**
 * The whole client in Debian's Chromium against the real server: four players join through
 * the invite link, each sees its own corner at the bottom, they play by clicking the canvas
 * (a kill with corpse placement, a diplomat displacing a piece, a chief entering the maze),
 * one reloads, one loses its network, and a spectator sees the same position.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { initialPosition, makeFen, parseTurn, playTurn, resign, type Colour, type Position } from '@djambi/shared';
import { createServer, type RunningServer } from '../../server/src/app.js';
import {
  keepHostToken,
  postRoom,
  CLIENT_DIST,
  clickSquare,
  dragSquare,
  ensureClientBuilt,
  launchChromium,
  outputFile,
  pageState,
  playByClicks,
  squareCenter,
  waitForCount,
  waitForText,
  waitForValue,
  waitReady,
  waitState,
  describeWithBrowser,
} from './helpers.js';

const describeBrowser = describeWithBrowser();

/** Each seat's own corner, which must be at the bottom of its view. */
const CORNER: Partial<Record<Colour, string>> = { R: 'a9', B: 'i9', Y: 'i1', G: 'a1' };

/**
 * The scripted game. It covers a militant kill with the corpse placed (`a5xa3>e9`), a diplomat
 * crossing the empty maze to displace Blue's necromobile (`b2xg7>e8`) and Green's chief entering
 * the maze (`a1-e5`). `how` says how the turn is entered: clicks, a drag or typed squares.
 */
const SCRIPT: { text: string; how: 'click' | 'drag' | 'type' }[] = [
  { text: 'a7-a5', how: 'click' },
  { text: 'h7-h6', how: 'drag' },
  { text: 'h3-h4', how: 'type' },
  { text: 'c3-c4', how: 'click' },
  { text: 'a5xa3>e9', how: 'click' },
  { text: 'h6-h5', how: 'click' },
  { text: 'i3-i5', how: 'click' }, // Yellow plays this after reloading its page
  { text: 'b2xg7>e8', how: 'click' },
  { text: 'c9-d9', how: 'click' },
  { text: 'g8-f7', how: 'click' }, // Blue plays this after its network came back
  { text: 'g2-f2', how: 'click' },
  { text: 'a1-e5', how: 'click' },
];

describeBrowser('four players and a spectator in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let code = '';
  let hostToken = '';
  let invite = '';
  const contexts = new Map<Colour, BrowserContext>();
  const pages = new Map<Colour, Page>();
  let watcher: Page;
  let expected: Position = initialPosition();
  let played = 0;
  const errors: string[] = [];

  beforeAll(async () => {
    ensureClientBuilt();
    server = await createServer({ port: 0, host: '127.0.0.1', clientDir: CLIENT_DIST, graceSeconds: 5 });
    browser = await launchChromium();
    ({ code, hostToken } = await postRoom(server.url, { visibility: 'public' }));
    invite = `${server.url}/g/${code}`;
  });

  /** Every context opened, to close in `afterAll`. */
  const opened: BrowserContext[] = [];

  afterAll(async () => {
    // The server first, while the pages are still connected: a page that closed first would leave
    // its seat waiting for a reconnection (a grace timer that outlives the server and keeps Jest
    // from exiting). Then every context and the browser.
    await server?.close();
    await Promise.all(opened.map((c) => c.close().catch(() => undefined)));
    await browser?.close().catch(() => undefined);
  });

  async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    opened.push(context);
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`${e.message}`));
    return { context, page };
  }

  /** Play the next scripted turn on its mover's page and wait until every page has it. */
  async function playNext(): Promise<void> {
    const step = SCRIPT[played];
    const mover = expected.toMove!;
    const page = pages.get(mover)!;
    await waitState(page, `s.toMove === '${mover}' && s.moves === ${played}`);
    if (step.how === 'drag') {
      const [from, to] = step.text.match(/[a-i][1-9]/g)!;
      await dragSquare(page, from, to);
    } else if (step.how === 'type') {
      await page.fill('#square-input', step.text);
      await page.press('#square-input', 'Enter');
    } else {
      await playByClicks(page, step.text);
    }
    const turn = parseTurn(step.text);
    if (!turn.ok) throw new Error(step.text);
    const res = playTurn(expected, turn.value);
    if (!res.ok) throw new Error(`${step.text}: ${res.error.message}`);
    expected = res.value.position;
    played++;
    const fen = makeFen(expected);
    for (const p of [...pages.values(), ...(watcher ? [watcher] : [])]) await waitState(p, `s.moves === ${played} && s.fen === ${JSON.stringify(fen)}`);
  }

  test('four players join through the invite link and take the four seats', async () => {
    const order: Colour[] = ['R', 'B', 'Y', 'G'];
    for (const colour of order) {
      const { context, page } = await newPage();
      contexts.set(colour, context);
      pages.set(colour, page);
      // Red created the game (the host, who starts it).
      if (colour === 'R') await keepHostToken(page, code, hostToken);
      await page.goto(invite);
      await waitReady(page);
      await page.fill('#player-name', `Player ${colour}`);
      if (colour === 'R') await page.click('#take-seat');
      else await page.click(`[data-sit="${colour}"]`);
      await waitState(page, `s.seat === '${colour}'`);
    }
    // Before the start two players swap seats (and swap back).
    for (const [a, b] of [
      ['R', 'B'],
      ['B', 'R'],
    ] as [Colour, Colour][]) {
      const pa = pages.get('R')!;
      const pb = pages.get('B')!;
      await pa.click(`[data-swap="${b}"]`);
      await pb.click(`[data-swap="${a}"]`);
      await waitState(pa, `s.seat === '${b}' && s.view === '${b}'`);
      await waitState(pb, `s.seat === '${a}'`);
    }
    // Players say they are ready; everyone sees it.
    for (const c of ['B', 'Y'] as Colour[]) await pages.get(c)!.click('#ready-toggle');
    for (const page of pages.values()) await waitForText(page.locator('#ready-count'), /2 of 4 ready/);
    await waitForCount(pages.get('R')!.locator('.seat[data-colour="B"] .tag.ready'), 1);
    const first = pages.get('R')!;
    await first.waitForSelector('#start');
    await waitForValue(first.locator('#invite-link'), invite);
    await waitForCount(first.locator('.qr'), 1);
    await first.click('#start');
    for (const page of pages.values()) await waitState(page, "s.phase === 'playing'");
  });

  test('each player sees its own corner at the bottom of the board', async () => {
    for (const [colour, page] of pages) {
      const state = await pageState(page);
      expect(state.view).toBe(colour);
      const box = (await page.locator('#board canvas').boundingBox())!;
      const corner = await squareCenter(page, CORNER[colour]!);
      expect(corner.y).toBeGreaterThan(box.y + box.height * 0.85);
      expect(corner.x).toBeLessThan(box.x + box.width * 0.15);
      await waitForCount(page.locator(`#seats [data-colour="${colour}"] .tag.you`), 1);
    }
  });

  test('they play by clicking, dragging and typing: a kill with placement and a diplomat displacing a piece', async () => {
    // Red selects a piece: its destinations come from the engine and the prompt asks for one.
    const red = pages.get('R')!;
    await clickSquare(red, 'a7');
    await waitForText(red.locator('#prompt'), /destination/i);
    await clickSquare(red, 'a7'); // deselect again
    await waitForText(red.locator('#prompt'), /pick a piece/i);

    for (let i = 0; i < 4; i++) await playNext();
    // Red's militant kills: after the capture the page asks where to put the corpse.
    await clickSquare(red, 'a5');
    await clickSquare(red, 'a3');
    await waitForText(red.locator('#prompt'), /corpse|victim/i);
    await red.click('#undo');
    await waitForText(red.locator('#prompt'), /destination/i);
    await clickSquare(red, 'a5'); // deselect, then play the scripted turn from scratch
    await playNext(); // a5xa3>e9
    await playNext(); // Blue
  });

  test('a reloaded page is back in its seat without questions and plays on', async () => {
    const yellow = pages.get('Y')!;
    await yellow.reload();
    await waitReady(yellow);
    await waitState(yellow, "s.seat === 'Y' && s.phase === 'playing'");
    await yellow.locator('#join').waitFor({ state: 'hidden', timeout: 15000 });
    await playNext(); // i3-i5 by the reloaded Yellow
    await playNext(); // b2xg7>e8: Green's diplomat displaces Blue's necromobile
    await playNext(); // Red
  });

  test('a player whose network is cut sees a banner and recovers its seat', async () => {
    const blue = pages.get('B')!;
    const context = contexts.get('B')!;
    await context.setOffline(true);
    await blue.waitForSelector('#net-banner:not([hidden])', { timeout: 10000 });
    await waitForText(blue.locator('#net-banner'), /connection lost|reconnecting/i);
    // The others see Blue away.
    await pages.get('R')!.waitForSelector('#seats [data-colour="B"].away', { timeout: 15000 });
    await context.setOffline(false);
    await waitState(blue, "s.seat === 'B'");
    await pages.get('R')!.waitForSelector('#seats [data-colour="B"].connected', { timeout: 20000 });
    await playNext(); // g8-f7 by Blue after the network came back
  });

  test('a spectator joining mid-game sees the same position; a chief enters the maze', async () => {
    const { page } = await newPage();
    watcher = page;
    await page.goto(invite);
    await waitReady(page);
    await waitState(page, `s.moves === ${played} && s.fen === ${JSON.stringify(makeFen(expected))} && s.seat === null`);
    await playNext(); // Yellow
    await playNext(); // a1-e5: Green's chief enters the maze
    expect(expected.toMove).not.toBeNull();
    await waitForText(page.locator('#status'), /Ruler:\s*Green/);
    // The spectator picks Green's view.
    await page.selectOption('#view-from', 'G');
    await waitState(page, "s.view === 'G'");
    const fens = await Promise.all([...pages.values(), page].map(async (p) => (await pageState(p)).fen));
    expect(new Set(fens).size).toBe(1);
  });

  test('the move list steps back to an earlier position while the game goes on', async () => {
    const red = pages.get('R')!;
    await red.click('#nav-first');
    await waitForText(red.locator('#status .history-note'), /\b0 of 12\b/);
    await red.click('#nav-next');
    await waitForText(red.locator('#status .history-note'), /\b1 of 12\b/);
    // The move list names the moves, and the board shows the position after the first one.
    await waitForText(red.locator('#moves li.current'), /a7-a5/);
    await red.click('#nav-last');
    await waitForCount(red.locator('#status .history-note'), 0);
    // The game record link gives the record of these 12 turns.
    const href = await red.locator('#record-link').getAttribute('href');
    const record = await (await fetch(`${server.url}${href}`)).text();
    // After the header's tags (`[Event "…"]`, docs/NOTATION.md), the rules line and the start position.
    const lines = record.split('\n').filter((l) => !l.startsWith('['));
    expect(lines[0]).toMatch(/^Djambi players=4 /);
    expect(lines[1].trim().split(/\s+/)).toHaveLength(12);
  });

  test('screenshots of every view', async () => {
    for (const [colour, page] of pages) await page.screenshot({ path: outputFile(`e2e-${colour}.png`) });
    await watcher.screenshot({ path: outputFile('e2e-spectator.png') });
    expect(errors).toEqual([]);
  });

  test('a seat link moves a seat to another device; the old page is left watching', async () => {
    const old = pages.get('G')!;
    await contexts.get('G')!.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await old.click('#lobby details.seat-link summary');
    await old.click('#copy-seat-link');
    const seatLink = await old.evaluate(() => navigator.clipboard.readText());
    expect(seatLink).toMatch(new RegExp(`/g/${code}#seat=G\\.`));
    const { context, page } = await newPage();
    await page.goto(seatLink);
    await waitReady(page);
    await waitState(page, "s.seat === 'G' && s.view === 'G'");
    expect(new URL(page.url()).hash).toBe(''); // the key does not stay in the address bar
    await waitState(old, 's.seat === null');
    contexts.set('G', context);
    pages.set('G', page);
  });

  test('a player resigns after confirming; a draw offered by one and accepted by all ends the game', async () => {
    const yellow = pages.get('Y')!;
    await yellow.click('#resign');
    await yellow.click('#resign-no'); // changed its mind
    await waitForCount(yellow.locator('#resign-dialog'), 0);
    await yellow.click('#resign');
    await yellow.click('#resign-yes');
    const res = resign(expected, 'Y');
    if (!res.ok) throw new Error(res.error.message);
    expected = res.value.position;
    played++;
    for (const p of [...pages.values(), watcher]) await waitState(p, `s.moves === ${played}`);
    await waitForText(pages.get('R')!.locator('#status'), /Out.*Player Y \(resigned\)/s);
    await pages.get('R')!.click('#draw-offer-btn');
    for (const c of ['B', 'G'] as Colour[]) {
      const p = pages.get(c)!;
      await p.waitForSelector('#draw-accept');
      await p.click('#draw-accept');
    }
    for (const p of [...pages.values(), watcher]) {
      await waitState(p, "s.phase === 'over'");
      await waitForText(p.locator('#result'), /Draw/);
    }
    await watcher.screenshot({ path: outputFile('e2e-result.png') });
    expect(errors).toEqual([]);
  });

  test('the home page creates a 3-player public game, listed for others; the rules page is reachable', async () => {
    const { page } = await newPage();
    await page.goto(`${server.url}/`);
    await page.check('input[name="players"][value="3"]');
    await page.check('input[name="visibility"][value="public"]');
    await page.click('#create');
    await page.waitForURL(/\/g\/[A-Z0-9]{6}$/);
    const newCode = page.url().split('/g/')[1];
    await waitReady(page);
    await waitForCount(page.locator('#seats .seat'), 4); // 3 seats and the hostage army
    await waitForText(page.locator('#seats .seat.hostage'), /hostage/);
    const { page: other } = await newPage();
    await other.goto(`${server.url}/`);
    await other.waitForSelector(`#public-rooms li:has-text("${newCode}")`);
    await other.locator('#join-code').fill(newCode.toLowerCase());
    await other.click('#join-form button[type="submit"]');
    await other.waitForURL(new RegExp(`/g/${newCode}$`));
    await waitReady(other);
    await other.click('a[href="/rules"]');
    await other.waitForSelector('h1:has-text("How to play")');
    await other.locator('.diagram').nth(5).waitFor({ timeout: 15000 });
  });

  // Negotiation (a private message for two players only, pacts, betrayals, the reveal): press.test.ts.
});
