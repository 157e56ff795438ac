/**
 * The bots on the hexagonal boards (issue 39): at every level, from the start and from a few
 * positions of seeded random play, the bot returns a turn the engine accepts, within its level's
 * time budget, and a spent budget gives the fallback; seeded bot-only games on the small board end
 * (or reach 200 turns) without an illegal turn and replay identically; table messages name the hex
 * colours; the worker pool answers hex positions too.
 */
import { type Board, initialPosition, parseRules, playTurn, type Position, type Rules } from '@djambi/shared';
import { tableMessage } from '../../server/src/bots/pact.js';
import { BotPool } from '../../server/src/bots/pool.js';
import { BOT_LEVELS, chooseTurn, fallbackTurn, LEVEL_TIME_MS } from '../../server/src/bots/search.js';
import { playBotGame } from '../../server/src/bots/selfplay.js';

const BOARDS = ['hex3', 'hex5', 'hex6'] as const satisfies readonly Board[];

function rulesOf(board: Board): Rules {
  const r = parseRules({ board });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Seats of a game under these rules, every one played by `player`. */
function allSeats<P>(pos: Position, player: P): Record<string, P> {
  const out: Record<string, P> = {};
  for (let c = 0; c < pos.control.length; c++) if ((pos.activeMask >> c) & 1) out['RBYGPW'[c]] = player;
  return out;
}

/** The start and a few positions of seeded random play (games not over), per board. */
const positions = new Map<Board, Position[]>();
function positionsOf(board: Board): Position[] {
  let list = positions.get(board);
  if (list) return list;
  const rules = rulesOf(board);
  const start = initialPosition(rules);
  list = [start];
  for (const [seed, plies] of [
    [1, 12],
    [2, 30],
    [3, 60],
  ]) {
    const g = playBotGame(allSeats(start, 'random' as const), { rules, seed, maxPlies: plies });
    if (g.illegal) throw new Error(`random play on ${board} made an illegal turn`);
    if (!g.final.result && g.final.toMove !== null) list.push(g.final);
  }
  positions.set(board, list);
  return list;
}

/** Slack over a level's budget for a loaded test machine (the decision itself stops at a share of the budget). */
const SLACK_MS = 250;

describe('bots on the hex boards', () => {
  test.each(BOARDS)('%s: random play gives mid-game positions', (board) => {
    const list = positionsOf(board);
    expect(list.length).toBeGreaterThanOrEqual(3);
    for (const pos of list) expect(pos.geometry).toBe(board === 'hex3' ? 'hex3' : 'hex6');
  });

  describe.each(BOARDS)('%s', (board) => {
    test.each(BOT_LEVELS)(
      '%s: a legal turn within the budget, from the start and mid-game',
      (level) => {
        positionsOf(board).forEach((pos, i) => {
          const d = chooseTurn(pos, { level, seed: 11 + i });
          const r = playTurn(pos, d.turn);
          if (!r.ok) throw new Error(`${board} ${level} position ${i}: ${JSON.stringify(d.turn)} refused: ${r.error.message}`);
          expect(d.ms).toBeLessThanOrEqual(LEVEL_TIME_MS[level] + SLACK_MS);
        });
      },
      30_000,
    );

    test.each(BOT_LEVELS)('%s: node-budget mode is reproducible', (level) => {
      const pos = positionsOf(board)[1];
      const a = chooseTurn(pos, { level, seed: 3, nodes: 400 });
      const b = chooseTurn(pos, { level, seed: 3, nodes: 400 });
      expect(a.turn).toEqual(b.turn);
      expect(playTurn(pos, a.turn).ok).toBe(true);
    });
  });

  test.each([7, 8, 9])(
    'hex3: seeded bot-only game %i plays to the end or 200 turns without an illegal turn',
    (seed) => {
      const rules = rulesOf('hex3');
      const nodes = { easy: 300, normal: 600, hard: 1500 };
      const g = playBotGame({ R: 'easy', B: 'normal', Y: 'hard' }, { rules, seed, maxPlies: 200, nodes });
      expect(g.illegal).toBe(0);
      expect(g.result !== null || g.capped).toBe(true);
      expect(g.turns.length).toBeLessThanOrEqual(200);
      // Node-budget mode: the same seed plays the same game.
      expect(playBotGame({ R: 'easy', B: 'normal', Y: 'hard' }, { rules, seed, maxPlies: 200, nodes }).turns).toEqual(g.turns);
    },
    60_000,
  );

  test.each(BOARDS)('%s: a spent budget returns the fallback, a legal turn', (board) => {
    for (const pos of positionsOf(board))
      for (const level of BOT_LEVELS) {
        const d = chooseTurn(pos, { level, seed: 1, timeMs: 0 });
        expect(d.turn).toEqual(fallbackTurn(pos));
        expect(playTurn(pos, d.turn).ok).toBe(true);
      }
  });
});

test.each(BOARDS)('%s: table messages name the hex colours and the maze', (board) => {
  const rules = rulesOf(board);
  const start = initialPosition(rules);
  const lines: string[] = [];
  for (const seed of [1, 2, 3]) {
    const g = playBotGame(allSeats(start, 'easy' as const), { rules, seed, maxPlies: 120, nodes: { easy: 200 } });
    let pos = start;
    for (const turn of g.turns) {
      const r = playTurn(pos, turn);
      if (!r.ok) throw new Error(r.error.message);
      const text = tableMessage(pos, r.value.effects, pos.toMove as 'R');
      if (text) lines.push(text);
      pos = r.value.position;
    }
  }
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(line).not.toMatch(/undefined|null/);
});

describe('the worker pool with hex positions', () => {
  let pool: BotPool;
  beforeAll(async () => {
    pool = new BotPool({ graceMs: 100 });
    await pool.ready();
  }, 30_000);
  afterAll(() => pool.close());

  test.each(BOARDS)(
    '%s: the worker answers with a legal turn',
    async (board) => {
      const pos = positionsOf(board)[1];
      const a = await pool.think(pos, { level: 'normal', seed: 1, nodes: 1000, timeMs: 5000 });
      expect(a.source).toBe('worker');
      expect(playTurn(pos, a.turn).ok).toBe(true);
    },
    30_000,
  );
});
