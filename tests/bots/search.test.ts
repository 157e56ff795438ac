/**
 * The hard level's search machinery: the position key of the transposition table, the table
 * itself (a hit returns exactly what the search would have computed, so the table changes the
 * cost of a decision, never its answer), and every setting of the hard level playing legal,
 * reproducible turns. Node-budget mode throughout: nothing here is timed.
 */
import { DEFAULT_RULES, initialPosition, playTurn, type Position } from '@djambi/shared';
import { positionKey } from '../../server/src/bots/board.js';
import { chooseTurn, HARD, type HardSettings } from '../../server/src/bots/search.js';
import { playBotGame } from '../../server/src/bots/selfplay.js';
import { chiefKill, fromStart, mazeEntry, rulerExtraTurn } from './positions.js';

/** Positions some way into seeded normal-bot games (played once, on first use). */
let played: Position[] | null = null;
function midgames(): Position[] {
  played ??= [
    [5, 16],
    [6, 40],
    [8, 48],
  ].map(([seed, plies]) => {
    const pos = playBotGame({ R: 'normal', B: 'normal', Y: 'normal', G: 'normal' }, { seed, maxPlies: plies, nodes: { normal: 800 } }).final;
    if (pos.toMove === null) throw new Error('the game ended early');
    return pos;
  });
  return played;
}

/** Enough evaluations for every depth of the hard level to finish. */
const UNLIMITED = 10_000_000;

describe('position key', () => {
  test('equal positions share a key, built apart', () => {
    expect(positionKey(initialPosition(DEFAULT_RULES))).toBe(positionKey(initialPosition(DEFAULT_RULES)));
    expect(positionKey(chiefKill())).toBe(positionKey(chiefKill()));
  });

  test('a turn, the player to move, the turn kind or a death changes the key', () => {
    const start = initialPosition(DEFAULT_RULES);
    const moved = playTurn(start, { from: 'c8', to: 'd7' });
    if (!moved.ok) throw new Error(moved.error.message);
    const keys = [
      positionKey(start),
      positionKey(moved.value.position),
      positionKey({ ...start, toMove: 'B' }),
      positionKey(rulerExtraTurn()),
      positionKey(fromStart({ a9: 'e5' }, { toMove: 'R', cursor: 'B' })),
      positionKey(fromStart({}, { toMove: 'R', dead: ['c8'] })),
      positionKey(fromStart({}, { toMove: 'R' })),
    ];
    expect(new Set(keys).size).toBe(keys.length - 1); // the last is the start position again
    expect(keys[6]).toBe(keys[0]);
  });

  test('keys of many different positions do not collide', () => {
    const game = playBotGame({ R: 'easy', B: 'easy', Y: 'easy', G: 'easy' }, { seed: 3, maxPlies: 200, nodes: { easy: 200 } });
    let pos = initialPosition(DEFAULT_RULES);
    const keys = new Set([positionKey(pos)]);
    for (const turn of game.turns) {
      const r = playTurn(pos, turn);
      if (!r.ok) throw new Error(r.error.message);
      pos = r.value.position;
      keys.add(positionKey(pos));
    }
    expect(keys.size).toBe(game.turns.length + 1); // the ply is part of the key: every position is new
  });
});

describe('transposition table', () => {
  // Narrow enough that every depth finishes quickly without a budget.
  const withTable: HardSettings = { ...HARD, tt: true, placement: 2, widths: [0, 4, 2] };
  const without: HardSettings = { ...withTable, tt: false };

  test('the same answer with and without the table, for fewer evaluations', () => {
    let saved = 0;
    for (const pos of [...midgames(), mazeEntry()]) {
      const a = chooseTurn(pos, { level: 'hard', seed: 7, nodes: UNLIMITED }, withTable);
      const b = chooseTurn(pos, { level: 'hard', seed: 7, nodes: UNLIMITED }, without);
      expect(a.turn).toEqual(b.turn);
      expect(a.score).toBe(b.score);
      expect(a.depth).toBe(b.depth);
      expect(a.nodes).toBeLessThanOrEqual(b.nodes);
      saved += b.nodes - a.nodes;
    }
    expect(saved).toBeGreaterThan(0);
  });

  test('with the quiescence extension too', () => {
    for (const pos of midgames().slice(1)) {
      const a = chooseTurn(pos, { level: 'hard', seed: 7, nodes: UNLIMITED }, { ...withTable, quiesce: true });
      const b = chooseTurn(pos, { level: 'hard', seed: 7, nodes: UNLIMITED }, { ...without, quiesce: true });
      expect(a.turn).toEqual(b.turn);
      expect(a.score).toBe(b.score);
      expect(a.nodes).toBeLessThanOrEqual(b.nodes);
    }
  });
});

describe('hard settings', () => {
  const variants: [string, Partial<HardSettings>][] = [
    ['shipped', {}],
    ['no table', { tt: false }],
    ['quiescence', { quiesce: true }],
    ['one cycle', { widths: [0] }],
    ['four cycles, wide placements', { widths: [0, 12, 6, 3], placement: 8 }],
  ];

  test.each(variants)('%s: legal and reproducible turns within the budget', (_label, settings) => {
    const hard = { ...HARD, ...settings };
    for (const pos of [midgames()[1], mazeEntry(), rulerExtraTurn()]) {
      const a = chooseTurn(pos, { level: 'hard', seed: 2, nodes: 2000 }, hard);
      const b = chooseTurn(pos, { level: 'hard', seed: 2, nodes: 2000 }, hard);
      expect(playTurn(pos, a.turn).ok).toBe(true);
      expect(b).toMatchObject({ turn: a.turn, nodes: a.nodes, depth: a.depth, score: a.score });
      expect(a.nodes).toBeLessThanOrEqual(2000);
      expect(a.depth).toBeLessThanOrEqual(hard.widths.length);
    }
  });

  test('every setting takes a chief kill', () => {
    for (const [, settings] of variants)
      expect(chooseTurn(chiefKill(), { level: 'hard', seed: 1, nodes: 5000 }, { ...HARD, ...settings }).turn).toMatchObject({ to: 'f6' });
  });

  test('a self-play game with other settings replays from its seed', () => {
    const seats = { R: 'hard', B: 'normal', Y: 'normal', G: 'normal' } as const;
    const opts = { seed: 21, maxPlies: 40, nodes: { normal: 400, hard: 1000 }, hard: { quiesce: true, widths: [0, 4] } };
    const a = playBotGame(seats, opts);
    expect(a.illegal).toBe(0);
    expect(playBotGame(seats, opts).turns).toEqual(a.turns);
  });
});
