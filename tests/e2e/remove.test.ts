/**
 * The host removes a player before the start, in Chromium: only the host sees the Remove buttons;
 * after confirming, the removed player's page says the host removed it (not "taken over from
 * another device") and leaves it watching with the join form back, and the seat is free again.
 */
import type { Page } from 'playwright-core';
import { describeWithBrowser, keepHostToken, postRoom, takeSeat, waitForCount, waitForText, waitState } from './helpers.js';
import { browserFixture } from './fixture.js';

const describeBrowser = describeWithBrowser();

describeBrowser('removing a player in Chromium', () => {
  const fixture = browserFixture();
  const errors = fixture.errors;
  const newPage = () => fixture.newPage();

  const sit = (page: Page, code: string, name: string, colour: string) => takeSeat(page, fixture.url, code, name, colour);

  test('the host removes a seated player with the Remove button; that page says so', async () => {
    const { code, hostToken } = await postRoom(fixture.url, { rules: { players: 4 } });
    const host = await newPage();
    await keepHostToken(host, code, hostToken);
    await sit(host, code, 'Ann', 'R');
    const guest = await newPage();
    await sit(guest, code, 'Bo', 'B');

    // Only the host is offered the removal.
    await host.waitForSelector('#remove-list [data-remove="B"]');
    expect(await guest.locator('[data-remove]').count()).toBe(0);

    // Changing its mind at the confirmation changes nothing.
    host.once('dialog', (d) => void d.dismiss());
    await host.click('#remove-list [data-remove="B"]');
    await waitState(guest, `s.seat === 'B'`);

    host.once('dialog', (d) => {
      expect(d.message()).toMatch(/Bo/);
      void d.accept();
    });
    await host.click('#remove-list [data-remove="B"]');

    // The removed player's page says so, watches, and may sit again.
    await waitState(guest, 's.seat === null');
    await waitForText(guest.locator('#net-banner'), /host removed you/);
    expect(await guest.isVisible('#net-banner')).toBe(true);
    await guest.waitForSelector('#take-seat');
    await guest.waitForSelector('#seat-link-open', { state: 'hidden' });

    // The host's page: the seat is free again and nobody is left to remove.
    await waitForCount(host.locator('#remove-list [data-remove]'), 0);
    await waitForText(host.locator('#waiting-note'), /3/);
    expect(errors).toEqual([]);
  });
});
