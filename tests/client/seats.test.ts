/** The armies nobody sits at, as the seat list shows them: from the rules, through the engine's start position. */
import { parseRules, seatsOf } from '@djambi/shared';
import { hostageArmies } from '../../client/src/game/seats.js';

describe('hostage armies', () => {
  test.each([
    [{ players: 4 }, 'RBYG', ''],
    [{ players: 3 }, 'RBY', 'G'],
    [{ players: 2 }, 'RY', ''],
    [{ board: 'hex3', players: 3 }, 'RBY', ''],
    [{ board: 'hex5', players: 5 }, 'RBYGP', 'W'],
    [{ board: 'hex5', players: 5, hostage_seat: 3 }, 'RBGPW', 'Y'],
    [{ board: 'hex6', players: 6 }, 'RBYGPW', ''],
  ])('%j: seats %s, hostages %j', (input, seats, hostages) => {
    const rules = parseRules(input);
    if (!rules.ok) throw new Error(rules.error.message);
    expect(seatsOf(rules.value).join('')).toBe(seats);
    expect(hostageArmies(rules.value).join('')).toBe(hostages);
  });
});
