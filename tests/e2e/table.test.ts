/**
 * The table during the game in Debian's Chromium against the real server:
 * - a draw offer shows as a banner next to the board for every active player, with accept and
 *   decline for those who have not accepted; a decline is named to the offerer (and everyone);
 * - the board draws each army with its controller's mark, read through the page's test hook:
 *   in a two-player game Red plays Blue's army and Yellow plays Green's, so every living Blue
 *   piece wears a Red ring and every Green piece a Yellow one; Red and Yellow pieces wear none;
 * - the move list tells the moves in words, with the notation on hover and through a toggle;
 * - the seat panel shows the turn order with who moves next.
 */
import type { Page } from 'playwright-core';
import type { Colour } from '@djambi/shared';
import { keepHostToken, postRoom, describeWithBrowser, outputFile, playByClicks, waitForText, waitReady, waitState } from './helpers.js';
import { browserFixture } from './fixture.js';
import { ARMY } from '../../client/src/render/theme.js';

const describeBrowser = describeWithBrowser();

/** A piece as the board draws it (`window.djambi.drawn()`). */
interface Drawn {
  square: string;
  colour: Colour;
  alive: boolean;
  mark: string | null;
  ringColour: string | null;
}

function drawn(page: Page): Promise<Drawn[]> {
  return page.evaluate(() => (window as unknown as { djambi: { drawn(): Drawn[] } }).djambi.drawn());
}

describeBrowser('the table during the game in Chromium', () => {
  const fixture = browserFixture({ graceSeconds: 0 }, { width: 1100, height: 800 });
  const errors = fixture.errors;
  const newPage = () => fixture.newPage();

  /** A game created through the API with `seats` seated through the invite link, then started. */
  async function seated(players: number, seats: readonly Colour[]): Promise<{ code: string; pages: Map<Colour, Page> }> {
    const { code, hostToken } = await postRoom(fixture.url, { rules: { players } });
    const pages = new Map<Colour, Page>();
    for (const colour of seats) {
      const page = await newPage();
      pages.set(colour, page);
      // The first seat's player created the game: the host, who starts it.
      if (colour === seats[0]) await keepHostToken(page, code, hostToken);
      await page.goto(`${fixture.url}/g/${code}`);
      await waitReady(page);
      await page.fill('#player-name', `Player ${colour}`);
      await page.click(`[data-sit="${colour}"]`);
      await waitState(page, `s.seat === '${colour}'`);
    }
    await pages.get(seats[0])!.click('#start');
    for (const page of pages.values()) await waitState(page, `s.phase === 'playing' && s.toMove === '${seats[0]}'`);
    return { code, pages };
  }

  test('a draw offer is a banner for every active player; the offerer sees who declined', async () => {
    const { code, pages } = await seated(3, ['R', 'B', 'Y']);
    const watcher = await newPage();
    await watcher.goto(`${fixture.url}/g/${code}`);
    await waitReady(watcher);
    const red = pages.get('R')!;
    await red.click('#draw-offer-btn');
    await waitForText(red.locator('#draw-banner'), /You offered a draw\.\s*Waiting for Player B, Player Y\./);
    expect(await red.locator('#draw-banner #draw-accept').count()).toBe(0);
    for (const c of ['B', 'Y'] as Colour[]) {
      const p = pages.get(c)!;
      await waitForText(p.locator('#draw-banner'), /Player R offers a draw\./);
      expect(await p.locator('#draw-banner #draw-accept').isVisible()).toBe(true);
      expect(await p.locator('#draw-banner #draw-decline').isVisible()).toBe(true);
    }
    // A spectator sees the offer, without buttons.
    await waitForText(watcher.locator('#draw-banner'), /Player R offers a draw\./);
    expect(await watcher.locator('#draw-accept').count()).toBe(0);
    // Blue accepts: Yellow is still awaited, Blue's buttons go.
    await pages.get('B')!.click('#draw-accept');
    await waitForText(red.locator('#draw-banner'), /Waiting for Player Y\.$/);
    await waitForText(pages.get('B')!.locator('#draw-banner'), /Waiting for Player Y\./);
    expect(await pages.get('B')!.locator('#draw-accept').count()).toBe(0);
    await pages.get('Y')!.screenshot({ path: outputFile('e2e-draw-banner.png') });
    // Yellow declines: the offer lapses and the banner names who declined, for the offerer too.
    await pages.get('Y')!.click('#draw-decline');
    for (const p of [...pages.values(), watcher]) await waitForText(p.locator('#draw-banner'), /Player Y declined the draw\./);
    await red.click('#draw-dismiss');
    await red.waitForSelector('#draw-banner', { state: 'hidden' });
    expect(await red.locator('#draw-offer-btn').isVisible()).toBe(true);
    // The turn order: Red now, then Blue, then Yellow.
    const order = await red.locator('#turn-order li').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.turn));
    expect(order.slice(0, 3)).toEqual(['R', 'B', 'Y']);
    await waitForText(red.locator('#next-up'), /Next: Player B/);
    // Green is the hostage army of a three-player game: its pieces are marked as such.
    const green = (await drawn(red)).filter((p) => p.colour === 'G' && p.alive);
    expect(green.length).toBeGreaterThan(0);
    expect(green.every((p) => p.mark === 'hostage')).toBe(true);
    expect(errors).toEqual([]);
  });

  test('an army played by another player is drawn with its controller’s colour; the moves read in words', async () => {
    const { pages } = await seated(2, ['R', 'Y']);
    for (const page of pages.values()) {
      await page.waitForFunction(() => (window as unknown as { djambi: { drawn(): unknown[] } }).djambi.drawn().length > 0);
      const pieces = await drawn(page);
      const of = (c: Colour): Drawn[] => pieces.filter((p) => p.colour === c && p.alive);
      expect(of('B').length).toBeGreaterThan(0);
      // Blue's army is Red's, Green's is Yellow's: rings in the controller's colour.
      expect(of('B').every((p) => p.mark === 'R' && p.ringColour === ARMY.R.css)).toBe(true);
      expect(of('G').every((p) => p.mark === 'Y' && p.ringColour === ARMY.Y.css)).toBe(true);
      expect([...of('R'), ...of('Y')].every((p) => p.mark === null)).toBe(true);
    }
    const red = pages.get('R')!;
    await red.screenshot({ path: outputFile('e2e-control-rings.png') });
    await playByClicks(red, 'a7-a5');
    for (const page of pages.values()) {
      await waitState(page, 's.moves === 1');
      await waitForText(page.locator('#moves li').first(), /Red militant a7-a5/);
      expect(await page.locator('#moves li button.move').first().getAttribute('title')).toBe('a7-a5');
    }
    // The notation toggle shows the moves as notation.
    await red.check('#notation-toggle');
    await waitForText(red.locator('#moves li').first(), /^a7-a5$/);
    expect(errors).toEqual([]);
  });
});
