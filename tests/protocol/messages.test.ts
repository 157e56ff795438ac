/**
 * The shared wire schemas: each accepts what clients send and the server accepts (values from
 * tests/server/rejections.test.ts and seats.test.ts), and refuses garbage with `bad_payload` and
 * the path of the bad field.
 */
import {
  rulesOfState,
  DEFAULT_RULES,
  parseRules,
  check,
  ClockOptions,
  CreateOptions,
  EmptyMessage,
  JoinOptions,
  MAX_PAYLOAD_BYTES,
  MAX_PRESS_ID_CHARS,
  MAX_PRESS_PAYLOAD_BYTES,
  MAX_RAW_NAME_CHARS,
  maxPayloadBytes,
  NameMessage,
  PRESS_CLIENT_MESSAGES,
  PRESS_CLIENT_SCHEMAS,
  ReadyMessage,
  SwapMessage,
  TurnMessage,
  type AnySchema,
} from '@djambi/shared';
import { CREATE_KEYS, parseRoomConfig } from '../../server/src/match/config.js';
import { checkJoinOptions, checkRename, checkTurnMessage } from '../../server/src/rooms/validate.js';
import { seeded } from '../support/random.js';

const DEFAULTS = { graceSeconds: 60, idleSeconds: 600 };

function accepts<S extends AnySchema>(schema: S, input: unknown): unknown {
  const res = check(schema, input);
  if (!res.ok) throw new Error(`refused ${JSON.stringify(input)}: ${res.error.message} at ${res.error.path}`);
  return res.value;
}

function refusal(schema: AnySchema, input: unknown): { code: string; path?: string } {
  const res = check(schema, input);
  if (res.ok) throw new Error(`accepted ${JSON.stringify(input)}`);
  expect(typeof res.error.message).toBe('string');
  return res.error.path === undefined ? { code: res.error.code } : { code: res.error.code, path: res.error.path };
}

describe('TurnMessage', () => {
  test.each([
    [{ from: 'a9', to: 'a8' }, { turn: { from: 'a9', to: 'a8' } }],
    [
      { from: 'e2', to: 'e5', placement: 'a1', exit: 'e4', reporterTarget: 'f5', version: 3 },
      { turn: { from: 'e2', to: 'e5', placement: 'a1', exit: 'e4', reporterTarget: 'f5' }, version: 3 },
    ],
    [{ from: 'a9', to: 'a8', placement: null, version: null }, { turn: { from: 'a9', to: 'a8' } }],
    [{ pass: true }, { turn: { pass: true } }],
    [
      { pass: true, version: 0 },
      { turn: { pass: true }, version: 0 },
    ],
    // Not squares, but squares are the engine's to refuse (`bad_square`).
    [{ from: 'z9', to: 'a1' }, { turn: { from: 'z9', to: 'a1' } }],
  ])('accepts %j', (input, want) => {
    expect(accepts(TurnMessage, input)).toEqual(want);
  });

  test.each([
    ['e2e4', undefined],
    [42, undefined],
    [null, 'from'],
    [undefined, 'from'],
    [[1, 2], undefined],
    [new Uint8Array([1, 2, 3]), undefined],
    [{ from: 5, to: 'a1' }, 'from'],
    [{ from: 'a9' }, 'to'],
    [{ to: 'a9' }, 'from'],
    [{ from: 'a9', to: 'a8', extra: 1 }, 'extra'],
    [{ pass: 'yes' }, 'pass'],
    [{ pass: true, from: 'a9' }, 'from'],
    [{ version: -1, from: 'a9', to: 'a8' }, 'version'],
    [{ version: 1.5, from: 'a9', to: 'a8' }, 'version'],
    [{ from: '', to: 'a8' }, 'from'],
    [{ from: 'a9', to: 'a8', reporterTarget: 7 }, 'reporterTarget'],
    [{ from: 'a9', to: 'abcde' }, 'to'],
  ])('refuses %j at %s', (input, path) => {
    expect(refusal(TurnMessage, input)).toEqual(path === undefined ? { code: 'bad_payload' } : { code: 'bad_payload', path });
  });

  test('the server check is the schema (the bytes were bounded before decoding)', () => {
    expect(checkTurnMessage({ from: 'a'.repeat(2000), to: 'a8' })).toMatchObject({ ok: false, error: { code: 'bad_payload', path: 'from' } });
    expect(checkTurnMessage({ from: 'a9', to: 'a8', junk: 'x'.repeat(8000) })).toMatchObject({ ok: false, error: { code: 'bad_payload', path: 'junk' } });
    expect(checkTurnMessage({ from: 'a9', to: 5 })).toEqual({
      ok: false,
      error: { code: 'bad_payload', message: '"to" must be a square such as "e5"', path: 'to' },
    });
    expect(checkTurnMessage({ from: 'a9', to: 'a8', version: 2 })).toEqual({ ok: true, value: { turn: { from: 'a9', to: 'a8' }, version: 2 } });
  });

  test("the server's path without the schema for common turns answers exactly as the schema", () => {
    // Every field of a turn, each absent or with a value the schema accepts or refuses.
    const random = seeded(14);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
    const squares = [undefined, null, 'e5', 'a9', '', 'abcd', 'abcde', 5, true, {}];
    const versions = [undefined, null, 0, 7, -1, 1.5, NaN, Infinity, -0, '3'];
    const keys = ['from', 'to', 'placement', 'exit', 'reporterTarget'] as const;
    const inputs: unknown[] = [null, undefined, [], 'turn', Object.create({ from: 'a9', to: 'a8' }), { from: 'a9', to: 'a8', pass: true }, { pass: true }];
    inputs.push(Object.assign(Object.create(null), { from: 'a9', to: 'a8' }));
    inputs.push({
      from: 'a9',
      get to(): string {
        throw new Error('getter');
      },
    });
    inputs.push({ to: 'a8', from: 'a9', reporterTarget: 'c3', version: 4, placement: 'd4' });
    for (let i = 0; i < 2000; i++) {
      const m: Record<string, unknown> = {};
      for (const key of keys)
        if (random() < (key === 'from' || key === 'to' ? 0.9 : 0.3))
          m[key] = random() < 0.8 && key !== 'reporterTarget' ? pick(['e5', 'a9', 'i1']) : pick(squares);
      if (random() < 0.5) m.version = pick(versions);
      if (random() < 0.05) m[pick(['pass', 'junk', '__proto__', 'constructor'])] = pick([true, 1, 'x']);
      inputs.push(m);
    }
    let fast = 0;
    for (const input of inputs) {
      const bySchema = check(TurnMessage, input);
      expect(checkTurnMessage(input)).toEqual(bySchema);
      // Same key order too: the turn is stored in the game log as it was decoded.
      if (bySchema.ok) {
        expect(JSON.stringify(checkTurnMessage(input))).toBe(JSON.stringify(bySchema));
        fast++;
      }
    }
    expect(fast).toBeGreaterThan(500);
  });
});

describe('lobby messages', () => {
  test.each([undefined, null, {}])('EmptyMessage accepts %j', (input) => {
    expect(accepts(EmptyMessage, input)).toEqual({});
  });
  test('EmptyMessage refuses data', () => {
    expect(refusal(EmptyMessage, { now: true })).toEqual({ code: 'bad_payload', path: 'now' });
    expect(refusal(EmptyMessage, [])).toEqual({ code: 'bad_payload' });
    expect(refusal(EmptyMessage, 'x')).toEqual({ code: 'bad_payload' });
  });
  test('SwapMessage', () => {
    expect(accepts(SwapMessage, { colour: 'Y' })).toEqual({ colour: 'Y' });
    expect(refusal(SwapMessage, 'R')).toEqual({ code: 'bad_payload' });
    expect(refusal(SwapMessage, { colour: 'Q' })).toEqual({ code: 'bad_payload', path: 'colour' });
    expect(refusal(SwapMessage, {})).toEqual({ code: 'bad_payload', path: 'colour' });
  });
  test('ReadyMessage', () => {
    expect(accepts(ReadyMessage, { ready: false })).toEqual({ ready: false });
    expect(refusal(ReadyMessage, { ready: 'yes' })).toEqual({ code: 'bad_payload', path: 'ready' });
  });
  test('NameMessage cleans the name and bounds it', () => {
    // Invisible and control characters (a tab too) are dropped, then runs of spaces collapse.
    expect(accepts(NameMessage, { name: '  ann\u200b  the\tfirst\u2028one ' })).toEqual({ name: 'ann thefirst one' });
    expect(accepts(NameMessage, { name: 'x'.repeat(24) })).toEqual({ name: 'x'.repeat(24) });
    expect(refusal(NameMessage, { name: 'x'.repeat(25) })).toEqual({ code: 'bad_payload', path: 'name' });
    expect(refusal(NameMessage, { name: ' \u200b ' })).toEqual({ code: 'bad_payload', path: 'name' });
    expect(refusal(NameMessage, { name: 3 })).toEqual({ code: 'bad_payload', path: 'name' });
    expect(checkRename({ name: '' })).toMatchObject({ ok: false, error: { code: 'bad_payload', message: '"name" must be 1..24 printable characters' } });
  });
});

describe('JoinOptions', () => {
  test.each([
    [undefined, { spectate: false }],
    [{}, { spectate: false }],
    [
      { name: ' ann ', colour: 'Y' },
      { name: 'ann', colour: 'Y', spectate: false },
    ],
    [
      { spectate: true, name: 'watcher' },
      { name: 'watcher', spectate: true },
    ],
    [{ seatKey: '0'.repeat(32) }, { seatKey: '0'.repeat(32), spectate: false }],
    [{ name: null, colour: null, spectate: null, seatKey: null }, { spectate: false }],
  ])('accepts %j', (input, want) => {
    expect(accepts(JoinOptions, input)).toEqual(want);
  });

  test.each([
    [{ colour: 'Q' }, 'colour'],
    [{ name: 'x'.repeat(200) }, 'name'],
    [{ bogus: 1 }, 'bogus'],
    [{ spectate: 'yes' }, 'spectate'],
    [{ seatKey: '' }, 'seatKey'],
    [{ seatKey: 'k'.repeat(65) }, 'seatKey'],
    [{ spectate: true, colour: 'R' }, undefined],
    [[], undefined],
  ])('refuses %j at %s', (input, path) => {
    expect(refusal(JoinOptions, input)).toEqual(path === undefined ? { code: 'bad_payload' } : { code: 'bad_payload', path });
  });

  test('checkJoinOptions tolerates the create keys only when asked', () => {
    const opts = { name: 'ann', rules: { players: 2 }, clock: null };
    expect(checkJoinOptions(opts)).toMatchObject({ ok: false, error: { code: 'bad_payload', path: 'rules' } });
    expect(checkJoinOptions(opts, CREATE_KEYS)).toMatchObject({ ok: true, value: { name: 'ann', spectate: false } });
    expect(checkJoinOptions({ x: 'y'.repeat(5000) })).toMatchObject({ ok: false, error: { code: 'bad_payload', path: 'x', message: 'unknown option "x"' } });
  });
});

describe('CreateOptions', () => {
  test('defaults', () => {
    expect(accepts(CreateOptions, {})).toMatchObject({
      clock: null,
      visibility: 'private',
      press_visibility: 'hidden',
      reveal_press_after_game: true,
      rules: { players: 4 },
    });
    expect(accepts(CreateOptions, null)).toMatchObject({ clock: null, visibility: 'private' });
  });

  test('accepts what the client sends', () => {
    const input = {
      rules: { players: 3, self_kill: true, no_progress_rounds: 20 },
      clock: { initialSeconds: 900, incrementSeconds: 5 },
      visibility: 'public',
      press_visibility: 'existence',
      reveal_press_after_game: false,
    };
    expect(accepts(CreateOptions, input)).toMatchObject({ ...input, rules: { players: 3, self_kill: true, no_progress_rounds: 20, layout: 'mirror' } });
    expect(accepts(CreateOptions, { clock: false })).toMatchObject({ clock: null });
    expect(accepts(CreateOptions, { clock: { initialSeconds: 60 } })).toMatchObject({ clock: { initialSeconds: 60, incrementSeconds: 0 } });
    expect(accepts(ClockOptions, { initialSeconds: 1, incrementSeconds: null })).toEqual({ initialSeconds: 1, incrementSeconds: 0 });
  });

  test.each([
    [{ clock: { initialSeconds: 0 } }, 'clock.initialSeconds'],
    [{ clock: { initialSeconds: 60, incrementSeconds: -1 } }, 'clock.incrementSeconds'],
    [{ clock: { initialSeconds: 8 * 24 * 3600 } }, 'clock.initialSeconds'],
    [{ clock: { initialSeconds: 60, extra: 1 } }, 'clock.extra'],
    [{ clock: 'fast' }, 'clock'],
    [{ clock: [60] }, 'clock'],
    [{ visibility: 'secret' }, 'visibility'],
    [{ press_visibility: 'all' }, 'press_visibility'],
    [{ reveal_press_after_game: 'no' }, 'reveal_press_after_game'],
    [{ rules: { players: 5 } }, 'rules'],
    [{ rules: 'standard' }, 'rules'],
    [{ graceSeconds: 5 }, 'graceSeconds'],
  ])('refuses %j at %s', (input, path) => {
    expect(refusal(CreateOptions, input)).toEqual({ code: 'bad_payload', path });
  });

  test('parseRoomConfig: bad_rules for the rules, bad_options for the rest, with the path', () => {
    const rules = parseRoomConfig({ rules: { players: 5 } }, DEFAULTS);
    expect(rules).toMatchObject({ ok: false, code: 'bad_rules', error: { code: 'bad_rules', path: 'rules' } });
    const clock = parseRoomConfig({ clock: { initialSeconds: 0 } }, DEFAULTS);
    expect(clock).toMatchObject({
      ok: false,
      code: 'bad_options',
      message: '"clock.initialSeconds" must be a number of seconds in [1, 604800]',
      error: { code: 'bad_options', path: 'clock.initialSeconds' },
    });
    // Join keys and unknown keys are `checkJoinOptions`'s, not the config's.
    const ok = parseRoomConfig({ name: 'ann', clock: { initialSeconds: 90.5, incrementSeconds: 2 }, visibility: 'public' }, DEFAULTS);
    expect(ok).toMatchObject({ ok: true, value: { clock: { initialMs: 90500, incrementMs: 2000 }, visibility: 'public', graceSeconds: 60, idleSeconds: 600 } });
    expect(parseRoomConfig('junk', DEFAULTS)).toMatchObject({
      ok: true,
      value: { clock: null, press: { press_visibility: 'hidden', reveal_press_after_game: true } },
    });
  });
});

describe('the board rule option on the server', () => {
  test.each([
    ['hex3', 3, {}],
    ['hex5', 5, { hostage_seat: 2, vertex_step: 'either_flank_blocks' }],
    ['hex6', 6, { vertex_step: 'both_flanks_block' }],
  ] as const)('parseRoomConfig: board %s is a room of %i seats, with its own options and bots in its seats', (board, players, extra) => {
    const bots = board === 'hex3' ? { Y: 'easy' } : { P: 'easy' };
    const res = parseRoomConfig({ rules: { board, ...extra }, bots }, DEFAULTS);
    expect(res).toMatchObject({ ok: true, value: { rules: { board, players, ...extra } } });
  });

  test('parseRoomConfig: a hex game refuses what its board does not have (bad_rules, bad_options for a bot seat)', () => {
    const refused = [
      [{ rules: { board: 'hex6', players: 4 } }, 'bad_rules'],
      [{ rules: { board: 'hex3', vertex_step: 'free' } }, 'bad_rules'],
      [{ rules: { board: 'hex6', hostage_seat: 2 } }, 'bad_rules'],
      [{ rules: { board: 'hex3' }, bots: { G: 'easy' } }, 'bad_options'],
      [{ rules: { board: 'hex5', hostage_seat: 5 }, bots: { P: 'easy' } }, 'bad_options'],
    ] as const;
    for (const [options, code] of refused) expect(parseRoomConfig(options, DEFAULTS)).toMatchObject({ ok: false, code });
  });

  test('parseRoomConfig: board "square" is the square game; an unknown board is the engine’s bad_rules', () => {
    const square = parseRoomConfig({ rules: { board: 'square', players: 3 } }, DEFAULTS);
    expect(square).toMatchObject({ ok: true, value: { rules: { players: 3 } } });
    expect(square.ok && square.value.rules).not.toHaveProperty('board');
    expect(parseRoomConfig({ rules: { board: 'octagon' } }, DEFAULTS)).toMatchObject({ ok: false, code: 'bad_rules', error: { path: 'rules' } });
  });
});

describe('press client payloads', () => {
  test.each([
    ['press_send', { channel: 'table', text: 'hello' }],
    ['press_open', { members: ['B'] }],
    ['press_read', { channel: 'dm:RB', upTo: 3 }],
    ['press_page', { channel: 'table', before: 51, limit: 20 }],
    ['pact_propose', { with: ['B', 'Y'], rounds: 3, announce: true }],
    ['pact_accept', { pact: 'p1' }],
    ['pact_leave', { pact: 'p1' }],
    ['draw_offer', undefined],
    ['draw_accept', { offer: 1 }],
    ['draw_decline', {}],
  ] as const)('%s accepts %j', (type, input) => {
    accepts(PRESS_CLIENT_SCHEMAS[type], input);
  });
  test.each([
    ['press_send', { channel: 'table', text: 5 }, 'text'],
    ['press_read', { channel: 'table' }, 'upTo'],
    ['press_open', { members: [] }, 'members'],
    ['press_page', { channel: 'table', before: 0 }, 'before'],
    ['press_page', { channel: 'table', before: 5, limit: 101 }, 'limit'],
    ['pact_propose', { with: ['B'], rounds: 0 }, 'rounds'],
    ['pact_accept', { pact: 'p1', x: 1 }, 'x'],
    ['draw_accept', { offer: 'one' }, 'offer'],
  ] as const)('%s refuses %j at %s', (type, input, path) => {
    expect(refusal(PRESS_CLIENT_SCHEMAS[type], input)).toEqual({ code: 'bad_payload', path });
  });
});

describe('every client message is bounded', () => {
  const long = (n: number) => 'x'.repeat(n);
  test.each([
    ['turn', TurnMessage, { from: long(5), to: 'a8' }, 'from'],
    ['turn', TurnMessage, { from: 'a9', to: 'a8', version: 2 ** 53 }, 'version'],
    ['name', NameMessage, { name: `${'\u200b'.repeat(MAX_RAW_NAME_CHARS)}ann` }, 'name'],
    ['join', JoinOptions, { name: `${' '.repeat(MAX_RAW_NAME_CHARS)}ann` }, 'name'],
    ['join', JoinOptions, { hostToken: long(65) }, 'hostToken'],
    ['create', CreateOptions, { hostHash: long(10_000) }, 'hostHash'],
    ['press_send', PRESS_CLIENT_SCHEMAS.press_send, { channel: 'table', text: long(MAX_PRESS_PAYLOAD_BYTES + 1) }, 'text'],
    ['press_open', PRESS_CLIENT_SCHEMAS.press_open, { members: [long(MAX_PRESS_ID_CHARS + 1)] }, 'members.0'],
    // The list's length is checked before its items.
    ['press_open', PRESS_CLIENT_SCHEMAS.press_open, { members: Array.from({ length: 1000 }, () => 7) }, 'members'],
    ['pact_propose', PRESS_CLIENT_SCHEMAS.pact_propose, { with: ['B'], rounds: 2 ** 53 }, 'rounds'],
  ] as [string, AnySchema, unknown, string][])('%s refuses %j at %s', (_type, schema, input, path) => {
    expect(refusal(schema, input)).toEqual({ code: 'bad_payload', path });
  });

  test('a name may carry invisible characters and spaces up to its raw bound', () => {
    expect(accepts(NameMessage, { name: `${'\u200b'.repeat(MAX_RAW_NAME_CHARS - 3)}ann` })).toEqual({ name: 'ann' });
  });

  test('the payload byte limit of each message type', () => {
    for (const type of PRESS_CLIENT_MESSAGES) expect(maxPayloadBytes(type)).toBe(MAX_PRESS_PAYLOAD_BYTES);
    for (const type of ['turn', 'name', 'rematch', 'nope', 7, 'toString']) expect(maxPayloadBytes(type)).toBe(MAX_PAYLOAD_BYTES);
  });
});

describe("the state's RulesState read back as rule options", () => {
  test('rulesOfState drops the board fields the state writes empty, keeps the set ones, ignores other keys; parseRules reads the result', () => {
    const square = { ...DEFAULT_RULES, board: '', vertex_step: '', hostage_seat: 0, extra: 1 };
    expect(rulesOfState(square)).toEqual({ ...DEFAULT_RULES });
    const hex5 = { ...DEFAULT_RULES, players: 5, board: 'hex5', vertex_step: 'free', hostage_seat: 3 };
    expect(rulesOfState(hex5)).toMatchObject({ board: 'hex5', vertex_step: 'free', hostage_seat: 3 });
    expect(parseRules(rulesOfState(hex5))).toMatchObject({ ok: true, value: { board: 'hex5', hostage_seat: 3 } });
    expect(parseRules(rulesOfState(square))).toMatchObject({ ok: true });
    expect(rulesOfState('junk')).toEqual({});
  });
});
