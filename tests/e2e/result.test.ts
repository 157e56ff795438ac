/**
 * The result screen and the rematch in Chromium: when a player resigns, both players see the
 * result screen (the winner by name and colour, the ranking with how each went out); it closes
 * and opens again from the status card; one offers a rematch, the other accepts, and both pages
 * move to the new game by themselves, each one colour further, the offerer hosting.
 */
import type { Page } from 'playwright-core';
import { describeWithBrowser, keepHostToken, outputFile, postRoom, takeSeat, waitReady, waitState } from './helpers.js';
import { browserFixture } from './fixture.js';

const describeBrowser = describeWithBrowser();

describeBrowser('the result screen and the rematch in Chromium', () => {
  const fixture = browserFixture();
  const errors = fixture.errors;
  const newPage = () => fixture.newPage();

  const sit = (page: Page, code: string, name: string, colour: string) => takeSeat(page, fixture.url, code, name, colour);

  test('both players see the result; an accepted rematch brings both into the new game, seats rotated', async () => {
    const { code, hostToken } = await postRoom(fixture.url, { rules: { players: 2 } });
    const ann = await newPage();
    await keepHostToken(ann, code, hostToken);
    await sit(ann, code, 'Ann', 'R');
    const bo = await newPage();
    await sit(bo, code, 'Bo', 'Y');
    await ann.click('#start');
    for (const p of [ann, bo]) await waitState(p, `s.phase === 'playing'`);
    // A visitor of the started game watches it.
    const watcher = await newPage();
    await watcher.goto(`${fixture.url}/g/${code}`);
    await waitReady(watcher);

    await bo.click('#resign');
    await bo.click('#resign-yes');
    for (const p of [ann, bo, watcher]) {
      await waitState(p, `s.phase === 'over'`);
      await p.waitForSelector('#result-screen', { state: 'visible' });
      expect(await p.textContent('#result-headline')).toBe('Ann wins');
      const ranking = await p.locator('#result-ranking li').allTextContents();
      expect(ranking).toHaveLength(2);
      expect(ranking[0]).toMatch(/1\..*Ann.*winner/);
      expect(ranking[1]).toMatch(/2\..*Bo.*resigned on move 1/);
      expect(await p.getAttribute('#result-replay', 'href')).toBe(`/g/${code}/replay`);
    }

    // The watcher has no rematch to offer.
    expect(await watcher.locator('#rematch-offer').count()).toBe(0);
    expect(await ann.locator('#rematch-offer').count()).toBe(1);

    // Dismissed, and reachable again from the status card.
    await bo.click('#result-close');
    await bo.waitForSelector('#result-screen', { state: 'hidden' });
    await bo.click('#result-open');
    await bo.waitForSelector('#result-screen', { state: 'visible' });

    await ann.click('#rematch-offer');
    await bo.waitForSelector('#rematch-accept');
    expect(await bo.textContent('#result-rematch')).toMatch(/Ann offers a rematch/);
    expect(await ann.textContent('#result-rematch')).toMatch(/Waiting for Bo/);
    await watcher.screenshot({ path: outputFile('result-screen.png') });
    await bo.click('#rematch-accept');

    for (const p of [ann, bo]) await p.waitForURL((url) => /^\/g\/[0-9A-Z]{6}$/.test(url.pathname) && url.pathname !== `/g/${code}`, { timeout: 15000 });
    const next = new URL(ann.url()).pathname;
    expect(new URL(bo.url()).pathname).toBe(next);
    // The watcher stays, with a link to the new game.
    expect(await watcher.getAttribute('#rematch-link', 'href')).toBe(next);
    expect(new URL(watcher.url()).pathname).toBe(`/g/${code}`);
    for (const p of [ann, bo]) await waitReady(p);
    await waitState(ann, `s.seat === 'Y' && s.phase === 'waiting'`);
    await waitState(bo, `s.seat === 'R' && s.phase === 'waiting'`);
    // Ann offered: Ann hosts the new game and starts it.
    await ann.waitForSelector('#start');
    expect(await bo.locator('#start').count()).toBe(0);
    await ann.click('#start');
    for (const p of [ann, bo]) await waitState(p, `s.phase === 'playing'`);
    // Back on the finished game, an accepter stays there: the rematch is a link now.
    await ann.goto(`${fixture.url}/g/${code}`);
    await waitReady(ann);
    await ann.waitForSelector('#rematch-link');
    expect(new URL(ann.url()).pathname).toBe(`/g/${code}`);
    expect(errors).toEqual([]);
  });
});
