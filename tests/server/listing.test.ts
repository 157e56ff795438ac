/**
 * `GET /api/rooms` on a real server keeps its sorted listing for a second: repeated requests do
 * not query the matchmaker again, a change of a room's listing shows once the server clock has
 * moved a second on, and a public room created here shows at once.
 */
import { matchMaker } from '@colyseus/core';
import type { RunningServer } from '../../server/src/app.js';
import { LISTING_TTL_MS } from '../../server/src/http/listing.js';
import { TestClock } from '../support/clock.js';
import { join, leaveAll, quietSdkWarnings, startServer } from './helpers.js';

quietSdkWarnings();

const clock = TestClock.following();
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ now: clock.now });
});
afterAll(async () => {
  await server.close();
});

const api = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);
const create = async (body: unknown): Promise<string> =>
  (await (await api('/api/rooms', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()).code;
const list = async (): Promise<{ code: string; seatsTaken: number }[]> => (await (await api('/api/rooms?limit=100')).json()).rooms;

/** Counts the matchmaker's queries of public listings (the driver's, which `matchMaker.query` calls). */
function countListingQueries(): { readonly count: number; restore(): void } {
  const spy = jest.spyOn(matchMaker.driver, 'query');
  return {
    get count() {
      return spy.mock.calls.filter(([conditions]) => (conditions as { private?: boolean }).private === false).length;
    },
    restore: () => spy.mockRestore(),
  };
}

test('repeated requests within a second query the matchmaker once; a seat taken shows a second later', async () => {
  const code = await create({ visibility: 'public' });
  const queries = countListingQueries();
  try {
    for (let i = 0; i < 20; i++) expect((await list()).map((r) => r.code)).toContain(code);
    expect(queries.count).toBe(1);

    const player = await join(server, code, { name: 'ann' });
    expect((await list()).find((r) => r.code === code)?.seatsTaken).toBe(0); // still the kept listing
    clock.advance(LISTING_TTL_MS);
    expect((await list()).find((r) => r.code === code)?.seatsTaken).toBe(1);
    expect(queries.count).toBe(2);
    await leaveAll([player]);
  } finally {
    queries.restore();
  }
});

test('a public room created in this process is listed at once; a private one never', async () => {
  await list();
  const pub = await create({ visibility: 'public' });
  const priv = await create({});
  const codes = (await list()).map((r) => r.code);
  expect(codes).toContain(pub);
  expect(codes).not.toContain(priv);
});
