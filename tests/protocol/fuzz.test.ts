/**
 * Checking never throws: every shared schema, and the server's checks built on them, on a
 * seeded fuzz of JSON-ish values (nested objects and arrays, odd keys, near-miss messages,
 * prototype tricks, typed arrays, getters that throw).
 */
import * as shared from '@djambi/shared';
import { check, PRESS_CLIENT_SCHEMAS, PRESS_SERVER_SCHEMAS, type AnySchema } from '@djambi/shared';
import { parseRoomConfig } from '../../server/src/match/config.js';
import * as validate from '../../server/src/rooms/validate.js';
import { seeded } from '../support/random.js';

const NAMED = [
  'TurnMessage',
  'EmptyMessage',
  'SwapMessage',
  'ReadyMessage',
  'NameMessage',
  'JoinOptions',
  'CreateOptions',
  'ClockOptions',
  'SeatMessage',
  'SeatLostMessage',
  'RejectedMessage',
  'RoomListing',
  'RoomListingPage',
  'CreatedRoom',
  'HttpErrorBody',
  'PressMessage',
  'PressHistory',
  'PressReveal',
  'PressPage',
  'PressPageRequest',
] as const;

const SCHEMAS: [string, AnySchema][] = [
  ...NAMED.map((name) => [name, (shared as unknown as Record<string, AnySchema>)[name]] as [string, AnySchema]),
  ...Object.entries(PRESS_SERVER_SCHEMAS).map(([k, s]) => [`server ${k}`, s] as [string, AnySchema]),
  ...Object.entries(PRESS_CLIENT_SCHEMAS).map(([k, s]) => [`client ${k}`, s] as [string, AnySchema]),
];

const KEYS = [
  'from',
  'to',
  'pass',
  'version',
  'colour',
  'name',
  'ready',
  'seatKey',
  'spectate',
  'clock',
  'rules',
  'visibility',
  'initialSeconds',
  'message',
  'channel',
  'kind',
  'type',
  'code',
  'id',
  '__proto__',
  'constructor',
  'toString',
  '',
];
const STRINGS = ['', 'e5', 'a9', 'R', 'Q', 'table', 'turn', 'x'.repeat(30), '\u202e', '\u0000', 'true'];

function value(random: () => number, depth: number): unknown {
  const r = random();
  if (depth > 3 || r < 0.3) {
    const leaves = [null, undefined, true, false, 0, -1, 1.5, Number.NaN, Infinity, 2 ** 53, STRINGS[Math.floor(random() * STRINGS.length)]];
    return leaves[Math.floor(random() * leaves.length)];
  }
  if (r < 0.5) return Array.from({ length: Math.floor(random() * 4) }, () => value(random, depth + 1));
  if (r < 0.55) return new Uint8Array([1, 2, 3]);
  const obj: Record<string, unknown> = random() < 0.1 ? Object.create(null) : {};
  const n = Math.floor(random() * 5);
  for (let i = 0; i < n; i++) obj[KEYS[Math.floor(random() * KEYS.length)]] = value(random, depth + 1);
  return obj;
}

const hostile: unknown[] = [
  Object.defineProperty({}, 'from', {
    enumerable: true,
    get() {
      throw new Error('boom');
    },
  }),
  new Proxy(
    {},
    {
      ownKeys() {
        throw new Error('boom');
      },
    },
  ),
  JSON.parse('{"__proto__": {"from": "a9"}, "to": "a8"}'),
  () => 1,
  Symbol('x'),
  10n,
  new Date(0),
  new Map([['from', 'a9']]),
];

test.each(SCHEMAS)('%s: check never throws', (_name, schema) => {
  expect(schema).toBeDefined();
  const random = seeded(1234);
  for (let i = 0; i < 300; i++) {
    const res = check(schema, value(random, 0));
    expect(typeof res.ok).toBe('boolean');
    if (!res.ok) expect(res.error.code).toBe('bad_payload');
  }
  for (const input of hostile) expect(typeof check(schema, input).ok).toBe('boolean');
});

test('the server checks never throw', () => {
  const random = seeded(99);
  const checks = [
    validate.checkTurnMessage,
    validate.checkEmpty,
    validate.checkSwap,
    validate.checkReady,
    validate.checkRename,
    (m: unknown) => validate.checkJoinOptions(m, ['rules', 'clock']),
    validate.checkAddBot,
    validate.checkRemoveBot,
    validate.checkRemoveSeat,
    validate.checkRematch,
    (m: unknown) => parseRoomConfig(m, { graceSeconds: 1, idleSeconds: 1 }),
  ];
  for (let i = 0; i < 1500; i++) {
    const input = value(random, 0);
    for (const f of checks) expect(typeof f(input).ok).toBe('boolean');
  }
  for (const input of hostile.slice(2)) for (const f of checks) expect(typeof f(input).ok).toBe('boolean');
});
