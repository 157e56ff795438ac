/**
 * Issue 40's page bugs in Chromium: the board's keyboard grid moves only its focus (never the
 * move history), the canvas rings the focused cell and the hidden grid never lengthens the page
 * (bug 1); every page change starts at the top, and on a phone the turn, the clocks and
 * Resign/Draw come before the talk (bug 3); a wrapped move's number stands on its first line and
 * fits three digits (bug 4); the notify switch, the turn order in Korean and Arabic, the move
 * list's piece icons and the seat link offer (bug 12).
 */
import type { Page } from 'playwright-core';
import { initialPosition, legalTurns, makeTurn, parseFen, parseRules, type Position } from '@djambi/shared';
import type { RunningServer } from '../../server/src/app.js';
import { createRoom, holder, join, randomTurnFor, seeded, type TestClient } from '../server/helpers.js';
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

  test("bug 4: a wrapped move's number stands on its first line, and from move 100 it is whole", async () => {
    // A long game played through the server: four SDK players make random legal turns.
    const server = { port: Number(new URL(fixture.url).port) } as RunningServer;
    const creator = await createRoom(server, { rules: { players: 4 }, name: 'p0' });
    const code = creator.state.code as string;
    const players: TestClient[] = [creator];
    for (let i = 1; i < 4; i++) players.push(await join(server, code, { name: `p${i}` }));
    await creator.waitState((st) => [...st.seats.values()].every((x: { taken: boolean }) => x.taken), 'seated');
    creator.room.send('start');
    await creator.waitState((st) => st.phase === 'playing', 'start');
    const random = seeded(40);
    while (creator.state.moves.length < 110 && creator.state.phase === 'playing') {
      const st = creator.state;
      const version = st.version as number;
      const actor = holder(players, st.toMove);
      actor.room.send('turn', { ...randomTurnFor(st, random), version });
      await creator.waitState((x) => x.version > version, `after ${version}`);
    }
    expect(creator.state.moves.length).toBeGreaterThanOrEqual(110);

    const page = await fixture.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${fixture.url}/g/${code}`);
    await waitState(page, 's.moves >= 110');
    await page.waitForSelector('#moves li:nth-child(110)');
    // An entry from 100 on that wraps: its first and last lines on screen.
    const lines = await page.evaluate(() => {
      const box = document.getElementById('moves')!;
      const items = Array.from(box.querySelectorAll('li')).slice(99);
      for (const li of items) {
        const b = li.querySelector('button')!;
        const range = document.createRange();
        range.selectNodeContents(b);
        const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0);
        const first = rects[0];
        const last = rects[rects.length - 1];
        if (last.top < first.bottom) continue;
        li.scrollIntoView({ block: 'center' });
        const rs = Array.from(range.getClientRects()).filter((r) => r.width > 0);
        const left = box.getBoundingClientRect().left;
        const right = b.getBoundingClientRect().left;
        const band = (r: DOMRect) => ({ x: left, y: r.top, width: right - left, height: r.height });
        return { n: items.indexOf(li) + 100, first: band(rs[0]), last: band(rs[rs.length - 1]) };
      }
      return null;
    });
    expect(lines).not.toBeNull();
    const { first, last } = lines!;
    // The number's pixels: what changes when the number (a list marker, or the entry's own) is made transparent.
    const shots = async (): Promise<Buffer[]> => [
      await page.screenshot({ clip: first }),
      await page.screenshot({ clip: last }),
      await page.screenshot({ clip: { ...first, width: 2 } }),
    ];
    const shown = await shots();
    // (Through the CSSOM: the page's CSP refuses a style element.)
    await page.evaluate(() => {
      for (const li of Array.from(document.querySelectorAll<HTMLElement>('#moves li'))) {
        li.style.color = 'transparent';
        li.style.setProperty('--muted', 'transparent');
      }
    });
    const hidden = await shots();
    // On the first line, not on the last; and nothing cut at the list's edge.
    expect(shown[0].equals(hidden[0])).toBe(false);
    expect(shown[1].equals(hidden[1])).toBe(true);
    expect(shown[2].equals(hidden[2])).toBe(true);
    for (const p of players) await p.room.leave(true).catch(() => undefined);
    expect(errors).toEqual([]);
  });

  test('bug 12: "Notify me" follows a permission granted in the browser at once; the seat link is offered, not opened', async () => {
    const { code } = await postRoom(fixture.url, { rules: { players: 2 } });
    const page = await fixture.newPage({ viewport: { width: 390, height: 844 } });
    await takeSeat(page, fixture.url, code, 'Ann', 'R');
    // Asked on a click and refused (headless Chromium refuses): the switch says so and is disabled.
    await page.click('#notify-toggle');
    await until(() => page.isDisabled('#notify-toggle'), true);
    // Granted in the site settings: the switch is usable without a reload.
    await page.context().grantPermissions(['notifications'], { origin: fixture.url });
    await until(() => page.isDisabled('#notify-toggle'), false);
    await page.click('#notify-toggle');
    await until(() => page.getAttribute('#notify-toggle', 'aria-pressed'), 'true');
    // A seated player on a phone: the seat link is a button in the seat panel, its card closed.
    expect(await page.isVisible('#seat-link-open')).toBe(true);
    expect(await page.isVisible('#seat-link')).toBe(false);
    expect(errors).toEqual([]);
  });

  test("bug 12: the move list's piece icons are the board's symbols drawn in SVG, not emoji", async () => {
    const { ann, bo } = await twoPlayerGame();
    const rules = parseRules({ players: 2 });
    if (!rules.ok) throw new Error(rules.error.message);
    await playByClicks(ann, simpleTurn(initialPosition(rules.value)));
    await waitState(bo, 's.moves === 1');
    const entry = bo.locator('#moves li').first();
    await entry.locator('svg.piece-icon polygon').first().waitFor();
    expect(await entry.locator('svg.piece-icon').getAttribute('data-kind')).toMatch(/^(chief|assassin|reporter|diplomat|necromobile|militant)$/);
    // No emoji (nor the chess king) left in the entry's text.
    expect(await entry.textContent()).not.toMatch(/\p{Extended_Pictographic}|\u2654/u);
    expect(errors).toEqual([]);
  });

  test('bug 12: the turn order is whole in Korean and Arabic on a phone', async () => {
    const server = { port: Number(new URL(fixture.url).port) } as RunningServer;
    const names = ['김민준서', 'عبد الرحمن', '이서연아', 'فاطمة الزهراء'];
    const creator = await createRoom(server, { rules: { players: 4 }, name: names[0] });
    const code = creator.state.code as string;
    const players: TestClient[] = [creator];
    for (let i = 1; i < 4; i++) players.push(await join(server, code, { name: names[i] }));
    await creator.waitState((st) => [...st.seats.values()].every((x: { taken: boolean }) => x.taken), 'seated');
    creator.room.send('start');
    await creator.waitState((st) => st.phase === 'playing', 'start');
    for (const locale of ['ko-KR', 'ar']) {
      const page = await fixture.newPage({ locale, viewport: { width: 390, height: 844 } });
      await page.goto(`${fixture.url}/g/${code}`);
      await page.waitForSelector('#turn-order li');
      // Every entry inside the strip, none cut at its sides or at its top and bottom.
      const cut = await page.evaluate(() => {
        const ol = document.querySelector('#turn-order ol')!;
        const box = ol.getBoundingClientRect();
        const out: string[] = [];
        if (ol.scrollWidth > ol.clientWidth + 1 || ol.scrollHeight > ol.clientHeight + 1) out.push('strip overflows');
        for (const li of Array.from(ol.querySelectorAll('li'))) {
          const r = li.getBoundingClientRect();
          if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1) out.push(li.textContent ?? '');
          if (li.scrollWidth > li.clientWidth + 1) out.push(`${li.textContent} (ellipsis)`);
        }
        return out;
      });
      expect({ locale, cut }).toEqual({ locale, cut: [] });
    }
    for (const p of players) await p.room.leave(true).catch(() => undefined);
    expect(errors).toEqual([]);
  });
});
