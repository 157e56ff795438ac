/** Which pact partners a turn would betray, as the server will judge it (the engine decides). */
import { COLOURS, pactBreaches, type Colour, type Position, type Turn } from '@djambi/shared';
import type { PressModel } from './press.js';

/** The partners of the mover's pacts in force that `turn` would betray. */
export function betrayedPartners(press: Pick<PressModel, 'pactGroups'>, pos: Position, turn: Turn): Colour[] {
  const me = pos.toMove;
  if (!me) return [];
  const bound = new Set<Colour>();
  for (const p of press.pactGroups().inForce) if (p.standing.includes(me)) for (const c of p.standing) if (c !== me) bound.add(c);
  const partners = COLOURS.filter((c) => bound.has(c));
  return [...pactBreaches(pos, turn, me, partners).keys()];
}
