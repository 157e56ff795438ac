/**
 * Tactical unit suite (notes §5) in node-budget mode: hand-built positions where the right idea
 * is clear. Easy may miss them by design; normal and hard must not.
 */
import { playTurn, type Position } from '@djambi/shared';
import { attackMaps } from '../../server/src/bots/board.js';
import { chooseTurn } from '../../server/src/bots/search.js';
import { chiefKill, fromStart } from './positions.js';

const LEVELS = ['normal', 'hard'] as const;
const NODES = { normal: 6000, hard: 6000 };

function playedBy(pos: Position, level: (typeof LEVELS)[number]): Position {
  const d = chooseTurn(pos, { level, seed: 4, nodes: NODES[level] });
  const r = playTurn(pos, d.turn);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.position;
}

/** Can any other player kill Red's chief on its next move? */
function redChiefHit(pos: Position): number {
  const chief = pos.chiefs[0];
  const { hit } = attackMaps(pos);
  let n = 0;
  for (let q = 1; q < 4; q++) n += hit[q * 81 + pos.sq[chief]];
  return n;
}

describe.each(LEVELS)('%s tactics', (level) => {
  test('takes a chief kill', () => {
    expect(playedBy(chiefKill(), level).activeMask & 0b0010).toBe(0);
  });

  test('moves its attacked chief out of reach', () => {
    // Blue's assassin on h6 attacks Red's chief on d6 along rank 6.
    const pos = fromStart({ a9: 'd6', h9: 'h6' }, { toMove: 'R' });
    expect(redChiefHit(pos)).toBeGreaterThan(0);
    const next = playedBy(pos, level);
    expect(next.alive[next.chiefs[0]]).toBe(1);
    expect(redChiefHit(next)).toBe(0);
  });

  test('a reporter kills the ruler from next to the maze', () => {
    // Red rules from e5; Blue's reporter on h6 can reach e6 and kill it.
    const pos = fromStart({ a9: 'e5', i8: 'h6' }, { toMove: 'B', cursor: 'B' });
    expect(chooseTurn(pos, { level, seed: 4, nodes: NODES[level] }).turn).toMatchObject({ reporterTarget: 'e5' });
  });

  test('takes the maze when it is safe', () => {
    const pos = fromStart({ a9: 'e7' }, { toMove: 'R' });
    const next = playedBy(pos, level);
    expect(next.board[40]).toBe(next.chiefs[0]);
  });
});
