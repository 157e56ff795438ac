/** Pact decisions (notes §6) and the table messages bots write about their turns. Pure functions. */
import { initialPosition, playTurn, type Position, type Turn } from '@djambi/shared';
import { decidePact, shouldLeavePact, tableMessage, trustOf } from '../../server/src/bots/pact.js';
import { chiefKill, fromStart, reporterAndKill } from './positions.js';

const RB = { proposer: 'B', members: ['R', 'B'], rounds: 3 } as const;
/** Blue (to move) threatens Red's undefended diplomat on e4 with its militant on e6, across the empty maze. */
const threatened = () => fromStart({ b8: 'e4', g9: 'e6' }, { toMove: 'B' });

describe('decidePact', () => {
  test('accepts a pact that removes a threat', () => {
    const d = decidePact(threatened(), 'R', RB);
    expect(d).toMatchObject({ accept: true, reason: 'helps' });
    expect(d.gain).toBeGreaterThanOrEqual(0.5);
  });

  test('declines a pact that brings nothing', () => {
    expect(decidePact(initialPosition(), 'R', RB)).toMatchObject({ accept: false, reason: 'no_gain' });
  });

  test.each([
    ['not a member', 'Y', RB, [], 'not_member'],
    ['too long', 'R', { ...RB, rounds: 10 }, [], 'too_long'],
    ['betrayed me before', 'R', RB, [{ traitor: 'B', victim: 'R' }], 'betrayed_me'],
    [
      'betrays others',
      'R',
      RB,
      [
        { traitor: 'B', victim: 'Y' },
        { traitor: 'B', victim: 'G' },
      ],
      'untrusted',
    ],
  ] as const)('declines: %s', (_label, me, proposal, betrayals, reason) => {
    expect(decidePact(threatened(), me, proposal, betrayals)).toMatchObject({ accept: false, reason });
  });

  test('declines a pact with the clear leader', () => {
    const pos = fromStart({}, { toMove: 'B', dead: ['a7', 'b7', 'c8', 'c9', 'g1', 'g2', 'h3', 'i3', 'a3', 'b3', 'c1', 'c2'] });
    expect(decidePact(pos, 'R', RB)).toMatchObject({ accept: false, reason: 'leader' });
  });

  test('declines when it can kill the partner now', () => {
    expect(decidePact(chiefKill(), 'R', RB)).toMatchObject({ accept: false, reason: 'winning_attack' });
  });

  test('a treacherous bot accepts what an honest one declines', () => {
    expect(decidePact(initialPosition(), 'R', { ...RB, rounds: 50 }, [], { treacherous: true })).toMatchObject({ accept: true });
  });

  test('trust and leaving', () => {
    expect(trustOf('B', 'R', [])).toBeCloseTo(0.7);
    expect(trustOf('B', 'R', [{ traitor: 'B', victim: 'Y' }])).toBeCloseTo(0.28);
    expect(trustOf('B', 'R', [{ traitor: 'B', victim: 'R' }])).toBeCloseTo(0.14);
    expect(shouldLeavePact([0.5, -1.2, -2])).toBe(true);
    expect(shouldLeavePact([-3, 0.2, -2])).toBe(false);
    expect(shouldLeavePact([-3])).toBe(false);
  });
});

describe('tableMessage', () => {
  const say = (pos: Position, turn: Turn) => {
    const r = playTurn(pos, turn);
    if (!r.ok) throw new Error(r.error.message);
    return tableMessage(pos, r.value.effects, pos.toMove!);
  };
  test.each([
    ['the maze', fromStart({ a9: 'e7' }, { toMove: 'R' }), { from: 'e7', to: 'e5' }, 'Red takes the maze'],
    ['a kill', reporterAndKill(), { from: 'd4', to: 'd6', placement: 'd4' }, "Red's militant kills Blue's militant"],
    ['a reporter kill', reporterAndKill(), { from: 'd8', to: 'd7', reporterTarget: 'd6' }, "Red's reporter kills Blue's militant"],
    ['a chief kill', chiefKill(), { from: 'b6', to: 'f6' }, "Red kills Blue's chief"],
    ['a quiet move', initialPosition(), { from: 'a7', to: 'a6' }, null],
  ] as const)('%s', (_label, pos, turn, text) => {
    expect(say(pos, turn as Turn)).toBe(text);
  });
});
