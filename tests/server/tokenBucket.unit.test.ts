/** The token bucket under every rate limit, driven by a fake clock. */
import { TokenBucket } from '../../server/src/tokenBucket.js';

/** A clock that moves only when told to. */
function fakeClock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms), set: (ms: number) => (t = ms) };
}

test('starts full; a burst, then one token per interval; a refusal spends nothing', () => {
  const clock = fakeClock();
  const b = new TokenBucket(3, 1 / 1000);
  expect([b.take(clock.now()), b.take(clock.now()), b.take(clock.now())]).toEqual([true, true, true]);
  expect(b.take(clock.now())).toBe(false);
  expect(b.waitMs(clock.now())).toBe(1000);
  clock.advance(400);
  expect(b.waitMs(clock.now())).toBe(600);
  expect(b.take(clock.now())).toBe(false);
  clock.advance(600);
  expect(b.waitMs(clock.now())).toBe(0);
  expect(b.take(clock.now())).toBe(true);
});

test('a cost of several tokens, and the wait for them', () => {
  const clock = fakeClock();
  const b = new TokenBucket(10, 20 / 1000);
  expect(b.take(clock.now(), 8)).toBe(true);
  expect(b.take(clock.now(), 3)).toBe(false);
  expect(b.available(clock.now())).toBe(2);
  expect(b.waitMs(clock.now(), 3)).toBe(50);
  expect(b.waitMs(clock.now())).toBe(0);
  clock.advance(50);
  expect(b.take(clock.now(), 3)).toBe(true);
});

test('never above capacity; full again after a long calm', () => {
  const clock = fakeClock();
  const b = new TokenBucket(2, 1 / 100);
  b.take(clock.now());
  expect(b.isFull(clock.now())).toBe(false);
  clock.advance(1_000_000);
  expect(b.available(clock.now())).toBe(2);
  expect(b.isFull(clock.now())).toBe(true);
});

test('a clock going back, or not a number, earns nothing', () => {
  const clock = fakeClock();
  const b = new TokenBucket(1, 1 / 1000);
  expect(b.take(clock.now())).toBe(true);
  clock.advance(-5000);
  expect(b.waitMs(clock.now())).toBe(1000);
  clock.advance(5999);
  expect(b.waitMs(clock.now())).toBe(1);
  expect(b.take(Number.NaN)).toBe(false);
  expect(b.take(Number.POSITIVE_INFINITY)).toBe(false);
  expect(b.take(clock.now() - 1)).toBe(false);
  clock.advance(1);
  expect(b.take(clock.now())).toBe(true);
});

test('a wait is never 0 while a token is missing, however little', () => {
  const b = new TokenBucket(1, 1 / 3);
  b.take(0);
  expect(b.waitMs(2.999999999)).toBe(1);
  expect(b.waitMs(3)).toBe(0);
});

test('reading the bucket changes nothing', () => {
  const b = new TokenBucket(1, 1 / 1000);
  b.take(10_000);
  expect(b.waitMs(10_250)).toBe(750);
  expect(b.waitMs(Number.NaN)).toBe(1000);
  expect(b.available(10_500)).toBe(0.5);
  expect(b.available(10_000)).toBe(0);
});
