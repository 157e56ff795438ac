/** The square vocabulary: `makeSquare`/`parseSquare` round-trip, file/rank helpers, and room codes. */
import {
  BOARD_SIZE,
  CODE_ALPHABET,
  CODE_LENGTH,
  DEFAULT_RULES,
  FILES,
  fileOf,
  isSquare,
  makeSquare,
  normaliseCode,
  parseRules,
  parseSquare,
  RANKS,
  RULE_VALUES,
  rankOf,
  SQUARE_COUNT,
  type SquareName,
  squareOf,
} from '@djambi/shared';

describe('squares', () => {
  test('every index round-trips through its name, a1 first and i9 last', () => {
    const names = new Set<SquareName>();
    for (let sq = 0; sq < SQUARE_COUNT; sq++) {
      const name = makeSquare(sq);
      expect(name).toMatch(/^[a-i][1-9]$/);
      expect(parseSquare(name)).toBe(sq);
      expect(isSquare(name)).toBe(true);
      expect(squareOf(fileOf(sq), rankOf(sq))).toBe(sq);
      names.add(name);
    }
    expect(names.size).toBe(81);
    expect(makeSquare(0)).toBe('a1');
    expect(makeSquare(80)).toBe('i9');
    expect(makeSquare(40)).toBe('e5');
  });

  test('every name a1..i9 parses', () => {
    for (const f of FILES) for (const r of RANKS) expect(makeSquare(parseSquare(`${f}${r}`)!)).toBe(`${f}${r}`);
    expect(FILES.length * RANKS.length).toBe(BOARD_SIZE * BOARD_SIZE);
  });

  test.each(['', 'a', 'a0', 'j1', 'A1', 'a10', ' a1', 'a1 ', 'e5e', '11', 'toString', '__proto__'])('%j is refused', (text) => {
    expect(parseSquare(text)).toBeUndefined();
    expect(isSquare(text)).toBe(false);
  });

  test.each([undefined, null, 0, 40, {}, ['a1']])('non-string %j is refused', (value) => {
    expect(parseSquare(value)).toBeUndefined();
  });

  test('squareOf refuses off-board coordinates', () => {
    expect(squareOf(-1, 1)).toBeUndefined();
    expect(squareOf(9, 1)).toBeUndefined();
    expect(squareOf(0, 0)).toBeUndefined();
    expect(squareOf(0, 10)).toBeUndefined();
    expect(squareOf(0.5, 1)).toBeUndefined();
    expect(squareOf(8, 9)).toBe(80);
  });
});

describe('rule values', () => {
  test('every listed value is accepted and the defaults are listed', () => {
    for (const [key, values] of Object.entries(RULE_VALUES)) {
      expect(values).toContain((DEFAULT_RULES as unknown as Record<string, unknown>)[key]);
      for (const value of values) expect(parseRules({ [key]: value }).ok).toBe(true);
    }
  });
});

describe('room codes', () => {
  test('the alphabet has no look-alikes', () => {
    expect(CODE_ALPHABET).toHaveLength(31);
    expect(CODE_ALPHABET).not.toMatch(/[01ILO]/);
    expect(new Set(CODE_ALPHABET).size).toBe(CODE_ALPHABET.length);
  });

  test('typed codes are normalised', () => {
    expect(normaliseCode('abc-def')).toBe('ABCDEF');
    expect(normaliseCode(' 23 45 67 ')).toBe('234567');
    expect(normaliseCode('ABCDE')).toBeNull();
    expect(normaliseCode('ABCDEFG')).toBeNull();
    expect(normaliseCode('ABCDE0')).toBeNull();
    expect(normaliseCode('ABCDEI')).toBeNull();
    expect(normaliseCode('A'.repeat(CODE_LENGTH))).toBe('AAAAAA');
  });
});
