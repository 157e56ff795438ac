/**
 * "Continue on your phone" in Chromium: after taking a seat the seat panel offers it (it never
 * opens by itself); its notice has the seat link and its QR code (a reload does not bring it back;
 * the seat panel's button does); Copy puts
 * the link on the clipboard, the invite link never carries the key; another device that opens the
 * seat link gets the same seat without choosing, and no notice there.
 */
import { browserFixture } from './fixture.js';
import { describeWithBrowser, postRoom, waitReady, waitState } from './helpers.js';

const describeBrowser = describeWithBrowser();

describeBrowser('the seat link notice in Chromium', () => {
  const fixture = browserFixture();
  const errors = fixture.errors;

  test('the notice is offered, not pushed, with a QR code; the seat link gives the same seat on another device', async () => {
    const { code } = await postRoom(fixture.url, { rules: { players: 2 } });
    const page = await fixture.newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: fixture.url });
    await page.goto(`${fixture.url}/g/${code}`);
    await waitReady(page);
    expect(await page.isVisible('#seat-link')).toBe(false);
    await page.fill('#player-name', 'Ann');
    await page.click('#take-seat');
    await waitState(page, `s.seat !== null`);
    const colour = (await page.evaluate(() => (window as unknown as { djambi: { state(): { seat: string } } }).djambi.state().seat)) as string;

    // Offered, not pushed: the seat panel's button, and no notice until it is pressed (issue 40, bug 12).
    await page.waitForSelector('#seat-link-open:not([hidden])');
    expect(await page.isVisible('#seat-link')).toBe(false);
    await page.click('#seat-link-open');
    // The notice: the seat link with the key in the fragment, its QR code, the warning.
    await page.waitForSelector('#seat-link:not([hidden])');
    expect(await page.textContent('#seat-link-title')).toBe('Continue on your phone');
    expect(await page.locator('#seat-link svg.seat-qr path').count()).toBe(1);
    expect(await page.textContent('#seat-link .seat-link-secret')).toMatch(/secret/);
    const seatLink = await page.inputValue('#seat-link-url');
    expect(seatLink).toMatch(new RegExp(`^${fixture.url}/g/${code}#seat=${colour}\\.[A-Za-z0-9_-]{8,64}$`));
    await page.click('#seat-link-copy');
    await page.waitForFunction((link) => navigator.clipboard.readText().then((t) => t === link), seatLink);
    // The invite link stays without the key.
    expect(await page.inputValue('#invite-link')).toBe(`${fixture.url}/g/${code}`);
    await page.click('#seat-link-close');
    expect(await page.isVisible('#seat-link')).toBe(false);
    expect(await page.locator('#seat-link-url').count()).toBe(0);

    // Once per seat key: a reload keeps the seat and does not show the notice again ...
    await page.reload();
    await waitReady(page);
    await waitState(page, `s.seat === '${colour}'`);
    await page.waitForSelector('#seat-link-open:not([hidden])');
    expect(await page.isVisible('#seat-link')).toBe(false);
    // ... and the seat panel's button shows it again.
    await page.click('#seat-link-open');
    await page.waitForSelector('#seat-link:not([hidden])');
    expect(await page.inputValue('#seat-link-url')).toBe(seatLink);
    await page.click('#seat-link-close');

    // Another device opens the seat link: the same seat, without choosing, and no notice there.
    const phone = await fixture.newPage();
    await phone.goto(seatLink);
    await waitReady(phone);
    await waitState(phone, `s.seat === '${colour}'`);
    expect(new URL(phone.url()).hash).toBe('');
    expect(await phone.locator('#take-seat').isVisible()).toBe(false);
    await phone.waitForSelector('#seat-link-open:not([hidden])');
    expect(await phone.isVisible('#seat-link')).toBe(false);
    // The first page is left watching, its button gone.
    await waitState(page, 's.seat === null');
    await page.waitForSelector('#seat-link-open', { state: 'hidden' });
    expect(errors).toEqual([]);
  });
});
