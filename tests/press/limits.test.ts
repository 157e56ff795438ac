/**
 * Press limits without a server: rate limits keyed by something that survives a rejoin (the
 * limit key), the per-author cap, the bounded channel memory, bounded histories and reveals, and
 * `press_page` (bounds, permissions, its own rate limit).
 */
import { initialPosition, resign } from '@djambi/shared';
import {
  AUTHOR_CAP_SEATS,
  AUTHOR_CAP_SPECTATORS,
  HISTORY_MESSAGES,
  MAX_MESSAGES_PER_CHANNEL,
  MAX_PAGE_MESSAGES,
  PAGE_BURST,
  Press,
  RATE_BURST,
  RateLimiter,
  type PressMessage,
  type PressReveal,
} from '../../server/src/press/index.js';
import { Inbox, act, counterIds, fingerprint, ok, refused } from './helpers.js';

const SEATS = ['R', 'B', 'Y', 'G'] as const;

function game(reveal = true) {
  const press = new Press({ seats: [...SEATS], newId: counterIds(), reveal_press_after_game: reveal });
  const inbox = new Inbox();
  press.start(initialPosition());
  return { press, inbox };
}

/** Sends `n` messages as `member`, one every second of server time from `t`; returns the next free time. */
function post(press: Press, inbox: Inbox, member: string, channel: string, n: number, t: number, text = (i: number) => `${member} ${i}`): number {
  for (let i = 0; i < n; i++) ok(press, inbox, member, 'press_send', { channel, text: text(i) }, (t += 1000));
  return t + 1000;
}

type Page = { channel: string; before: number; messages: PressMessage[]; more: boolean };

/** A `press_page` that must be accepted: its one delivery, to the sender only. */
function page(press: Press, inbox: Inbox, member: string, payload: unknown, now: number): Page {
  const d = ok(press, inbox, member, 'press_page', payload, now);
  expect(d).toHaveLength(1);
  expect(d[0]).toMatchObject({ to: [member], type: 'press_page' });
  return d[0].payload as Page;
}

const ids = (ms: readonly { id: number }[]): number[] => ms.map((m) => m.id);
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('the limit key survives a rejoin', () => {
  test('a spectator who leaves and comes back with the same key finds its bucket empty', () => {
    const { press, inbox } = game();
    expect(press.addSpectator('s1', 'Flood', 'addr:203.0.113.9')).toBe(true);
    for (let i = 0; i < RATE_BURST; i++) ok(press, inbox, 's1', 'press_send', { channel: 'spectators', text: `x${i}` }, 10_000);
    expect(refused(press, inbox, 's1', 'press_send', { channel: 'spectators', text: 'more' }, 10_000)).toBe('rate_limited');
    // 30 rejoins, each with a new session id, from the same address: still limited.
    for (let i = 2; i <= 31; i++) {
      press.removeSpectator(`s${i - 1}`);
      expect(press.addSpectator(`s${i}`, 'Flood', 'addr:203.0.113.9')).toBe(true);
      expect(press.limitKeyOf(`s${i}`)).toBe('addr:203.0.113.9');
      const r = act(press, inbox, `s${i}`, 'press_send', { channel: 'spectators', text: 'again' }, 10_000);
      expect(r).toMatchObject({ ok: false, error: { code: 'rate_limited', retryAfterMs: 1000 } });
    }
    // Time still refills it, one token a second; another address and the seats are not affected.
    ok(press, inbox, 's31', 'press_send', { channel: 'spectators', text: 'a second later' }, 11_000);
    press.addSpectator('other', 'Legit', 'addr:198.51.100.1');
    ok(press, inbox, 'other', 'press_send', { channel: 'spectators', text: 'hello' }, 11_000);
    ok(press, inbox, 'R', 'press_send', { channel: 'table', text: 'hello' }, 11_000);
  });

  test('spectators of one address share a key; without a key (or with an invalid one) the id is the key', () => {
    const { press, inbox } = game();
    press.addSpectator('a', '', 'addr:1.2.3.4');
    press.addSpectator('b', '', 'addr:1.2.3.4');
    press.addSpectator('plain');
    for (const bad of ['', 'R', 'x'.repeat(129)]) expect(press.addSpectator(`bad${bad.length}`, '', bad)).toBe(true);
    expect(['a', 'b', 'plain', 'bad0', 'bad1', 'bad129', 'R'].map((m) => press.limitKeyOf(m))).toEqual([
      'addr:1.2.3.4',
      'addr:1.2.3.4',
      'plain',
      'bad0',
      'bad1',
      'bad129',
      'R',
    ]);
    for (let i = 0; i < 3; i++) ok(press, inbox, 'a', 'press_send', { channel: 'spectators', text: `a${i}` }, 0);
    for (let i = 0; i < 2; i++) ok(press, inbox, 'b', 'press_send', { channel: 'spectators', text: `b${i}` }, 0);
    expect(refused(press, inbox, 'b', 'press_send', { channel: 'spectators', text: 'b3' }, 0)).toBe('rate_limited');
    expect(refused(press, inbox, 'a', 'press_send', { channel: 'spectators', text: 'a3' }, 0)).toBe('rate_limited');
    // A spectator keyed "R" would drain Red's bucket: the key is refused, Red keeps its own.
    for (let i = 0; i < RATE_BURST; i++) ok(press, inbox, 'bad1', 'press_send', { channel: 'spectators', text: `r${i}` }, 0);
    for (let i = 0; i < RATE_BURST; i++) ok(press, inbox, 'R', 'press_send', { channel: 'table', text: `r${i}` }, 0);
  });

  test('removing a spectator forgets an id-keyed bucket, never an address-keyed one', () => {
    const { press, inbox } = game();
    press.addSpectator('plain');
    for (let i = 0; i < RATE_BURST; i++) ok(press, inbox, 'plain', 'press_send', { channel: 'spectators', text: `p${i}` }, 0);
    press.removeSpectator('plain');
    press.addSpectator('plain'); // the same id again (a room never does this): a fresh bucket
    ok(press, inbox, 'plain', 'press_send', { channel: 'spectators', text: 'fresh' }, 0);
    press.addSpectator('keyed', '', 'addr:9.9.9.9');
    for (let i = 0; i < RATE_BURST; i++) ok(press, inbox, 'keyed', 'press_send', { channel: 'spectators', text: `k${i}` }, 0);
    press.removeSpectator('keyed');
    press.addSpectator('keyed', '', 'addr:9.9.9.9');
    expect(refused(press, inbox, 'keyed', 'press_send', { channel: 'spectators', text: 'no' }, 0)).toBe('rate_limited');
  });

  test('pacts and draw offers count under the seat colour, through reconnections', () => {
    const { press, inbox } = game();
    expect(press.limitKeyOf('B')).toBe('B');
    for (let i = 0; i < RATE_BURST; i++) ok(press, inbox, 'B', 'press_send', { channel: 'table', text: `b${i}` }, 0);
    expect(refused(press, inbox, 'B', 'pact_propose', { with: ['R'] }, 0)).toBe('rate_limited');
    expect(refused(press, inbox, 'B', 'draw_offer', {}, 0)).toBe('rate_limited');
    expect(refused(press, inbox, 'B', 'press_open', { members: ['R'] }, 0)).toBe('rate_limited');
  });
});

describe('the rate limiter stays small', () => {
  test('full buckets are dropped past maxBuckets; a used one never is', () => {
    const rl = new RateLimiter(5, 1000, 10);
    for (let i = 0; i < 5; i++) rl.take('flood', 0);
    let most = 0;
    for (let i = 0; i < 2000; i++) {
      rl.take(`k${i}`, i * 100); // 10 new keys a second; each is full again after 1 s
      most = Math.max(most, rl.size);
    }
    expect(most).toBeLessThanOrEqual(2 * 10 + 1 + 10);
    // Forgetting a full bucket forgets nothing: a dropped key has its whole burst, as before.
    expect(rl.wait('k0', 200_000)).toBe(0);
    // A bucket in use is kept, however many keys come by.
    const rl2 = new RateLimiter(5, 1000, 10);
    for (let i = 0; i < 5; i++) rl2.take('flood', 0);
    for (let i = 0; i < 1000; i++) rl2.take(`k${i}`, 500);
    expect(rl2.wait('flood', 500)).toBe(500);
  });
});

describe('buckets follow a seat holder who moves', () => {
  test('a move carries the bucket; a swap exchanges two; a key without a bucket gives a full one', () => {
    const rl = new RateLimiter(5, 1000);
    for (let i = 0; i < 5; i++) rl.take('R', 0);
    for (let i = 0; i < 2; i++) rl.take('B', 0);
    rl.move([['R', 'Y']]);
    expect(rl.wait('Y', 0)).toBe(1000);
    expect(rl.wait('R', 0)).toBe(0);
    rl.move([
      ['Y', 'B'],
      ['B', 'Y'],
    ]);
    expect(rl.wait('B', 0)).toBe(1000);
    expect(rl.wait('Y', 0)).toBe(0);
    rl.take('Y', 0);
    rl.take('Y', 0);
    rl.take('Y', 0);
    expect(rl.wait('Y', 0)).toBe(1000); // B's old bucket had 3 tokens left
    rl.move([['G', 'Y']]);
    expect(rl.wait('Y', 0)).toBe(0);
    expect(rl.size).toBe(1);
  });
});

describe('author cap', () => {
  test(`${AUTHOR_CAP_SPECTATORS} messages per author key in the spectators channel, rejoins included (author_limit)`, () => {
    const { press, inbox } = game();
    press.addSpectator('s1', 'Flood', 'addr:203.0.113.9');
    let t = post(press, inbox, 's1', 'spectators', AUTHOR_CAP_SPECTATORS, 0);
    const members = ['R', 'B', 'Y', 'G', 's1'];
    const before = fingerprint(press, members);
    expect(act(press, inbox, 's1', 'press_send', { channel: 'spectators', text: 'one more' }, t)).toMatchObject({ ok: false, error: { code: 'author_limit' } });
    expect(fingerprint(press, members)).toBe(before);
    // The cap is checked before the rate limit (it is final), and a refusal spends no token.
    press.removeSpectator('s1');
    press.addSpectator('s2', 'Flood', 'addr:203.0.113.9');
    expect(refused(press, inbox, 's2', 'press_send', { channel: 'spectators', text: 'back again' }, t)).toBe('author_limit');
    // Others still talk: another address, an eliminated seat (counted under its colour).
    press.addSpectator('s3', 'Legit', 'addr:198.51.100.1');
    ok(press, inbox, 's3', 'press_send', { channel: 'spectators', text: 'hello' }, (t += 1000));
    const r = resign(initialPosition(), 'G');
    if (!r.ok) throw new Error(r.error.message);
    press.afterResign(r.value.position, t);
    ok(press, inbox, 'G', 'press_send', { channel: 'spectators', text: 'gg' }, (t += 1000));
    expect(press.channels.postedBy('G', 'spectators')).toBe(1);
    expect(press.channels.postedBy('addr:203.0.113.9', 'spectators')).toBe(AUTHOR_CAP_SPECTATORS);
  });

  test(`${AUTHOR_CAP_SEATS} messages per seat in table and in each private channel; four seats cannot fill a channel`, () => {
    expect(AUTHOR_CAP_SEATS * SEATS.length).toBeLessThan(MAX_MESSAGES_PER_CHANNEL);
    expect(AUTHOR_CAP_SPECTATORS).toBeLessThanOrEqual(AUTHOR_CAP_SEATS);
    const { press, inbox } = game();
    ok(press, inbox, 'R', 'press_open', { members: ['B'] }, 0);
    let t = post(press, inbox, 'R', 'table', AUTHOR_CAP_SEATS, 1000);
    expect(refused(press, inbox, 'R', 'press_send', { channel: 'table', text: 'too many' }, t)).toBe('author_limit');
    // A cap per channel: R still writes in its private channel, B on the table.
    ok(press, inbox, 'R', 'press_send', { channel: 'dm:RB', text: 'still here' }, (t += 1000));
    ok(press, inbox, 'B', 'press_send', { channel: 'table', text: 'me too' }, (t += 1000));
  });
});

describe('bounded channel memory', () => {
  test(`past ${MAX_MESSAGES_PER_CHANNEL} messages the spectators channel forgets the oldest and never refuses`, () => {
    const { press, inbox } = game();
    const authors = Math.ceil((MAX_MESSAGES_PER_CHANNEL + 200) / AUTHOR_CAP_SPECTATORS);
    press.addSpectator('reader', 'Reader', 'addr:10.0.0.0');
    let t = 0;
    for (let a = 0; a < authors; a++) {
      press.addSpectator(`s${a}`, '', `addr:10.0.0.${a + 1}`);
      for (let i = 0; i < AUTHOR_CAP_SPECTATORS; i++) {
        // Straight to the press: 10 000 deliveries to 40 members are too many for the inbox.
        const r = press.handle(`s${a}`, 'press_send', { channel: 'spectators', text: `${a}/${i}` }, (t += 1000));
        if (!r.ok) throw new Error(r.error.code);
      }
    }
    const total = authors * AUTHOR_CAP_SPECTATORS;
    expect(total).toBeGreaterThan(MAX_MESSAGES_PER_CHANNEL);
    inbox.clear();
    // Still open to a new author; ids keep counting.
    press.addSpectator('late', '', 'addr:10.1.0.1');
    const d = ok(press, inbox, 'late', 'press_send', { channel: 'spectators', text: 'still open' }, (t += 1000));
    expect((d[0].payload as { message: PressMessage }).message.id).toBe(total + 1);
    // What is kept: the latest MAX_MESSAGES_PER_CHANNEL; the history and unread counts agree.
    const h = press.historyFor('reader').channels.find((c) => c.id === 'spectators')!;
    expect(ids(h.messages)).toEqual(range(total + 2 - HISTORY_MESSAGES, total + 1));
    expect(h).toMatchObject({ more: true, readUpTo: 0, unread: MAX_MESSAGES_PER_CHANNEL });
    expect(ok(press, inbox, 'reader', 'press_read', { channel: 'spectators', upTo: total + 50 }, t)[0].payload).toEqual({
      channel: 'spectators',
      readUpTo: total + 1,
      unread: 0,
    });
    // The oldest kept message is the first page can reach.
    const firstKept = total + 2 - MAX_MESSAGES_PER_CHANNEL;
    const p = page(press, inbox, 'reader', { channel: 'spectators', before: firstKept + 10, limit: 100 }, t);
    expect(ids(p.messages)).toEqual(range(firstKept, firstKept + 9));
    expect(p.more).toBe(false);
    expect(page(press, inbox, 'reader', { channel: 'spectators', before: 5 }, (t += 1000))).toMatchObject({ messages: [], more: false });
  });
});

describe('bounded history', () => {
  test(`press_history carries the latest ${HISTORY_MESSAGES} messages per channel, with "more"; unread counts all`, () => {
    const { press, inbox } = game();
    press.addSpectator('spec');
    let t = post(press, inbox, 'R', 'table', 70, 0);
    t = post(press, inbox, 'B', 'table', 50, t);
    t = post(press, inbox, 'spec', 'spectators', 10, t);
    const h = press.historyFor('spec');
    const table = h.channels.find((c) => c.id === 'table')!;
    expect(ids(table.messages)).toEqual(range(71, 120));
    expect(table).toMatchObject({ more: true, unread: 120 });
    expect(h.channels.find((c) => c.id === 'spectators')).toMatchObject({ more: false, unread: 0 });
    expect(h.channels.find((c) => c.id === 'spectators')!.messages).toHaveLength(10);
    // Unread counts are counted on every message, not on the page: R's own 70 are not unread for R.
    expect(press.historyFor('R').channels[0]).toMatchObject({ unread: 50, more: true });
    expect(JSON.stringify(h).length).toBeLessThan(16 * 1024);
    expect(t).toBeGreaterThan(0);
  });
});

describe('press_page', () => {
  function talk() {
    const g = game();
    const { press, inbox } = g;
    press.addSpectator('spec', 'Sam', 'addr:1.1.1.1');
    ok(press, inbox, 'R', 'press_open', { members: ['B'] }, 0);
    let t = post(press, inbox, 'R', 'table', 120, 0);
    t = post(press, inbox, 'B', 'dm:RB', 120, t);
    t = post(press, inbox, 'spec', 'spectators', 80, t);
    inbox.clear();
    return { ...g, t };
  }

  test('older messages, newest page first, to the sender only; limit and more', () => {
    const { press, inbox, t } = talk();
    const p1 = page(press, inbox, 'spec', { channel: 'table', before: 71 }, t);
    expect(p1).toMatchObject({ channel: 'table', before: 71, more: true });
    expect(ids(p1.messages)).toEqual(range(21, 70));
    const p2 = page(press, inbox, 'spec', { channel: 'table', before: 21, limit: MAX_PAGE_MESSAGES }, t + 1000);
    expect(ids(p2.messages)).toEqual(range(1, 20));
    expect(p2.more).toBe(false);
    expect(page(press, inbox, 'spec', { channel: 'table', before: 1 }, t + 2000)).toMatchObject({ messages: [], more: false });
    // `before` past the end: the latest messages.
    expect(ids(page(press, inbox, 'spec', { channel: 'table', before: 10_000, limit: 3 }, t + 3000).messages)).toEqual([118, 119, 120]);
    expect(ids(page(press, inbox, 'B', { channel: 'dm:RB', before: 71, limit: 1 }, t).messages)).toEqual([70]);
    expect(ids(page(press, inbox, 'spec', { channel: 'spectators', before: 31 }, t + 4000).messages)).toEqual(range(1, 30));
    expect([...inbox.byMember.keys()].sort()).toEqual(['B', 'spec']);
  });

  const bad: [string, string, unknown, string][] = [
    ['no payload', 'spec', undefined, 'bad_payload'],
    ['before 0', 'spec', { channel: 'table', before: 0 }, 'bad_payload'],
    ['before not an integer', 'spec', { channel: 'table', before: 1.5 }, 'bad_payload'],
    ['before a string', 'spec', { channel: 'table', before: '10' }, 'bad_payload'],
    ['limit 0', 'spec', { channel: 'table', before: 10, limit: 0 }, 'bad_payload'],
    ['limit over the maximum', 'spec', { channel: 'table', before: 10, limit: MAX_PAGE_MESSAGES + 1 }, 'bad_payload'],
    ['an extra field', 'spec', { channel: 'table', before: 10, all: true }, 'bad_payload'],
    ['a long channel id', 'spec', { channel: 'x'.repeat(41), before: 10 }, 'bad_payload'],
    ['a spectator in a private channel', 'spec', { channel: 'dm:RB', before: 10 }, 'not_member'],
    ['a spectator in a private channel that does not exist', 'spec', { channel: 'dm:YG', before: 10 }, 'not_member'],
    ['a non-member seat', 'Y', { channel: 'dm:RB', before: 10 }, 'not_member'],
    ['a non-member seat, a channel that does not exist', 'Y', { channel: 'dm:RG', before: 10 }, 'not_member'],
    ['a member, a channel not opened', 'R', { channel: 'dm:RG', before: 10 }, 'no_such_channel'],
    ['an active player in the spectators channel', 'R', { channel: 'spectators', before: 10 }, 'not_allowed'],
    ['an unknown channel', 'spec', { channel: 'general', before: 10 }, 'no_such_channel'],
    ['an unknown member', 'nobody', { channel: 'table', before: 10 }, 'unknown_member'],
  ];
  test.each(bad)('refused: %s', (_name, member, payload, code) => {
    const { press, inbox, t } = talk();
    const before = fingerprint(press, ['R', 'B', 'Y', 'G', 'spec']);
    expect(refused(press, inbox, member, 'press_page', payload, t)).toBe(code);
    expect(fingerprint(press, ['R', 'B', 'Y', 'G', 'spec'])).toBe(before);
    expect(inbox.byMember.size).toBe(0);
  });

  test(`a bucket of its own: ${PAGE_BURST} at once, then one a second; refusals spend nothing`, () => {
    const { press, inbox, t } = talk();
    for (let i = 0; i < 3; i++) refused(press, inbox, 'spec', 'press_page', { channel: 'dm:RB', before: 10 }, t);
    for (let i = 0; i < PAGE_BURST; i++) page(press, inbox, 'spec', { channel: 'table', before: 100 }, t);
    expect(act(press, inbox, 'spec', 'press_page', { channel: 'table', before: 100 }, t)).toMatchObject({
      ok: false,
      error: { code: 'rate_limited', retryAfterMs: 1000 },
    });
    // Paging spends nothing of the message bucket, and the other way round.
    for (let i = 0; i < RATE_BURST; i++) ok(press, inbox, 'spec', 'press_send', { channel: 'spectators', text: `s${i}` }, t);
    page(press, inbox, 'spec', { channel: 'table', before: 100 }, t + 1000);
    // The page bucket is keyed by the limit key too: a rejoin does not refill it.
    press.removeSpectator('spec');
    press.addSpectator('spec2', 'Sam', 'addr:1.1.1.1');
    expect(refused(press, inbox, 'spec2', 'press_page', { channel: 'table', before: 100 }, t + 1000)).toBe('rate_limited');
  });

  test('an eliminated player pages its private channels and the spectators channel', () => {
    const { press, inbox, t } = talk();
    const r = resign(initialPosition(), 'B');
    if (!r.ok) throw new Error(r.error.message);
    press.afterResign(r.value.position, t);
    expect(ids(page(press, inbox, 'B', { channel: 'dm:RB', before: 3 }, t).messages)).toEqual([1, 2]);
    expect(ids(page(press, inbox, 'B', { channel: 'spectators', before: 3 }, t + 1).messages)).toEqual([1, 2]);
  });

  test('after the game: every revealed channel may be paged by everyone; unrevealed ones by their readers only', () => {
    const { press, inbox, t } = talk();
    press.endGame(t);
    expect(ids(page(press, inbox, 'spec', { channel: 'dm:RB', before: 71 }, t).messages)).toEqual(range(21, 70));
    expect(ids(page(press, inbox, 'Y', { channel: 'spectators', before: 31 }, t).messages)).toEqual(range(1, 30));
    expect(refused(press, inbox, 'spec', 'press_page', { channel: 'dm:YG', before: 5 }, t + 1000)).toBe('no_such_channel');

    const hidden = game(false);
    hidden.press.addSpectator('spec');
    ok(hidden.press, hidden.inbox, 'R', 'press_open', { members: ['B'] }, 0);
    ok(hidden.press, hidden.inbox, 'R', 'press_send', { channel: 'dm:RB', text: 'secret' }, 0);
    hidden.press.endGame(1);
    expect(refused(hidden.press, hidden.inbox, 'spec', 'press_page', { channel: 'dm:RB', before: 5 }, 2)).toBe('not_member');
    expect(refused(hidden.press, hidden.inbox, 'Y', 'press_page', { channel: 'spectators', before: 5 }, 2)).toBe('not_allowed');
    expect(ids(page(hidden.press, hidden.inbox, 'B', { channel: 'dm:RB', before: 5 }, 2).messages)).toEqual([1]);
  });
});

describe('bounded reveal', () => {
  test(`the reveal carries the latest ${HISTORY_MESSAGES} messages of each channel, marks the others, and stays in order`, () => {
    const { press, inbox } = game();
    press.addSpectator('spec');
    ok(press, inbox, 'R', 'press_open', { members: ['B'] }, 0);
    let t = 0;
    for (let i = 0; i < 120; i++) {
      ok(press, inbox, 'R', 'press_send', { channel: 'table', text: `t${i}` }, (t += 500));
      ok(press, inbox, 'B', 'press_send', { channel: 'dm:RB', text: `d${i}` }, (t += 500));
    }
    ok(press, inbox, 'spec', 'press_send', { channel: 'spectators', text: 'only one' }, t);
    inbox.clear();
    inbox.take(press.endGame(t + 1));
    const reveal = press.reveal() as PressReveal;
    expect(reveal.channels.map((c) => [c.id, c.more])).toEqual([
      ['table', true],
      ['spectators', false],
      ['dm:RB', true],
    ]);
    const messages = reveal.timeline.filter((i) => i.kind === 'message') as unknown as PressMessage[];
    expect(ids(messages.filter((m) => m.channel === 'table'))).toEqual(range(71, 120));
    expect(ids(messages.filter((m) => m.channel === 'dm:RB'))).toEqual(range(71, 120));
    expect(messages.filter((m) => m.channel === 'spectators')).toHaveLength(1);
    expect(reveal.timeline[0]).toMatchObject({ kind: 'channel', channel: 'dm:RB' });
    const ats = reveal.timeline.map((i) => i.at);
    expect(ats).toEqual([...ats].sort((a, b) => a - b));
    // Everyone got the same bounded reveal, and finds it in a later history.
    for (const m of ['R', 'B', 'Y', 'G', 'spec']) expect(inbox.of(m).map((x) => x.type)).toEqual(['press_reveal']);
    press.addSpectator('late');
    const h = press.historyFor('late');
    expect(h.reveal).toEqual(reveal);
    expect(JSON.stringify(h).length).toBeLessThan(32 * 1024);
  });
});
