/**
 * The listing of `GET /api/rooms` (`server/src/http/listing.ts`) without a server: the query is
 * asked once per second however many pages are read, a change elsewhere shows after that second,
 * a local create or dispose shows at once, and the pages and cursors stay those of
 * docs/PROTOCOL.md ("Listing pages").
 */
import { EventEmitter } from 'node:events';
import { type ListingSource, LISTING_TTL_MS, parseCursor, RoomListings } from '../../server/src/http/listing.js';
import { TestClock } from '../support/clock.js';

/** A matchmaker listing of a public game room. */
function listing(code: string, createdAt: number, extra: Record<string, unknown> = {}): ListingSource {
  return { roomId: code, clients: 1, metadata: { code, phase: 'waiting', createdAt, seatsTaken: 0, ...extra } };
}

/** A listings source the test changes, counting its queries. */
function source(initial: ListingSource[]) {
  const rooms = [...initial];
  const query = jest.fn(async () => [...rooms]);
  return { rooms, query };
}

test('repeated pages within a second cost one query; the next second one more', async () => {
  const clock = TestClock.frozenAt();
  const src = source([listing('BBBBBB', 2), listing('AAAAAA', 1)]);
  const listings = new RoomListings({ now: clock.now, query: src.query });
  for (let i = 0; i < 50; i++) {
    const page = await listings.page(10, null);
    expect(page.rooms.map((r) => r.code)).toEqual(['AAAAAA', 'BBBBBB']);
  }
  expect(src.query).toHaveBeenCalledTimes(1);
  clock.advance(LISTING_TTL_MS - 1);
  await listings.page(10, null);
  expect(src.query).toHaveBeenCalledTimes(1);
  clock.advance(1);
  await listings.page(10, null);
  expect(src.query).toHaveBeenCalledTimes(2);
});

test('requests arriving while the query runs share it', async () => {
  const clock = TestClock.frozenAt();
  const src = source([listing('AAAAAA', 1)]);
  const listings = new RoomListings({ now: clock.now, query: src.query });
  const pages = await Promise.all(Array.from({ length: 20 }, () => listings.page(5, null)));
  expect(src.query).toHaveBeenCalledTimes(1);
  for (const p of pages) expect(p.rooms.map((r) => r.code)).toEqual(['AAAAAA']);
});

test('a room listed by another process shows within a second; a change of its listing too', async () => {
  const clock = TestClock.frozenAt();
  const src = source([listing('AAAAAA', 1)]);
  const listings = new RoomListings({ now: clock.now, query: src.query });
  expect((await listings.page(10, null)).rooms).toHaveLength(1);
  src.rooms.push(listing('CCCCCC', 3));
  src.rooms[0] = listing('AAAAAA', 1, { seatsTaken: 2 });
  clock.advance(LISTING_TTL_MS);
  const page = await listings.page(10, null);
  expect(page.rooms.map((r) => [r.code, r.seatsTaken])).toEqual([
    ['AAAAAA', 2],
    ['CCCCCC', 0],
  ]);
});

test('a public room created or disposed in this process shows at once; a private one costs no query', async () => {
  const clock = TestClock.frozenAt();
  const src = source([listing('AAAAAA', 1)]);
  const listings = new RoomListings({ now: clock.now, query: src.query });
  const handler = new EventEmitter();
  listings.watch(handler);
  await listings.page(10, null);
  src.rooms.push(listing('BBBBBB', 2));
  handler.emit('create', { listing: { private: false } });
  expect((await listings.page(10, null)).rooms.map((r) => r.code)).toEqual(['AAAAAA', 'BBBBBB']);
  expect(src.query).toHaveBeenCalledTimes(2);
  handler.emit('create', { listing: { private: true } });
  await listings.page(10, null);
  expect(src.query).toHaveBeenCalledTimes(2);
  src.rooms.shift();
  handler.emit('dispose', { listing: { private: false } });
  expect((await listings.page(10, null)).rooms.map((r) => r.code)).toEqual(['BBBBBB']);
  expect(src.query).toHaveBeenCalledTimes(3);
});

test('pages: by creation time then code, finished games and listings without metadata left out, cursors as before', async () => {
  const clock = TestClock.frozenAt();
  const src = source([
    listing('ZZZZZZ', 5),
    listing('OVER22', 2, { phase: 'over' }),
    listing('MMMMMM', 3),
    listing('KKKKKK', 3),
    { roomId: 'NOMETA', clients: 0, metadata: undefined },
    listing('AAAAAA', 1),
    listing('BBBBBB', 4, { phase: 'playing' }),
  ]);
  const listings = new RoomListings({ now: clock.now, query: src.query });
  const all = await listings.page(100, null);
  expect(all.rooms.map((r) => r.code)).toEqual(['AAAAAA', 'KKKKKK', 'MMMMMM', 'BBBBBB', 'ZZZZZZ']);
  expect(all.next).toBeNull();
  expect(all.rooms[0]).toMatchObject({ code: 'AAAAAA', clients: 1, phase: 'waiting', createdAt: 1 });

  const first = await listings.page(2, null);
  expect(first.rooms.map((r) => r.code)).toEqual(['AAAAAA', 'KKKKKK']);
  expect(first.next).toBe('3.KKKKKK');
  const second = await listings.page(2, parseCursor(first.next!));
  expect(second.rooms.map((r) => r.code)).toEqual(['MMMMMM', 'BBBBBB']);
  expect(second.next).toBe('4.BBBBBB');
  const last = await listings.page(2, parseCursor(second.next!));
  expect(last.rooms.map((r) => r.code)).toEqual(['ZZZZZZ']);
  expect(last.next).toBeNull();
  // Exactly a page's worth left: no `next`.
  expect((await listings.page(1, parseCursor('4.BBBBBB'))).next).toBeNull();
  // A cursor stays valid when its room is gone, and past the end gives an empty last page.
  expect((await listings.page(10, parseCursor('3.LLLLLL'))).rooms.map((r) => r.code)).toEqual(['MMMMMM', 'BBBBBB', 'ZZZZZZ']);
  expect(await listings.page(10, parseCursor('9.A'))).toEqual({ rooms: [], next: null });
  expect(await listings.page(10, parseCursor('0.A'))).toEqual(all);
  expect(src.query).toHaveBeenCalledTimes(1);
});

test('a failed query is not kept: the next request asks again', async () => {
  const clock = TestClock.frozenAt();
  let fail = true;
  const query = jest.fn(async () => {
    if (fail) throw new Error('redis down');
    return [listing('AAAAAA', 1)];
  });
  const listings = new RoomListings({ now: clock.now, query });
  await expect(listings.page(10, null)).rejects.toThrow('redis down');
  fail = false;
  expect((await listings.page(10, null)).rooms).toHaveLength(1);
  expect(query).toHaveBeenCalledTimes(2);
});

test('cursors: `createdAt.code`, anything else is malformed', () => {
  expect(parseCursor('17.ABC234')).toEqual({ createdAt: 17, code: 'ABC234' });
  for (const bad of ['', 'nope', '1.', '.A', '1.a', `${'1'.repeat(17)}.A`, '1.A.B']) expect(parseCursor(bad)).toBeNull();
});
