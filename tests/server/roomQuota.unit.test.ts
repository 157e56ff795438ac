/** The quota's arithmetic: every live room holds a ticket (`games/quota.ts`). */
import { CreatorGrant, creatorOf, creatorOption, QuotaTicket, RoomQuota } from '../../server/src/games/quota.js';

const ticket = (t: ReturnType<RoomQuota['take']>): QuotaTicket => {
  if (!(t instanceof QuotaTicket)) throw new Error(`refused: ${t.code}`);
  return t;
};
const code = (t: ReturnType<RoomQuota['take']>): string => (t instanceof QuotaTicket ? 'ok' : t.code);

test('maxRooms caps every room; the share and the per-address cap only rooms nobody sat at', () => {
  const q = new RoomQuota({ maxRooms: 4, unseatedShare: 0.5, unseatedPerAddress: 1, unseatedWithBots: 10 });
  const a = ticket(q.take(false, 'A'));
  expect(code(q.take(false, 'A'))).toBe('too_many_rooms');
  ticket(q.take(false, 'B'));
  expect(code(q.take(false, 'C'))).toBe('server_full'); // the share: 2 of 4
  ticket(q.take(true, null)); // a re-opened game people sat at
  a.seat();
  expect(q.counts).toEqual({ rooms: 3, unseated: 1, unseatedWithBots: 0 });
  ticket(q.take(false, 'A')); // A's room was sat at: A may make another
  expect(code(q.take(true, null))).toBe('server_full'); // 4 of 4
  a.release();
  a.release(); // once
  expect(q.counts).toEqual({ rooms: 3, unseated: 2, unseatedWithBots: 0 });
});

test('exempt addresses have no per-address cap; server code names no creator', () => {
  const q = new RoomQuota({ maxRooms: 100, unseatedShare: 1, unseatedPerAddress: 1, unseatedWithBots: 10 }, new Set(['127.0.0.1']));
  for (let i = 0; i < 5; i++) ticket(q.take(false, '127.0.0.1'));
  for (let i = 0; i < 5; i++) ticket(q.take(false, null));
  expect(q.counts.unseated).toBe(10);
});

test('a creator grant is an object only server code makes', () => {
  expect(creatorOf(creatorOption('203.0.113.9'))).toBe('203.0.113.9');
  expect(creatorOf({ creator: { address: '203.0.113.9' } })).toBeNull();
  expect(creatorOf({ creator: '203.0.113.9' })).toBeNull();
  expect(creatorOf(null)).toBeNull();
  expect(new CreatorGrant('x').address).toBe('x');
});

test('rooms of computer players nobody sat at have a cap of their own (the one bot worker plays them all)', () => {
  const q = new RoomQuota({ maxRooms: 100, unseatedShare: 1, unseatedPerAddress: 10, unseatedWithBots: 2 });
  const a = ticket(q.take(false, 'A', true));
  ticket(q.take(false, 'B', true));
  expect(code(q.take(false, 'C', true))).toBe('server_full');
  ticket(q.take(false, 'C')); // without bots
  ticket(q.take(true, null, true)); // a re-opened game people sat at
  a.seat();
  expect(q.counts.unseatedWithBots).toBe(1);
  ticket(q.take(false, 'C', true));
});
