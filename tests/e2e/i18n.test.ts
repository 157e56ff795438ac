/**
 * The languages in Chromium: a French browser gets the French page; the header's picker switches
 * the game page to Arabic, laid out right to left (`<html dir="rtl">`, the header mirrored) with
 * the board and its coordinates left to right, a spectator's default name in Arabic; the choice
 * is remembered (the rules page follows it); then French, then English again.
 */
import type { Page } from 'playwright-core';
import { browserFixture } from './fixture.js';
import { describeWithBrowser, outputFile, postRoom, waitReady } from './helpers.js';

const describeBrowser = describeWithBrowser();

describeBrowser('languages in Chromium', () => {
  const fixture = browserFixture();
  const errors = fixture.errors;
  const newPage = (locale = 'en-US') => fixture.newPage({ locale });

  const html = (page: Page): Promise<{ lang: string; dir: string }> => page.evaluate(() => ({ lang: document.documentElement.lang, dir: document.dir }));

  /** Choose a language in the header and wait for the page to come back in it. */
  async function choose(page: Page, lang: string): Promise<void> {
    await Promise.all([page.waitForEvent('load'), page.selectOption('#language', lang)]);
    await page.waitForFunction((l) => document.documentElement.lang === l, lang);
  }

  test('a French browser gets the page in French', async () => {
    const page = await newPage('fr-FR');
    await page.goto(`${fixture.url}/`);
    await page.waitForSelector('#create');
    expect(await html(page)).toEqual({ lang: 'fr', dir: 'ltr' });
    expect(await page.textContent('#create')).toBe('Créer la partie');
    expect(await page.inputValue('#language')).toBe('fr');
    expect(errors).toEqual([]);
  });

  test('the header switches the game page to Arabic (right to left, the board left to right), then French, then English', async () => {
    const { code } = await postRoom(fixture.url);
    const page = await newPage();
    await page.goto(`${fixture.url}/g/${code}`);
    await waitReady(page);
    expect(await html(page)).toEqual({ lang: 'en', dir: 'ltr' });
    expect(await page.textContent('#take-seat')).toBe('Take a free seat');
    const options = await page.locator('#language option').allTextContents();
    expect(options).toEqual(['English', 'Français', 'Español', 'Русский', '한국어', 'العربية']);

    await choose(page, 'ar');
    await waitReady(page);
    expect(await html(page)).toEqual({ lang: 'ar', dir: 'rtl' });
    expect(await page.textContent('#take-seat')).toBe('اجلس في مقعد شاغر');
    expect(await page.textContent('header.top h1')).toBe(`المباراة ${code}`);
    // The page is mirrored: the brand on the right of the header, the navigation on its left.
    const brand = await page.locator('header.top .brand').boundingBox();
    const nav = await page.locator('header.top nav').boundingBox();
    expect(brand && nav && brand.x > nav.x).toBe(true);
    // The board and its coordinates are not.
    const board = await page.evaluate(() => {
      const wrap = document.querySelector('.board-wrap') as HTMLElement;
      return { dir: wrap.getAttribute('dir'), direction: getComputedStyle(wrap).direction, canvas: !!wrap.querySelector('canvas') };
    });
    expect(board).toEqual({ dir: 'ltr', direction: 'ltr', canvas: true });
    // This viewer watches under the server's default name, shown in Arabic.
    await page.waitForFunction(() => /المشاهد \d+/.test(document.querySelector('#spectator-list')?.textContent ?? ''));
    await page.screenshot({ path: outputFile('i18n-game-ar.png') });
    expect(await page.evaluate(() => localStorage.getItem('djambi:lang'))).toBe('ar');

    await choose(page, 'fr');
    await waitReady(page);
    expect(await html(page)).toEqual({ lang: 'fr', dir: 'ltr' });
    expect(await page.textContent('#take-seat')).toBe('Prendre une place libre');
    // The choice is remembered on the other pages.
    await page.goto(`${fixture.url}/rules`);
    await page.waitForSelector('main.rules h1');
    expect(await page.textContent('main.rules h1')).toBe('Comment jouer au Djambi');
    expect(await page.locator('main.rules h3', { hasText: 'Nécromobile' }).count()).toBe(1);

    await page.goto(`${fixture.url}/g/${code}`);
    await waitReady(page);
    await choose(page, 'en');
    await waitReady(page);
    expect(await html(page)).toEqual({ lang: 'en', dir: 'ltr' });
    expect(await page.textContent('#take-seat')).toBe('Take a free seat');
    expect(errors).toEqual([]);
  });
});
