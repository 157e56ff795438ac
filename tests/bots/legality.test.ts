/**
 * Every bot turn is legal: short seeded games at every level under sampled rule option sets
 * (RULE_VALUES), and hand-built positions that need each turn part (placement, maze exit,
 * reporter victim, the ruler's extra turn). Node-budget mode, so the games are reproducible.
 */
import { DEFAULT_RULES, legalTurns, makeTurn, playTurn, RULE_VALUES, type Position, type Rules, type Turn } from '@djambi/shared';
import { candidateTurns } from '../../server/src/bots/candidates.js';
import { BOT_LEVELS, chooseTurn, fallbackTurn } from '../../server/src/bots/search.js';
import { playBotGame } from '../../server/src/bots/selfplay.js';
import { seededRandom } from '../../server/src/bots/rng.js';
import { chiefKill, mazeEntry, reporterAndKill, rulerExtraTurn } from './positions.js';

/** Small budgets: legality, not strength. */
const NODES = { easy: 400, normal: 600, hard: 900 };

/** Rule option sets: the default, each non-default value once, and seeded random combinations. */
function ruleSets(): Rules[] {
  const out: Rules[] = [{ ...DEFAULT_RULES }];
  for (const [key, values] of Object.entries(RULE_VALUES))
    for (const v of values) if (v !== (DEFAULT_RULES as unknown as Record<string, unknown>)[key]) out.push({ ...DEFAULT_RULES, [key]: v });
  const random = seededRandom(12);
  for (let i = 0; i < 3; i++) {
    const r: Record<string, unknown> = { ...DEFAULT_RULES };
    for (const [key, values] of Object.entries(RULE_VALUES)) r[key] = values[Math.floor(random() * values.length)];
    out.push(r as unknown as Rules);
  }
  return out;
}

const name = (r: Rules) =>
  Object.entries(r)
    .filter(([k, v]) => (DEFAULT_RULES as unknown as Record<string, unknown>)[k] !== v)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ') || 'default';

describe('bots play legal turns', () => {
  test.each(ruleSets().map((r, i) => [name(r), r, i] as const))('every level, rules: %s', (_label, rules, i) => {
    const seats = { R: 'easy', B: 'normal', Y: 'hard', G: 'normal' } as const;
    const game = playBotGame(rules.players === 2 ? { R: 'hard', Y: 'easy' } : rules.players === 3 ? { R: 'easy', B: 'normal', Y: 'hard' } : seats, {
      rules,
      seed: 100 + i,
      maxPlies: 32,
      nodes: NODES,
    });
    expect(game.illegal).toBe(0);
    expect(game.turns.length).toBeGreaterThan(0);
  });

  const special: [string, (r?: Rules) => Position, (t: Turn, r: Rules) => boolean][] = [
    ["the ruler's extra turn", rulerExtraTurn, () => true],
    ['a maze entry (exit and placement)', mazeEntry, (t) => 'from' in t && t.exit !== undefined && t.placement !== undefined],
    // all_adjacent names no victim: the reporter's move to d7 kills it.
    ['a reporter victim', reporterAndKill, (t, r) => 'from' in t && (r.reporter === 'all_adjacent' ? t.to === 'd7' : t.reporterTarget === 'd6')],
    ['a kill with placement', reporterAndKill, (t) => 'from' in t && t.placement !== undefined],
    ['a chief kill', chiefKill, (t) => 'from' in t && t.to === 'f6'],
  ];
  const variants: Rules[] = [
    DEFAULT_RULES,
    { ...DEFAULT_RULES, maze_exit_order: 'act_place_exit', reporter: 'mandatory_single' },
    { ...DEFAULT_RULES, reporter: 'all_adjacent', self_kill: true, encirclement: 'literal_ring' },
  ];

  test.each(special.flatMap(([label, make, has]) => variants.map((rules) => [label, name(rules), make, has, rules] as const)))(
    '%s (%s): candidates legal and present, every level answers legally',
    (_label, _rules, make, has, rules) => {
      const pos = make(rules);
      const legal = new Set(legalTurns(pos).map((t) => makeTurn(t)));
      const candidates = candidateTurns(pos, { placement: 8, exit: 3 });
      for (const t of candidates) expect(legal.has(makeTurn(t))).toBe(true);
      expect(candidates.some((t) => has(t, rules))).toBe(true);
      expect(playTurn(pos, fallbackTurn(pos)).ok).toBe(true);
      for (const level of BOT_LEVELS) {
        const d = chooseTurn(pos, { level, seed: 3, nodes: NODES[level] });
        expect(playTurn(pos, d.turn).ok).toBe(true);
      }
    },
  );

  test('normal and hard take a chief kill', () => {
    const pos = chiefKill();
    for (const level of ['normal', 'hard'] as const) expect(chooseTurn(pos, { level, seed: 1, nodes: 5000 }).turn).toMatchObject({ to: 'f6' });
  });

  test('with nobody to move the fallback is a pass, and no level throws', () => {
    const over = { ...rulerExtraTurn(), toMove: null } as Position;
    expect(fallbackTurn(over)).toEqual({ pass: true });
    for (const level of BOT_LEVELS) expect(chooseTurn(over, { level, seed: 1 }).turn).toEqual({ pass: true });
  });
});
