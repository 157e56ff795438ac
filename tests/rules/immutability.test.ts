/**
 * Positions are values: a new position shares the arrays a turn did not change with the one it
 * came from (`alive`, `control`), so no engine call may ever write into the position it is
 * given. Checked on seeded random games under every encirclement and reporter option, with
 * resignations, draws by agreement and refused turns; and the arrays the engine hands out are
 * the caller's own.
 */
import {
  activePlayers,
  applyTrusted,
  drawByAgreement,
  initialPosition,
  legalTurns,
  mustPass,
  parseRules,
  playTurn,
  type Position,
  RULE_VALUES,
  randomTurn,
  resign,
  type Rules,
} from '@djambi/shared';
import { seeded } from '../support/random.js';

const GAMES_PER_CASE = 4;
const TURN_CAP = 600;

/** Everything a position holds, as text. */
const snapshot = (pos: Position): string =>
  JSON.stringify({ ...pos, army: Array.from(pos.army), kind: Array.from(pos.kind) }, (_, v) => (v === undefined ? null : v));

const cases: [string, Partial<Rules>][] = [
  ...RULE_VALUES.encirclement.map((encirclement): [string, Partial<Rules>] => [`encirclement=${encirclement}`, { encirclement }]),
  ...RULE_VALUES.reporter.map((reporter): [string, Partial<Rules>] => [`reporter=${reporter}, 3 players`, { reporter, players: 3 }]),
  ['self_kill, 2 players', { self_kill: true, players: 2 }],
];

describe('no engine call changes the position it is given', () => {
  test.each(cases)('%s', (_, options) => {
    const rules = parseRules(options);
    if (!rules.ok) throw new Error(rules.error.message);
    for (let g = 0; g < GAMES_PER_CASE; g++) {
      const random = seeded(4100 + g);
      let pos = initialPosition(rules.value);
      for (let n = 0; n < TURN_CAP && !pos.result; n++) {
        const before = snapshot(pos);
        const turn = randomTurn(pos, random);
        const played = playTurn(pos, turn);
        expect(played.ok).toBe(true);
        if (!played.ok) return;
        applyTrusted(pos, turn);
        playTurn(pos, { from: 'e5', to: 'a1' });
        drawByAgreement(pos);
        for (const colour of activePlayers(pos)) resign(pos, colour);
        mustPass(played.value.position);
        legalTurns(played.value.position);
        expect(snapshot(pos)).toBe(before);
        pos = played.value.position;
      }
    }
  });
});

test('activePlayers gives a new array each time', () => {
  const pos = initialPosition();
  const first = activePlayers(pos);
  first.pop();
  expect(activePlayers(pos)).toEqual(['R', 'B', 'Y', 'G']);
  expect(activePlayers(pos)).not.toBe(activePlayers(pos));
});
