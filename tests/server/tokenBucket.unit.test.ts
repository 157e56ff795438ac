/** The token bucket under every rate limit, driven by a fake clock. */
import { TokenBucket } from '../../server/src/tokenBucket.js';

/** A clock that moves only when told to. */
function fakeClock(t = 1_000_000) {
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

test('starts full; a burst, then one token per interval; a refusal spends nothing', () => {
  const clock = fakeClock();
  const b = new TokenBucket(3, 1 / 1000);
  expect([b.take(clock.now()), b.take(clock.now()), b.take(clock.now()), b.take(clock.now())]).toEqual([true, true, true, false]);
  expect(b.waitMs(clock.now())).toBe(1000);
  clock.advance(400);
  expect(b.take(clock.now())).toBe(false);
  expect(b.waitMs(clock.now())).toBe(600);
  clock.advance(600);
  expect(b.take(clock.now())).toBe(true);
  clock.advance(1_000_000);
  expect(b.isFull(clock.now())).toBe(true);
  expect(b.available(clock.now())).toBe(3);
});

test('a cost of several tokens, and the wait for them', () => {
  const clock = fakeClock();
  const b = new TokenBucket(10, 20 / 1000);
  expect(b.take(clock.now(), 8)).toBe(true);
  expect(b.take(clock.now(), 3)).toBe(false);
  expect(b.waitMs(clock.now(), 3)).toBe(50);
  expect(b.waitMs(clock.now())).toBe(0);
  clock.advance(50);
  expect(b.take(clock.now(), 3)).toBe(true);
});

test('a clock going back, or not a number, earns nothing; reading changes nothing', () => {
  const clock = fakeClock();
  const b = new TokenBucket(1, 1 / 1000);
  expect(b.take(clock.now())).toBe(true);
  clock.advance(-5000);
  expect(b.waitMs(clock.now())).toBe(1000);
  clock.advance(5250);
  expect(b.waitMs(clock.now())).toBe(750);
  expect(b.waitMs(Number.NaN)).toBe(1000);
  expect(b.take(Number.POSITIVE_INFINITY)).toBe(false);
  clock.advance(749.999999999);
  expect(b.waitMs(clock.now())).toBe(1); // never 0 while a token is missing
  clock.advance(1);
  expect(b.take(clock.now())).toBe(true);
});
