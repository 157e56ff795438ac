/**
 * The client's estimate of the server clock (`client/src/net/serverClock.ts`), without a browser:
 * NTP-style round trips (offset = server time - the round trip's midpoint), the sample with the
 * smallest round trip kept, a new probe on each connection; and the clocks a player sees with
 * the device an hour fast or an hour slow.
 */
import { readSnapshot } from '../../client/src/game/snapshot.js';
import { ServerClock, TIME_SAMPLES } from '../../client/src/net/serverClock.js';
import { clockText, remaining } from '../../client/src/ui/panels.js';

const HOUR = 3_600_000;

/**
 * A device whose clock is `skew` ms off the server's, and a network: `send` queues a `time`
 * request; `deliver(upMs, downMs)` answers the oldest one, the request taking `upMs` to reach
 * the server and the answer `downMs` to come back.
 */
interface World {
  skew: number;
  readonly clock: ServerClock;
  readonly serverNow: number;
  readonly queued: number;
  elapse(ms: number): void;
  send(): boolean;
  deliver(upMs: number, downMs: number, answer: (serverTime: number) => void): void;
}

function world(initialSkew: number): World {
  let server = Date.UTC(2026, 0, 1, 12);
  const queued: number[] = [];
  const w: World = {
    /** How far the device clock is off the server's, ms (the test may change it). */
    skew: initialSkew,
    clock: new ServerClock(() => server + w.skew),
    get serverNow() {
      return server;
    },
    elapse(ms: number) {
      server += ms;
    },
    send: () => {
      queued.push(server);
      return true;
    },
    get queued() {
      return queued.length;
    },
    /** Answers the oldest request: returns the server time it carries. */
    deliver(upMs: number, downMs: number, answer: (serverTime: number) => void): void {
      if (queued.length === 0) throw new Error('nothing sent');
      queued.shift();
      server += upMs;
      const at = server;
      server += downMs;
      answer(at);
    },
  };
  return w;
}

test('one symmetric round trip gives the offset exactly; before any sample the device clock is used', () => {
  const w = world(HOUR);
  expect(w.clock.known).toBe(false);
  expect(w.clock.now()).toBe(w.serverNow + HOUR);
  const answered = w.clock.probe(w.send);
  w.deliver(40, 40, answered);
  expect(w.clock.known).toBe(true);
  expect(w.clock.offset).toBe(-HOUR);
  expect(w.clock.now()).toBe(w.serverNow);
});

test('the sample with the smallest round trip is kept; its error is at most half its round trip', () => {
  const w = world(-HOUR);
  const answered = w.clock.probe(w.send);
  // Slow and lopsided first (error 240 ms), then quick ones: the quickest wins.
  w.deliver(500, 20, answered);
  expect(Math.abs(w.clock.now() - w.serverNow)).toBe(240);
  w.deliver(30, 10, answered);
  expect(Math.abs(w.clock.now() - w.serverNow)).toBeLessThanOrEqual(20);
  w.deliver(300, 300, answered); // slower: ignored
  expect(Math.abs(w.clock.now() - w.serverNow)).toBeLessThanOrEqual(20);
  w.deliver(5, 5, answered);
  expect(w.clock.now()).toBe(w.serverNow);
});

test('a probe sends one request at a time, TIME_SAMPLES in all, and stops when one cannot go out', () => {
  const w = world(0);
  const answered = w.clock.probe(w.send);
  for (let i = 0; i < TIME_SAMPLES; i++) {
    expect(w.queued).toBe(1);
    w.deliver(10, 10, answered);
  }
  expect(w.queued).toBe(0);
  answered(w.serverNow + 5 * HOUR); // no request outstanding: ignored
  expect(Math.abs(w.clock.offset)).toBeLessThanOrEqual(10);

  let sends = 0;
  const failing = w.clock.probe(() => {
    sends++;
    return false;
  });
  failing(w.serverNow + HOUR);
  expect(sends).toBe(1);
  expect(Math.abs(w.clock.offset)).toBeLessThanOrEqual(10);
});

test('a new probe (a reconnection) replaces the old estimate with its first answer, slow or not', () => {
  const w = world(0);
  const first = w.clock.probe(w.send);
  w.deliver(1, 1, first);
  expect(w.clock.offset).toBe(0);
  // The device clock is then set an hour back (by its user, by NTP, a resume from sleep) and the link drops.
  w.skew = -HOUR;
  const second = w.clock.probe(w.send);
  w.deliver(200, 200, second); // slower than the old sample, and yet it replaces it
  expect(w.clock.now()).toBe(w.serverNow);
});

test('nonsense samples are ignored', () => {
  const c = new ServerClock(() => 1000);
  c.sample(2000, 5000, 1000); // answered before it was sent
  c.sample(1000, Number.NaN, 1100);
  c.sample(1000, Number.POSITIVE_INFINITY, 1100);
  expect(c.known).toBe(false);
  expect(c.offset).toBe(0);
});

describe('the running clock with the device an hour off', () => {
  /** Red to move with 10:00 on its clock, its turn started 10 s ago (server time `t`). */
  const snapshotAt = (t: number) =>
    readSnapshot({
      phase: 'playing',
      clock: { enabled: true, initialMs: 600_000, incrementMs: 0, running: 'R', turnStartedAt: t - 10_000 },
      seats: { R: { colour: 'R', taken: true, clockMs: 600_000, presence: 'connected' }, Y: { colour: 'Y', taken: true, clockMs: 600_000 } },
    });

  test.each([
    ['fast', HOUR, '0:00'],
    ['slow', -HOUR, '1:09:50'],
  ])('an hour %s (%d ms): the device clock alone shows %s, the estimate 9:50', (_name, skew, wrong) => {
    const w = world(skew);
    const snap = snapshotAt(w.serverNow);
    const red = snap.seats.find((s) => s.colour === 'R')!;
    expect(clockText(remaining(snap, red, w.clock.now()))).toBe(wrong); // no sample yet: the device's clock
    const answered = w.clock.probe(w.send);
    for (let i = 0; i < TIME_SAMPLES; i++) w.deliver(25 + i * 10, 25 + i * 10, answered);
    // Four round trips later (at most a second), the clock shows the server's remaining time.
    const later = w.serverNow;
    const shown = remaining(snap, red, w.clock.now());
    expect(shown).toBe(600_000 - 10_000 - (later - (snap.clock.turnStartedAt + 10_000)));
    expect(clockText(shown)).toBe('9:50');
  });
});
