/**
 * The host removes a player before the start, in Chromium: only the host sees the Remove buttons;
 * after confirming, the removed player's page says the host removed it (not "taken over from
 * another device") and leaves it watching, and the seat is free again. The removed browser may
 * not take a seat again, even after a reload (its device token is barred: `removed`); another
 * browser may.
 */
import type { Page } from 'playwright-core';
import { describeWithBrowser, keepHostToken, postRoom, takeSeat, waitForCount, waitForText, waitReady, waitState } from './helpers.js';
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

    // The removed player's page says so and watches.
    await waitState(guest, 's.seat === null');
    await waitForText(guest.locator('#net-banner'), /host removed you/);
    expect(await guest.isVisible('#net-banner')).toBe(true);
    await guest.waitForSelector('#seat-link-open', { state: 'hidden' });

    // The host's page: the seat is free again and nobody is left to remove.
    await waitForCount(host.locator('#remove-list [data-remove]'), 0);
    await waitForText(host.locator('#waiting-note'), /3/);

    // Sitting again from the removed browser is refused, in words, and it keeps watching; a reload changes nothing.
    for (const reload of [false, true]) {
      if (reload) {
        await guest.reload();
        await waitReady(guest);
      }
      await guest.fill('#player-name', 'Bo again');
      await guest.click('#take-seat');
      await waitForText(guest.locator('#join-error'), /host removed you from this game/);
      await waitState(guest, 's.seat === null && s.phase === "waiting"');
    }
    await waitForText(host.locator('#waiting-note'), /3/);

    // Another browser takes the free seat.
    const other = await newPage();
    await sit(other, code, 'Cy', 'B');
    expect(errors).toEqual([]);
  });
});
