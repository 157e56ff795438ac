/** Channels: history and unread counts (as after a reconnect), rejections with codes that change nothing, rate limits, text. */
import { initialPosition, MAX_PRESS_PAYLOAD_BYTES, resign } from '@djambi/shared';
import { MAX_MESSAGE_CHARS, Press, RateLimiter, cleanText, parseChannelId, parsePressOptions } from '../../server/src/press/index.js';
import { Inbox, act, counterIds, fingerprint, ok, refused } from './helpers.js';

const ALL = ['R', 'B', 'Y', 'G', 'spec'];

function game() {
  const press = new Press({ seats: ['R', 'B', 'Y', 'G'], newId: counterIds() });
  const inbox = new Inbox();
  press.addSpectator('spec', 'Sam');
  press.start(initialPosition());
  return { press, inbox };
}

describe('history and unread counts', () => {
  test('a member who comes back gets exactly its channels, messages and unread counts', () => {
    const { press, inbox } = game();
    let t = 0;
    ok(press, inbox, 'R', 'press_open', { members: ['B'] }, (t += 2000));
    ok(press, inbox, 'B', 'press_open', { members: ['R', 'Y'] }, (t += 2000));
    for (let i = 1; i <= 3; i++) ok(press, inbox, 'R', 'press_send', { channel: 'dm:RB', text: `r${i}` }, (t += 2000));
    ok(press, inbox, 'B', 'press_send', { channel: 'dm:RB', text: 'b1' }, (t += 2000));
    ok(press, inbox, 'Y', 'press_send', { channel: 'group:RBY', text: 'y1' }, (t += 2000));
    ok(press, inbox, 'G', 'press_send', { channel: 'table', text: 'g1' }, (t += 2000));
    ok(press, inbox, 'spec', 'press_send', { channel: 'spectators', text: 's1' }, (t += 2000));

    // B read the first two of R's messages; then "reconnects".
    const read = ok(press, inbox, 'B', 'press_read', { channel: 'dm:RB', upTo: 2 }, t);
    expect(read).toEqual([{ to: ['B'], type: 'press_unread', payload: { channel: 'dm:RB', readUpTo: 2, unread: 1 } }]);
    const h = press.historyFor('B');
    expect(h.role).toBe('player');
    expect(h.channels.map((c) => [c.id, c.messages.map((m) => m.text), c.readUpTo, c.unread])).toEqual([
      ['table', ['g1'], 0, 1],
      ['dm:RB', ['r1', 'r2', 'r3', 'b1'], 2, 1], // own message b1 is never unread
      ['group:RBY', ['y1'], 0, 1],
    ]);
    expect(h.channels[1].messages.map((m) => m.id)).toEqual([1, 2, 3, 4]);
    // Marks only move forward; past the end clamps to the last message.
    expect(refused(press, inbox, 'B', 'press_read', { channel: 'dm:RB', upTo: -1 }, t)).toBe('bad_payload');
    ok(press, inbox, 'B', 'press_read', { channel: 'dm:RB', upTo: 1 }, t);
    expect(press.channels.unreadCount('B', 'dm:RB')).toBe(1);
    ok(press, inbox, 'B', 'press_read', { channel: 'dm:RB', upTo: 99 }, t);
    expect(press.historyFor('B').channels[1]).toMatchObject({ readUpTo: 4, unread: 0 });
    // Another member's state is its own.
    expect(press.historyFor('R').channels.find((c) => c.id === 'dm:RB')).toMatchObject({ readUpTo: 0, unread: 1 });
    // The spectator: table and spectators only, its name on its messages.
    const s = press.historyFor('spec');
    expect(s.role).toBe('spectator');
    expect(s.channels.map((c) => [c.id, c.unread])).toEqual([
      ['table', 1],
      ['spectators', 0],
    ]);
    expect(s.channels[1].messages[0]).toMatchObject({ from: 'spec', name: 'Sam', text: 's1', ply: 0 });
  });

  test('messages are stamped with the ply; eliminated players keep reading, write on table and spectators only', () => {
    const { press, inbox } = game();
    ok(press, inbox, 'R', 'press_open', { members: ['G'] }, 0);
    ok(press, inbox, 'G', 'press_send', { channel: 'dm:RG', text: 'before' }, 0);
    ok(press, inbox, 'spec', 'press_send', { channel: 'spectators', text: 'spectator talk' }, 0);
    const before = initialPosition();
    const r = resign(before, 'G');
    if (!r.ok) throw new Error(r.error.message);
    inbox.take(press.afterResign(r.value.position, 5));
    // G is told its new history at once: it now reads the spectators channel, history included.
    const told = inbox.of('G').filter((m) => m.type === 'press_history');
    expect(told).toHaveLength(1);
    expect(JSON.stringify(told[0].payload)).toContain('spectator talk');
    expect(press.historyFor('G').channels.map((c) => c.id)).toEqual(['table', 'spectators', 'dm:RG']);
    expect(refused(press, inbox, 'G', 'press_send', { channel: 'dm:RG', text: 'after' }, 10)).toBe('not_active');
    expect(refused(press, inbox, 'G', 'press_open', { members: ['B'] }, 10)).toBe('not_active');
    expect(refused(press, inbox, 'R', 'press_open', { members: ['G', 'B'] }, 10)).toBe('not_active');
    ok(press, inbox, 'G', 'press_send', { channel: 'table', text: 'gg' }, 10);
    const d = ok(press, inbox, 'G', 'press_send', { channel: 'spectators', text: 'hello spectators' }, 10);
    expect(d[0].to).toEqual(['G', 'spec']);
    // R can still write to G (G reads it).
    ok(press, inbox, 'R', 'press_send', { channel: 'dm:RG', text: 'sorry' }, 10);
    expect(press.historyFor('G').channels[2].messages.map((m) => m.text)).toEqual(['before', 'sorry']);
  });

  test('before the start: table and spectators only; after the game, private channels are closed', () => {
    const press = new Press({ seats: ['R', 'Y'], newId: counterIds() });
    const inbox = new Inbox();
    press.addSpectator('spec');
    ok(press, inbox, 'R', 'press_send', { channel: 'table', text: 'ready?' }, 0);
    ok(press, inbox, 'spec', 'press_send', { channel: 'spectators', text: 'hi' }, 0);
    expect(refused(press, inbox, 'R', 'press_send', { channel: 'spectators', text: 'x' }, 0)).toBe('not_allowed');
    expect(refused(press, inbox, 'R', 'press_open', { members: ['Y'] }, 0)).toBe('game_not_started');
    expect(refused(press, inbox, 'R', 'press_send', { channel: 'dm:RY', text: 'x' }, 0)).toBe('game_not_started');
    expect(refused(press, inbox, 'R', 'pact_propose', { with: ['Y'] }, 0)).toBe('game_not_started');
    expect(refused(press, inbox, 'R', 'press_open', { members: ['B'] }, 0)).toBe('bad_members'); // no Blue seat in a 2-player game
    press.start(initialPosition({ ...initialPosition().rules, players: 2 }));
    ok(press, inbox, 'R', 'press_open', { members: ['Y'] }, 0);
    inbox.take(press.endGame(1));
    expect(refused(press, inbox, 'R', 'press_send', { channel: 'dm:RY', text: 'x' }, 5000)).toBe('game_over');
    ok(press, inbox, 'R', 'press_send', { channel: 'table', text: 'gg' }, 5000);
    ok(press, inbox, 'R', 'press_send', { channel: 'spectators', text: 'now I can' }, 5000); // revealed after the game
  });
});

describe('rejections: codes, and nothing changes', () => {
  const cases: [string, string, string, unknown, string][] = [
    ['not an object', 'R', 'press_send', 'hello', 'bad_payload'],
    ['an array', 'R', 'press_send', ['table', 'hi'], 'bad_payload'],
    ['an extra field', 'R', 'press_send', { channel: 'table', text: 'hi', html: '<b>' }, 'bad_payload'],
    ['text missing', 'R', 'press_send', { channel: 'table' }, 'bad_payload'],
    ['text not a string', 'R', 'press_send', { channel: 'table', text: 42 }, 'bad_payload'],
    ['channel not a string', 'R', 'press_send', { channel: 7, text: 'hi' }, 'bad_payload'],
    ['channel too long', 'R', 'press_send', { channel: 'x'.repeat(100), text: 'hi' }, 'bad_payload'],
    ['empty', 'R', 'press_send', { channel: 'table', text: '' }, 'empty_message'],
    ['blank', 'R', 'press_send', { channel: 'table', text: ' \n\t \u200B ' }, 'empty_message'],
    ['501 characters', 'R', 'press_send', { channel: 'table', text: 'x'.repeat(501) }, 'message_too_long'],
    ['2001 UTF-16 units', 'R', 'press_send', { channel: 'table', text: 'x'.repeat(2001) }, 'message_too_long'],
    ['as long as a payload may be', 'R', 'press_send', { channel: 'table', text: 'x'.repeat(MAX_PRESS_PAYLOAD_BYTES) }, 'message_too_long'],
    ['longer than a payload may be', 'R', 'press_send', { channel: 'table', text: 'x'.repeat(1_000_000) }, 'bad_payload'],
    ['a control character', 'R', 'press_send', { channel: 'table', text: 'bell\u0007' }, 'bad_text'],
    ['a bidi override', 'R', 'press_send', { channel: 'table', text: 'abc\u202Edef' }, 'bad_text'],
    ['a lone surrogate', 'R', 'press_send', { channel: 'table', text: 'a\uD800b' }, 'bad_text'],
    ['an unknown channel', 'R', 'press_send', { channel: 'general', text: 'hi' }, 'no_such_channel'],
    ['a non-canonical id', 'R', 'press_send', { channel: 'dm:BR', text: 'hi' }, 'no_such_channel'],
    ['a channel not opened', 'R', 'press_send', { channel: 'dm:RB', text: 'hi' }, 'no_such_channel'],
    ['a non-member', 'G', 'press_send', { channel: 'group:RBY', text: 'hi' }, 'not_member'],
    ['a spectator on table', 'spec', 'press_send', { channel: 'table', text: 'hi' }, 'not_allowed'],
    ['a spectator in a private channel', 'spec', 'press_send', { channel: 'group:RBY', text: 'hi' }, 'not_member'],
    ['an unknown member', 'nobody', 'press_send', { channel: 'table', text: 'hi' }, 'unknown_member'],
    ['open alone', 'R', 'press_open', { members: ['R'] }, 'bad_members'],
    ['open with a stranger', 'R', 'press_open', { members: ['X'] }, 'bad_members'],
    ['open as a spectator', 'spec', 'press_open', { members: ['R', 'B'] }, 'not_seated'],
    ['open with junk', 'R', 'press_open', { members: 'B' }, 'bad_payload'],
    ['read a non-member channel', 'G', 'press_read', { channel: 'group:RBY', upTo: 1 }, 'not_member'],
    ['read with junk', 'R', 'press_read', { channel: 'table', upTo: 1.5 }, 'bad_payload'],
    ['an unknown message type', 'R', 'press_shout', { text: 'hi' }, 'unknown_message'],
  ];
  test.each(cases)('%s', (_name, member, type, payload, code) => {
    const { press, inbox } = game();
    ok(press, inbox, 'Y', 'press_open', { members: ['R', 'B'] }, 0);
    ok(press, inbox, 'Y', 'press_send', { channel: 'group:RBY', text: 'hi' }, 0);
    inbox.clear();
    const before = fingerprint(press, ALL);
    const r = act(press, inbox, member, type, payload, 0);
    expect(r.ok ? 'accepted' : r.error.code).toBe(code);
    expect(fingerprint(press, ALL)).toBe(before);
    expect(inbox.byMember.size).toBe(0);
    // No token was spent: the member still has its full burst left (a second later, to be fair to the setup's sends).
    if (member === 'R' || member === 'G') {
      for (let i = 0; i < 5; i++) ok(press, inbox, member, 'press_send', { channel: 'table', text: `m${i}` }, 1);
    }
  });
});

describe('rate limit: a burst of 5, then 1 per second', () => {
  test('the 6th message in a burst is refused with the wait; one more each second', () => {
    const { press, inbox } = game();
    const send = (t: number) => act(press, inbox, 'R', 'press_send', { channel: 'table', text: 'spam' }, t);
    for (let i = 0; i < 5; i++) expect(send(1000).ok).toBe(true);
    const sixth = send(1000);
    expect(sixth).toMatchObject({ ok: false, error: { code: 'rate_limited', retryAfterMs: 1000 } });
    const before = fingerprint(press, ALL);
    expect(send(1999).ok).toBe(false);
    expect(fingerprint(press, ALL)).toBe(before);
    expect(send(2000).ok).toBe(true);
    expect(send(2500)).toMatchObject({ ok: false, error: { code: 'rate_limited', retryAfterMs: 500 } });
    expect(send(3000).ok).toBe(true);
    // Another member is not affected; after a long pause the burst is back, but no more.
    expect(act(press, inbox, 'B', 'press_send', { channel: 'table', text: 'hi' }, 3000).ok).toBe(true);
    for (let i = 0; i < 5; i++) expect(send(100_000).ok).toBe(true);
    expect(send(100_000).ok).toBe(false);
    // Opening channels and proposing pacts draw on the same bucket.
    expect(refused(press, inbox, 'R', 'press_open', { members: ['B'] }, 100_000)).toBe('rate_limited');
    expect(refused(press, inbox, 'R', 'pact_propose', { with: ['B'] }, 100_000)).toBe('rate_limited');
    expect(press.historyFor('R').channels.map((c) => c.id)).toEqual(['table']);
  });

  test('the token bucket itself: time going backwards earns nothing', () => {
    const rl = new RateLimiter();
    for (let i = 0; i < 5; i++) {
      expect(rl.wait('R', 10_000)).toBe(0);
      rl.take('R', 10_000);
    }
    expect(rl.wait('R', 5_000)).toBe(1000);
    expect(rl.wait('R', 10_250)).toBe(750);
    expect(rl.wait('R', Number.NaN)).toBe(1000);
  });
});

describe('text', () => {
  test.each([
    ['  hello  ', 'hello'],
    ['<b>bold</b> & <script>', '<b>bold</b> & <script>'], // kept as text, never interpreted
    ['a\r\nb\rc', 'a\nb\nc'],
    ['tab\there', 'tab here'],
    ['a\n\n\n\n\nb', 'a\n\nb'],
    ['e\u0301', '\u00E9'], // NFC
    ['😀'.repeat(MAX_MESSAGE_CHARS), '😀'.repeat(MAX_MESSAGE_CHARS)], // 500 code points, 1000 UTF-16 units
  ])('%j → %j', (raw, text) => {
    expect(cleanText(raw)).toEqual({ ok: true, text });
  });

  test('limits count characters after trimming', () => {
    expect(cleanText(`  ${'x'.repeat(500)}  `).ok).toBe(true);
    expect(cleanText('😀'.repeat(501))).toMatchObject({ ok: false, error: { code: 'message_too_long' } });
  });

  test('channel ids are canonical; room options are checked', () => {
    expect(parseChannelId('group:RBG', ['R', 'B', 'Y', 'G'])).toEqual({ kind: 'group', members: ['R', 'B', 'G'] });
    expect(parseChannelId('group:RB', ['R', 'B', 'Y', 'G'])).toBeNull();
    expect(parseChannelId('dm:RR', ['R', 'B', 'Y', 'G'])).toBeNull();
    expect(parsePressOptions({})).toEqual({ ok: true, value: { press_visibility: 'hidden', reveal_press_after_game: true } });
    expect(parsePressOptions({ press_visibility: 'existence', reveal_press_after_game: false, rules: {} })).toEqual({
      ok: true,
      value: { press_visibility: 'existence', reveal_press_after_game: false },
    });
    expect(parsePressOptions({ press_visibility: 'public' }).ok).toBe(false);
    expect(parsePressOptions({ reveal_press_after_game: 'yes' }).ok).toBe(false);
  });
});
