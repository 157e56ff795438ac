/** The room's limit modules without a server: message budget, admission. */
import { Admission, colyseusCap, DEFAULT_ADMISSION } from '../../server/src/rooms/admission.js';
import { DEFAULT_BUDGET, frameCost, MessageBudget } from '../../server/src/rooms/admission.js';
import { stripInvisible } from '../../server/src/rooms/validate.js';

describe('message budget', () => {
  test('a burst, then the refill rate; a flood runs out of strikes and closes', () => {
    const b = new MessageBudget(DEFAULT_BUDGET);
    for (let i = 0; i < DEFAULT_BUDGET.burst; i++) expect(b.take(0)).toBe('ok');
    expect(b.take(0)).toBe('limited');
    expect(b.retryAfterMs()).toBeGreaterThan(0);
    expect(b.take(1000)).toBe('ok'); // 20 earned in a second
    let verdict = 'ok';
    let n = 0;
    while (verdict !== 'close' && n < 10_000) {
      verdict = b.take(1000);
      n++;
    }
    expect(verdict).toBe('close');
    expect(n).toBeLessThanOrEqual(DEFAULT_BUDGET.burst + DEFAULT_BUDGET.strikes);
  });

  test('calm forgives strikes; a clock going back earns nothing', () => {
    const b = new MessageBudget({ burst: 1, perSecond: 1, strikes: 3, strikesPerSecond: 1 });
    expect(b.take(0)).toBe('ok');
    expect(b.take(0)).toBe('limited');
    expect(b.take(0)).toBe('limited');
    expect(b.take(-5000)).toBe('close');
    const c = new MessageBudget({ burst: 1, perSecond: 1, strikes: 3, strikesPerSecond: 1 });
    c.take(0);
    c.take(0);
    c.take(0);
    expect(c.take(10_000)).toBe('ok');
    expect(c.take(10_000)).toBe('limited');
    expect(c.take(10_000)).toBe('limited');
  });

  test('big frames cost more', () => {
    expect(frameCost(10)).toBe(1);
    expect(frameCost(2048)).toBe(1);
    expect(frameCost(2049)).toBe(2);
    expect(frameCost(16 * 1024)).toBe(8);
  });
});

describe('admission', () => {
  const always = () => true;
  test('seat key holders always get in, spectators are capped apart, counted once connected', () => {
    const a = new Admission({ ...DEFAULT_ADMISSION, spectators: 3, spectatorsPerAddress: 2, pending: 10, pendingPerAddress: 10 });
    a.joined('s1', '1.1.1.1');
    a.joined('s2', '2.2.2.2');
    a.reserved('p1', { kind: 'spectate' }, '3.3.3.3');
    // A reservation whose socket has not opened holds no spectator's place.
    expect(a.check({ kind: 'spectate' }, '4.4.4.4', always)).toBeNull();
    a.reserved('p2', { kind: 'spectate' }, '4.4.4.4');
    expect(a.joined('p1', '3.3.3.3')).toBeNull();
    expect(a.check({ kind: 'spectate' }, '4.4.4.4', always)?.code).toBe('spectators_full');
    // The room filled up while p2 was on its way: refused when its socket opens.
    expect(a.joined('p2', '4.4.4.4')?.code).toBe('spectators_full');
    expect(a.check({ kind: 'reclaim', seat: 'R' }, '4.4.4.4', always)).toBeNull();
    expect(a.check({ kind: 'take' }, '4.4.4.4', always)).toBeNull();
    a.left('s1');
    expect(a.check({ kind: 'spectate' }, '4.4.4.4', always)).toBeNull();
  });

  test('an unused reservation counts for connectMs only; a network with no-shows may hold one (issue 43, item 4)', () => {
    let now = 1_000_000;
    const a = new Admission({ ...DEFAULT_ADMISSION, pending: 8, pendingPerAddress: 4, connectMs: 3000, noShows: 2 }, () => now);
    // Six squatters send a bare reservation every second and never open a socket.
    const squatters = ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4', '10.0.0.5', '10.0.0.6'];
    let n = 0;
    for (let second = 0; second < 30; second++) {
      for (const s of squatters) if (a.check({ kind: 'spectate' }, s, always) === null) a.reserved(`q${n++}`, { kind: 'spectate' }, s);
      now += 1000;
    }
    // Each holds one at most now: friends following the invite link get in.
    for (let i = 0; i < 2; i++) {
      expect(a.check({ kind: 'take' }, `192.0.2.${i}`, always)).toBeNull();
      a.reserved(`f${i}`, { kind: 'take' }, `192.0.2.${i}`);
    }
    expect(a.check({ kind: 'spectate' }, '198.51.100.1', always)).toBeNull();
    // A minute without no-shows: the squatters' networks are forgiven.
    now += 61_000;
    for (let i = 0; i < 4; i++) {
      expect(a.check({ kind: 'take' }, '10.0.0.1', always)).toBeNull();
      a.reserved(`again${i}`, { kind: 'take' }, '10.0.0.1');
    }
    expect(a.check({ kind: 'take' }, '10.0.0.1', always)?.code).toBe('too_many_joins');
  });

  test('pending reservations are capped per address and expire with Colyseus', () => {
    const a = new Admission({ ...DEFAULT_ADMISSION, pendingPerAddress: 2 });
    a.reserved('p1', { kind: 'take' }, '1.1.1.1');
    a.reserved('p2', { kind: 'spectate' }, '1.1.1.1');
    expect(a.check({ kind: 'take' }, '1.1.1.1', always)?.code).toBe('too_many_joins');
    expect(a.check({ kind: 'take' }, '2.2.2.2', always)).toBeNull();
    expect(a.check({ kind: 'take' }, '1.1.1.1', (sid) => sid !== 'p1')).toBeNull();
  });

  test('reclaims are capped per seat only', () => {
    const a = new Admission({ ...DEFAULT_ADMISSION, pendingPerSeat: 2 });
    a.reserved('r1', { kind: 'reclaim', seat: 'R' }, '1.1.1.1');
    a.reserved('r2', { kind: 'reclaim', seat: 'R' }, '1.1.1.1');
    expect(a.check({ kind: 'reclaim', seat: 'R' }, '9.9.9.9', always)?.code).toBe('too_many_joins');
    expect(a.check({ kind: 'reclaim', seat: 'B' }, '1.1.1.1', always)).toBeNull();
  });

  test("Colyseus's cap is above every sum admission allows", () => {
    const l = DEFAULT_ADMISSION;
    // Unused reservations live 15 s in Colyseus and count connectMs: 5 lives of `pending` at most.
    expect(colyseusCap(l, 15)).toBeGreaterThan(4 * (2 + l.pendingPerSeat) + l.spectators + 5 * l.pending);
  });
});

test('names lose bidi controls and invisible characters, keep emoji joiners', () => {
  expect(stripInvisible('a\u202eb\u200bc\u200dd\u0007e\u00adf\u2066g\ufeffh\u2028i')).toBe('abc\u200ddefgh i');
});
