/**
 * Talk before the start in Chromium: a player who sends 8 table messages at once sees 5 go and
 * the refusal (rate-limited, with the wait) for the rest; another player mutes them for itself
 * (their messages hidden, "n messages hidden" with an Unmute button), which a reload keeps, and
 * unmutes them.
 */
import type { Page } from 'playwright-core';
import { describeWithBrowser, keepHostToken, postRoom, takeSeat, waitForCount, waitForText, waitReady } from './helpers.js';
import { browserFixture } from './fixture.js';

const describeBrowser = describeWithBrowser();

describeBrowser('talk limits and muting in Chromium', () => {
  const fixture = browserFixture();
  const errors = fixture.errors;

  async function say(page: Page, text: string): Promise<void> {
    await page.fill('#press-input', text);
    await page.press('#press-input', 'Enter');
  }

  test('a flood before the start is rate-limited; a player mutes the flooder for itself, across a reload, then unmutes', async () => {
    const { code, hostToken } = await postRoom(fixture.url, { rules: { players: 3 } });
    const host = await fixture.newPage();
    await keepHostToken(host, code, hostToken);
    await takeSeat(host, fixture.url, code, 'Ann', 'R');
    const bo = await fixture.newPage();
    await takeSeat(bo, fixture.url, code, 'Bo', 'B');

    await say(host, 'welcome');
    await waitForText(bo.locator('#press-feed .msg .text'), /welcome/);
    for (let i = 1; i <= 8; i++) await say(bo, `flood ${i}`);
    await waitForText(bo.locator('#press-error'), /.+/);
    expect(await bo.getAttribute('#press-error', 'data-code')).toBe('rate_limited');
    await waitForCount(host.locator('#press-feed .msg[data-id]'), 6);
    expect(await host.locator('#press-feed .msg .text', { hasText: 'flood 6' }).count()).toBe(0);

    // Ann mutes Bo: Bo's lines go, a line says how many are hidden; her own stay; Bo sees nothing of it.
    await host.locator('#press-feed .msg', { hasText: 'flood 1' }).locator('[data-mute="B"]').click();
    await waitForCount(host.locator('#press-feed .msg'), 1);
    await waitForText(host.locator('#press-hidden'), /5 messages from Bo hidden/);
    expect(await host.locator('#press-feed [data-mute="R"]').count()).toBe(0);
    await waitForCount(bo.locator('#press-feed .msg'), 6);

    // Kept for this game across a reload; a new message of Bo's is hidden as it comes.
    await host.reload();
    await waitReady(host);
    await waitForText(host.locator('#press-hidden'), /5 messages from Bo hidden/);
    await waitForCount(host.locator('#press-feed .msg'), 1);

    await host.click('#press-hidden [data-unmute="B"]');
    await waitForCount(host.locator('#press-feed .msg'), 6);
    expect(await host.locator('#press-hidden').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
