/** Notation: positions, turns and records round-trip; malformed text is an error, never a throw or a hang. */
import {
  DEFAULT_RULES,
  initialPosition,
  makeFen,
  makeRecord,
  makeTurn,
  parseFen,
  parseRecord,
  parseRules,
  parseTurn,
  perft,
  recordTags,
  replayRecord,
  type Turn,
} from '@djambi/shared';
import { seeded } from '../support/random.js';

const START = 'RcRaRm3BmBaBc/RrRdRm3BmBdBr/RmRmRn3BnBmBm/9/9/9/GmGmGn3YnYmYm/GrGdGm3YmYdYr/GcGaGm3YmYaYc RBYG RBYG R n R 0 0 *';

test('perft from the standard start: 30, 1,205, 49,206', () => {
  const start = initialPosition(DEFAULT_RULES);
  expect([1, 2, 3].map((d) => perft(start, d))).toEqual([30, 1205, 49206]);
});

test('the standard start in position notation', () => {
  expect(makeFen(initialPosition(DEFAULT_RULES))).toBe(START);
  const three = parseRules({ players: 3 });
  const two = parseRules({ players: 2 });
  if (!three.ok || !two.ok) throw new Error('rules');
  expect(makeFen(initialPosition(three.value)).split(' ').slice(1, 3)).toEqual(['RBYh', 'RBY']);
  expect(makeFen(initialPosition(two.value)).split(' ').slice(1, 3)).toEqual(['RRYY', 'RY']);
});

test.each([
  ['c7-c5', { from: 'c7', to: 'c5' }],
  ['d5xd4>a5', { from: 'd5', to: 'd4', placement: 'a5' }],
  ['c3xe5^a1', { from: 'c3', to: 'e5', exit: 'a1' }],
  ['c3xe5^e8>e7', { from: 'c3', to: 'e5', exit: 'e8', placement: 'e7' }],
  ['f4-f3*g3', { from: 'f4', to: 'f3', reporterTarget: 'g3' }],
  ['pass', { pass: true }],
] as [string, Turn][])('turn %s', (text, turn) => {
  expect(parseTurn(text)).toEqual({ ok: true, value: turn });
  expect(makeTurn(turn).replace('x', '-')).toBe(text.replace('x', '-'));
});

const GARBAGE = [
  '',
  ' ',
  'x',
  'pass pass',
  'a1-a1-a1',
  'j1-a2',
  'a0-a1',
  'a1-a2>',
  'a1-a2>>b3',
  'a1-a2>b3>b4',
  'a1-a2*b3*b4',
  'e5xe5^e5>e5*e5^e5',
  '\u0000',
  'a'.repeat(100000),
  '9/9/9/9/9/9/9/9/9',
  `${START} extra`,
  START.replace('RBYG RBYG', 'RBYG RBYX'),
  START.replace('/9/9/9/', '/9/99/9/'),
  // A count of empty squares is one number: 45 is forty-five, not nine.
  START.replace('/9/9/9/', '/9/45/9/'),
  START.replace('Rc', 'Rz'),
  START.replace('Rc', 'Xc'),
  START.replace('R n R', '- n R'),
  START.replace(' 0 0 *', ' -1 0 *'),
  START.replace('*', 'win:Q'),
  START.replace('RcRa', 'RcRaRa'),
  '/'.repeat(500),
];

test.each(GARBAGE.map((g) => [g.slice(0, 30), g]))('malformed %j is an error, not a throw', (_label, text) => {
  const t0 = Date.now();
  expect(parseTurn(text).ok).toBe(false);
  expect(parseFen(text, DEFAULT_RULES).ok).toBe(false);
  expect(parseRecord(text).ok).toBe(false);
  expect(Date.now() - t0).toBeLessThan(1000);
});

test.each([null, undefined, 42, {}, [], true])('non-text %j is an error', (value) => {
  expect(parseTurn(value).ok).toBe(false);
  expect(parseFen(value, DEFAULT_RULES).ok).toBe(false);
  expect(parseRecord(value).ok).toBe(false);
});

test('random bytes never throw', () => {
  const random = seeded(12345);
  const alphabet = 'RBYGrbygcardnm0123456789/ -x>^*:abcdefghi\nDjambi=_';
  for (let i = 0; i < 3000; i++) {
    const len = Math.floor(random() * 120);
    let text = '';
    for (let k = 0; k < len; k++) text += alphabet[Math.floor(random() * alphabet.length)];
    expect(() => [parseTurn(text), parseFen(text, DEFAULT_RULES), parseRecord(text)]).not.toThrow();
  }
});

test('a record with an illegal turn replays to an error naming the event', () => {
  const record = parseRecord('Djambi players=4\nc7-c6 g7-g6 i3-i9\n');
  expect(record.ok).toBe(true);
  if (!record.ok) return;
  const r = replayRecord(record.value);
  expect(r.ok).toBe(false);
  if (!r.ok) expect(r.error.message).toMatch(/^event 3:/);
  expect(parseRecord('Djambi players=7\n').ok).toBe(false);
  expect(parseRecord('Djambi\nresign:B timeout:Y draw').ok).toBe(true);
  expect(makeRecord({ rules: DEFAULT_RULES, events: [{ type: 'resign', colour: 'B', timeout: true }, { type: 'draw' }] }).split('\n')[1]).toBe(
    'timeout:B draw',
  );
});

test.each([
  ['Djambi players=4\nc7-c6 g7-g6\n  i3-i5 zz9 c1-d1\n', 3, 9, /event 4/],
  ['Djambi players=4 bogus=1\n', 1, 18, /bad rule option/],
  ['Djambi players=4 layout=mirror players=7\n', 1, 32, /./],
  ['  Chess\nc7-c6\n', 1, 3, /starts with "Djambi"/],
  ['\n', 1, 1, /starts with "Djambi"/],
  ['Djambi\r\nc7-c6\r\nc7-c6\tq1-q2\r\n', 3, 7, /event 3/],
] as [string, number, number, RegExp][])('a malformed record %j is an error at line %i, column %i', (text, line, column, re) => {
  const r = parseRecord(text);
  expect(r.ok).toBe(false);
  if (r.ok) return;
  expect(r.error).toMatchObject({ code: 'bad_notation', line, column });
  expect(r.error.message).toMatch(new RegExp(`^line ${line}, column ${column}: `));
  expect(r.error.message).toMatch(re);
});

test('positions in errors do not change what parses', () => {
  expect(parseRecord('Djambi   players=2\n\n c7-c6 \n\nresign:R draw\n').ok).toBe(true);
});

describe('record tags (issue 40, bug 9)', () => {
  const game = parseRecord('Djambi players=4\nc7-c6 g7-g6 i3-i5 resign:B\n');
  const record = game.ok ? game.value : { rules: DEFAULT_RULES, events: [] };

  test('a record is written with PGN-like tags before its options, and reads back the same', () => {
    const tags = recordTags(record, {
      site: 'https://djambi.example/g/ABCD',
      date: Date.UTC(2026, 11, 7, 22),
      names: { R: 'Ana "the red"', B: 'Bo\\', Y: 'Cy' },
    });
    expect(tags).toEqual({
      Event: 'Djambi online',
      Site: 'https://djambi.example/g/ABCD',
      Date: '2026.12.07',
      Variant: 'square',
      Red: 'Ana "the red"',
      Blue: 'Bo\\',
      Yellow: 'Cy',
      Green: '?',
      Result: '*',
      Termination: 'unterminated',
    });
    const text = makeRecord({ ...record, tags });
    expect(text.split('\n').slice(0, 6)).toEqual([
      '[Event "Djambi online"]',
      '[Site "https://djambi.example/g/ABCD"]',
      '[Date "2026.12.07"]',
      '[Variant "square"]',
      '[Red "Ana \\"the red\\""]',
      '[Blue "Bo\\\\"]',
    ]);
    expect(text).toMatch(/\[Termination "unterminated"\]\nDjambi players=4 /);
    expect(parseRecord(text)).toEqual({ ok: true, value: { ...record, tags } });
  });

  test('result and termination: a win, a time forfeit, a draw by agreement', () => {
    const two = parseRecord('Djambi players=2\nresign:Y\n');
    expect(two.ok && recordTags(two.value)).toMatchObject({ Red: '?', Yellow: '?', Result: 'R', Termination: 'resignation' });
    expect(two.ok && 'Blue' in recordTags(two.value)).toBe(false);
    const flag = parseRecord('Djambi players=2\ntimeout:R\n');
    expect(flag.ok && recordTags(flag.value)).toMatchObject({ Result: 'Y', Termination: 'time forfeit' });
    const draw = parseRecord('Djambi players=2\ndraw\n');
    expect(draw.ok && recordTags(draw.value)).toMatchObject({ Result: 'draw', Termination: 'draw agreed' });
  });

  test('a hex game names its board in Variant', () => {
    const hex = parseRecord('Djambi board=hex6\n');
    expect(hex.ok && recordTags(hex.value)).toMatchObject({ Variant: 'hex6', Purple: '?', White: '?' });
  });

  test('a record without tags still reads; errors after the tags name their own line', () => {
    expect(parseRecord('Djambi players=4\nc7-c6\n')).toMatchObject({ ok: true, value: { events: [{ type: 'turn' }] } });
    expect(parseRecord('Djambi players=4\nc7-c6\n').ok && 'tags' in (parseRecord('Djambi\n') as { value: object }).value).toBe(false);
    expect(parseRecord('[Event "x"]\n[Site "y"]\n\nDjambi players=4\nc7-c6 zz9\n')).toMatchObject({ ok: false, error: { line: 5, column: 7 } });
    expect(parseRecord('[Event "x"]\nDjambi bogus=1\n')).toMatchObject({ ok: false, error: { line: 2, column: 8 } });
    expect(parseRecord('[Event x]\nDjambi\n')).toMatchObject({ ok: false, error: { line: 1, column: 1, message: expect.stringMatching(/bad tag/) } });
    expect(parseRecord('[Event "a"]\n[Event "b"]\nDjambi\n')).toMatchObject({ ok: false, error: { line: 2 } });
    expect(parseRecord('[Event "a"]\n').ok).toBe(false);
  });
});
