/**
 * The built client under the server's Content-Security-Policy, in Chromium: the home page, the
 * rules page and a two-player game (invite QR code, seats, the start, a move on the Pixi canvas,
 * one page on the Canvas renderer and one on WebGL) run without a single CSP violation (console
 * message or `securitypolicyviolation` event).
 */
import type { Page } from 'playwright-core';
import { browserFixture } from './fixture.js';
import { keepHostToken, postRoom, describeWithBrowser, pageState, playByClicks, waitReady, waitState } from './helpers.js';

const describeBrowser = describeWithBrowser();

describeBrowser('the client under the Content-Security-Policy', () => {
  const fixture = browserFixture({ graceSeconds: 0 });
  const errors = fixture.errors;
  /** Every CSP violation seen, from the console or the page's own event. */
  const violations: string[] = [];

  async function newPage(): Promise<Page> {
    const page = await fixture.newPage();
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        console.error(
          `Content Security Policy violation event: ${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`,
        );
      });
    });
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    return page;
  }

  test('every page response carries the policy', async () => {
    for (const p of ['/', '/rules', '/g/K7QMZ3']) {
      const res = await fetch(`${fixture.url}${p}`);
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
  });

  test('home page and rules page render without a violation', async () => {
    const page = await newPage();
    await page.goto(`${fixture.url}/`);
    await page.waitForLoadState('networkidle');
    await page.goto(`${fixture.url}/rules`);
    await page.waitForLoadState('networkidle');
    expect(await page.locator('.d-grid').count()).toBeGreaterThan(0);
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('a two-player game: QR invite, seats, start and a move on the canvas, without a violation', async () => {
    const { code, hostToken } = await postRoom(fixture.url, { rules: { players: 2 } });
    const pages = new Map<string, Page>();
    for (const colour of ['R', 'Y']) {
      const page = await newPage();
      pages.set(colour, page);
      // Red created the game: the host, who starts it.
      if (colour === 'R') await keepHostToken(page, code, hostToken);
      // Red gets the page's own choice (Canvas under software WebGL), Yellow asks for WebGL, the
      // renderer that compiles shaders (and needs 'unsafe-eval' without pixi.js/unsafe-eval).
      await page.goto(`${fixture.url}/g/${code}${colour === 'Y' ? '?renderer=webgl' : ''}`);
      await waitReady(page);
      await page.fill('#player-name', `Player ${colour}`);
      await page.click(`[data-sit="${colour}"]`);
      await waitState(page, `s.seat === '${colour}'`);
    }
    const red = pages.get('R') as Page;
    expect(await red.locator('svg.qr').count()).toBe(1);
    await red.click('#start');
    for (const page of pages.values()) await waitState(page, "s.phase === 'playing' && s.toMove === 'R'");
    await playByClicks(red, 'a7-a5');
    for (const page of pages.values()) await waitState(page, 's.moves === 1');
    expect((await pageState(pages.get('Y') as Page)).renderer).toBe('webgl');
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
  });
});
