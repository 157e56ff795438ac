/**
 * The host in Chromium: the player who clicks "Create game" hosts even when another player sits
 * first; only the host sees "Start the game", the other sees who it waits for; the host badge
 * shows for everyone; a visitor to the full game gets a plain page with "watch it, or create your
 * own"; the clock presets fill the custom fields.
 */
import { describeWithBrowser, waitReady, waitState } from './helpers.js';
import { browserFixture } from './fixture.js';

const describeBrowser = describeWithBrowser();

describeBrowser('host and seats in Chromium', () => {
  const fixture = browserFixture();
  const errors = fixture.errors;
  const newPage = () => fixture.newPage();

  test('the creator hosts: only it may start, the other waits for it by name; a visitor finds the game full', async () => {
    const creator = await newPage();
    await creator.goto(`${fixture.url}/`);
    await creator.click('[data-preset="day"]');
    expect(await creator.inputValue('#clock-min')).toBe('1440');
    expect(await creator.inputValue('#clock-inc')).toBe('86400');
    await creator.click('[data-preset="10+5"]');
    await creator.check('input[name="players"][value="2"]');
    await creator.click('#create');
    await creator.waitForURL(/\/g\/[0-9A-Z]{6}$/);
    const code = creator.url().split('/g/')[1];
    expect(await creator.evaluate((c) => localStorage.getItem(`djambi:host:${c}`), code)).toMatch(/^[0-9a-f]{32}$/);
    await waitReady(creator);

    // Another player sits first; then the creator, who takes the host over.
    const guest = await newPage();
    await guest.goto(`${fixture.url}/g/${code}`);
    await waitReady(guest);
    await guest.fill('#player-name', 'Guest');
    await guest.click('#take-seat');
    await waitState(guest, `s.seat === 'R'`);
    await creator.fill('#player-name', 'Machiavelli');
    await creator.click('#take-seat');
    await waitState(creator, `s.seat === 'Y'`);
    await creator.waitForSelector('#start');
    await guest.waitForSelector('#waiting-start');
    expect(await guest.textContent('#waiting-start')).toBe('Waiting for Machiavelli to start the game');
    expect(await guest.locator('#start').count()).toBe(0);
    expect(await guest.textContent('#host-note')).toBe('Host: Machiavelli');
    for (const p of [creator, guest]) await p.waitForSelector('[data-host="Y"]');

    // A visitor to the full game: a plain page, never the server's text.
    const visitor = await newPage();
    await visitor.goto(`${fixture.url}/g/${code}`);
    await waitReady(visitor);
    await visitor.waitForSelector('#full-title');
    expect(await visitor.textContent('#full-note')).toBe('This game is full: watch it, or create your own.');
    expect(await visitor.locator('#join a[href="/"]').count()).toBe(1);
    await visitor.waitForSelector('#spectator-list');

    await creator.click('#start');
    for (const p of [creator, guest, visitor]) await waitState(p, `s.phase === 'playing'`);
    expect(errors).toEqual([]);
  });

  test('an unknown code gets a complete page with a way home', async () => {
    const page = await newPage();
    await page.goto(`${fixture.url}/g/ZZZZZZ`);
    await page.waitForSelector('#replay-message');
    expect(await page.locator('main a[href="/"]').count()).toBeGreaterThan(0);
  });
});
