/**
 * One real server and one Chromium for a `describe` block of browser tests: `browserFixture`
 * registers its own `beforeAll`/`afterAll` (the server closes first, while the pages are still
 * connected, then the pages and the browser), and `newPage` opens a page in a fresh context
 * whose page errors are collected in `errors`.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { createServer, type RunningServer, type ServerConfig } from '../../server/src/app.js';
import { CLIENT_DIST, ensureClientBuilt, launchChromium } from './helpers.js';

export interface BrowserFixture {
  /** The server's base URL (valid once `beforeAll` ran). */
  readonly url: string;
  /** Uncaught errors of every page opened with `newPage`. */
  readonly errors: string[];
  /** A page in a fresh context of the fixture's viewport; `options` adds to the context's (a `locale`, say). */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /** Closes every page opened so far (a test's pages, so they do not linger into the next tests). */
  closePages(): Promise<void>;
}

/** The server with `config` (defaults: loopback, a free port, the built client, 5 s grace) and pages of `viewport`. */
export function browserFixture(config: Partial<ServerConfig> = {}, viewport = { width: 1100, height: 760 }): BrowserFixture {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const opened: BrowserContext[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    ensureClientBuilt();
    server = await createServer({ port: 0, host: '127.0.0.1', clientDir: CLIENT_DIST, graceSeconds: 5, ...config });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await server?.close();
    await Promise.all(opened.map((c) => c.close().catch(() => undefined)));
    await browser?.close().catch(() => undefined);
  });

  return {
    get url() {
      if (!server) throw new Error('the server is not started yet (use the fixture inside a test)');
      return server.url;
    },
    errors,
    async newPage(options = {}) {
      if (!browser) throw new Error('Chromium is not started yet (use the fixture inside a test)');
      const context = await browser.newContext({ viewport, ...options });
      opened.push(context);
      const page = await context.newPage();
      page.on('pageerror', (e) => errors.push(e.message));
      return page;
    },
    async closePages() {
      await Promise.all(opened.splice(0).map((c) => c.close().catch(() => undefined)));
    },
  };
}
