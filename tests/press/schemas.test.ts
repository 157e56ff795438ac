/**
 * The press checks every client payload with the shared schemas (`PRESS_CLIENT_SCHEMAS`) before
 * any rule: a bad shape is `bad_payload` with the path of the bad field and a readable message,
 * changes nothing and spends no token; a well-shaped payload goes on to the press's own codes.
 */
import {
  check,
  initialPosition,
  MAX_PACT_ROUNDS,
  MAX_PRESS_ID_CHARS,
  MAX_PRESS_PAYLOAD_BYTES,
  PRESS_CLIENT_MESSAGES,
  PRESS_CLIENT_SCHEMAS,
} from '@djambi/shared';
import { Press } from '../../server/src/press/index.js';
import { MAX_PACT_ROUNDS as SERVER_MAX_PACT_ROUNDS } from '../../server/src/press/pacts.js';
import { MAX_ID_CHARS } from '../../server/src/press/text.js';
import { act, counterIds, fingerprint, Inbox, ok } from './helpers.js';

const ALL = ['R', 'B', 'Y', 'G', 'spec'];

function game() {
  const press = new Press({ seats: ['R', 'B', 'Y', 'G'], newId: counterIds() });
  const inbox = new Inbox();
  press.addSpectator('spec', 'Sam');
  press.start(initialPosition());
  return { press, inbox };
}

test('the server reads its bounds from the shared protocol', () => {
  expect(MAX_ID_CHARS).toBe(MAX_PRESS_ID_CHARS);
  expect(SERVER_MAX_PACT_ROUNDS).toBe(MAX_PACT_ROUNDS);
  expect(Object.keys(PRESS_CLIENT_SCHEMAS).sort()).toEqual([...PRESS_CLIENT_MESSAGES].sort());
});

const long = 'x'.repeat(MAX_PRESS_ID_CHARS + 1);
const cases: [string, unknown, string | undefined, RegExp][] = [
  ['press_send', 'hello', undefined, /must be an object/],
  ['press_send', { channel: 'table' }, 'text', /"text" is missing/],
  ['press_send', { channel: 'table', text: 42 }, 'text', /"text" must be a string/],
  ['press_send', { channel: 'table', text: 'x'.repeat(MAX_PRESS_PAYLOAD_BYTES + 1) }, 'text', /at most 8192 UTF-16 units/],
  ['press_send', { channel: long, text: 'hi' }, 'channel', /"channel" must be a channel id/],
  ['press_send', { channel: '', text: 'hi' }, 'channel', /"channel" must be a channel id/],
  ['press_send', { channel: 'table', text: 'hi', html: '<b>' }, 'html', /unexpected field "html"/],
  ['press_open', { members: [] }, 'members', /1 to 6 seat colours/],
  ['press_open', { members: ['B', 7] }, 'members.1', /1 to 6 seat colours/],
  ['press_open', { members: ['B', 'Y', 'G', 'R', 'B', 'P', 'W'] }, 'members', /1 to 6 seat colours/],
  ['press_read', { channel: 'table', upTo: -1 }, 'upTo', /integer from 0/],
  ['press_read', { channel: 'table' }, 'upTo', /is missing/],
  ['press_page', { channel: 'table', before: 0 }, 'before', /integer from 1/],
  ['press_page', { channel: 'table', before: 5, limit: 101 }, 'limit', /from 1 to 100/],
  ['pact_propose', { with: ['B'], rounds: MAX_PACT_ROUNDS + 1 }, 'rounds', /from 1 to 1000, or null/],
  ['pact_propose', { with: ['B'], rounds: 2.5 }, 'rounds', /from 1 to 1000/],
  ['pact_propose', { with: ['B'], announce: 1 }, 'announce', /true or false/],
  ['pact_propose', { with: 'B' }, 'with', /1 to 6 seat colours/],
  ['pact_accept', { pact: 42 }, 'pact', /"pact" must be a pact id/],
  ['pact_leave', { pact: long }, 'pact', /"pact" must be a pact id/],
  ['draw_offer', { now: true }, 'now', /unexpected field "now"/],
  ['draw_accept', { offer: 0 }, 'offer', /offer id/],
  ['draw_decline', [1], undefined, /must be an object/],
];

test.each(cases)('%s %j: bad_payload at %s, nothing changes, no token spent', (type, payload, path, message) => {
  const { press, inbox } = game();
  const before = fingerprint(press, ALL);
  const r = act(press, inbox, 'R', type, payload, 0);
  if (r.ok) throw new Error('accepted');
  expect(r.error.code).toBe('bad_payload');
  expect(r.error.path).toBe(path);
  expect(r.error.message).toMatch(message);
  // The shared schema says the same on its own (the one declaration of the shape).
  const shape = check(PRESS_CLIENT_SCHEMAS[type as keyof typeof PRESS_CLIENT_SCHEMAS], payload);
  expect(shape.ok ? null : { message: shape.error.message, path: shape.error.path }).toEqual({ message: r.error.message, path });
  expect(fingerprint(press, ALL)).toBe(before);
  expect(inbox.byMember.size).toBe(0);
  for (let i = 0; i < 5; i++) ok(press, inbox, 'R', 'press_send', { channel: 'table', text: `m${i}` }, 0);
});

test.each([
  ['an unknown channel', 'press_send', { channel: 'general', text: 'hi' }, 'no_such_channel'],
  ['a text as long as a payload may be', 'press_send', { channel: 'table', text: 'x'.repeat(MAX_PRESS_PAYLOAD_BYTES) }, 'message_too_long'],
  ['a stranger', 'press_open', { members: ['Z'] }, 'bad_members'],
  ['a pact alone', 'pact_propose', { with: ['R'] }, 'bad_members'],
  ['an unknown pact', 'pact_accept', { pact: 'nonexistent' }, 'no_such_pact'],
  ['no offer', 'draw_accept', {}, 'no_draw_offer'],
])('%s (%s) passes the schema and gets the press code', (_name, type, payload, code) => {
  const { press, inbox } = game();
  expect(check(PRESS_CLIENT_SCHEMAS[type as keyof typeof PRESS_CLIENT_SCHEMAS], payload).ok).toBe(true);
  const r = act(press, inbox, 'R', type, payload, 0);
  expect(r.ok ? 'accepted' : { code: r.error.code, path: r.error.path }).toEqual({ code, path: undefined });
});

test('the convenience methods go through the same checks', () => {
  const { press, inbox } = game();
  expect(press.send('R', { channel: 7, text: 'x' }, 0)).toMatchObject({ ok: false, error: { code: 'bad_payload', path: 'channel' } });
  expect(press.markRead('R', 'table', 1.5)).toMatchObject({ ok: false, error: { code: 'bad_payload', path: 'upTo' } });
  ok(press, inbox, 'R', 'press_send', { channel: 'table', text: 'hi' }, 0);
  expect(press.markRead('B', 'table', 1)).toMatchObject({
    ok: true,
    deliveries: [{ type: 'press_unread', payload: { channel: 'table', readUpTo: 1, unread: 0 } }],
  });
});
