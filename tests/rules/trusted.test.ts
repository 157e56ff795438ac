/**
 * The trusted replay: `applyTrusted` (a turn validated when it was first accepted, applied
 * without the legality search) gives exactly `playTurn`'s position and effects, on thousands of
 * random legal turns under every value of every rule option, and refuses garbage without a throw.
 */
import {
  applyTrusted,
  initialPosition,
  legalTurns,
  mustPass,
  parseRules,
  playTurn,
  RULE_VALUES,
  type Position,
  type Rules,
  type Turn,
  type TurnInput,
} from '@djambi/shared';
import { seeded } from '../support/random.js';

const GAMES_PER_CASE = Number(process.env.TRUSTED_GAMES ?? 3);
const TURN_CAP = 400;
/** Legal turns compared per position (besides the one played). */
const SAMPLES = 3;

const pick = <T>(random: () => number, xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];

/** Random rule options, with `key` forced to `value`. */
function rulesWith(random: () => number, key: string, value: unknown): Rules {
  const r = parseRules({
    players: pick(random, [4, 4, 3, 2] as const),
    layout: pick(random, RULE_VALUES.layout),
    reporter: pick(random, RULE_VALUES.reporter),
    self_kill: random() < 0.3,
    maze_exit_order: pick(random, RULE_VALUES.maze_exit_order),
    encirclement: pick(random, RULE_VALUES.encirclement),
    neutral_pieces_untouchable: random() < 0.7,
    no_progress_rounds: pick(random, [5, 10, 50]),
    [key]: value,
  });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Compares the trusted and the checked application of a legal turn; returns the position after it. */
function same(pos: Position, turn: Turn): Position {
  const checked = playTurn(pos, turn);
  if (!checked.ok) throw new Error(`legalTurns gave an illegal turn ${JSON.stringify(turn)}: ${checked.error.code}`);
  const trusted = applyTrusted(pos, turn);
  expect(trusted).toEqual(checked);
  return checked.value.position;
}

const CASES = Object.entries(RULE_VALUES).flatMap(([key, values]) => values.map((value) => [key, value] as const));
let seed = 0;

test.each(CASES)('applyTrusted equals playTurn with %s = %p', (key, value) => {
  let compared = 0;
  for (let g = 0; g < GAMES_PER_CASE; g++) {
    const random = seeded(1000 + seed++);
    let pos = initialPosition(rulesWith(random, key, value));
    for (let n = 0; n < TURN_CAP && !pos.result; n++) {
      const turns = legalTurns(pos);
      for (let k = 0; k < SAMPLES; k++) same(pos, pick(random, turns));
      compared += SAMPLES + 1;
      pos = same(pos, mustPass(pos) ? { pass: true } : pick(random, turns));
    }
  }
  expect(compared).toBeGreaterThan(GAMES_PER_CASE * 20);
});

test('applyTrusted refuses garbage without a throw and a finished game', () => {
  const pos = initialPosition(rulesWith(seeded(7), 'players', 4));
  const bad: unknown[] = [
    { from: 'z9', to: 'a1' },
    { from: 'a1', to: 'a1' },
    { from: 'e5', to: 'e4' },
    { from: 'a1', to: 'a2', placement: 'j0' },
    { from: 'a1', to: 'a2', exit: 42 },
    { from: 'a1', to: 'a2', reporterTarget: 'x' },
    { pass: false },
  ];
  for (const turn of bad) {
    const res = applyTrusted(pos, turn as TurnInput);
    expect(res.ok).toBe(false);
  }
  const over: Position = { ...pos, result: { kind: 'draw', reason: 'agreement', ranking: [] }, toMove: null };
  const res = applyTrusted(over, { pass: true });
  expect(res.ok ? 'ok' : res.error.code).toBe('game_over');
});
