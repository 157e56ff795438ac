/**
 * Betrayal detection: what a turn does to other players, judged from the engine's effects and
 * the control of the armies before the turn. The server records betrayals of pacts with
 * `hostileActs`; the client asks `pactBreaches` before sending a turn, so its warning says
 * exactly what the server will record (docs/PROTOCOL.md, "Pacts").
 */
import { COLOUR_LETTERS, controllerOf, type Position } from './position.js';
import type { BetrayalAct } from './protocol.js';
import { playTurn } from './turn.js';
import type { Colour, Effect, Turn } from './types.js';

/**
 * What the mover's turn did to pieces controlled by other players (controller judged in `before`)
 * and to other players' chiefs (encirclement caused by the mover): victim → acts.
 */
export function hostileActs(before: Position, effects: readonly Effect[], mover: Colour): Map<Colour, BetrayalAct[]> {
  const out = new Map<Colour, BetrayalAct[]>();
  const add = (victim: Colour, act: BetrayalAct) => {
    const acts = out.get(victim) ?? [];
    if (!acts.includes(act)) acts.push(act);
    out.set(victim, acts);
  };
  for (const e of effects) {
    if ((e.type === 'kill' && e.by >= 0) || e.type === 'displace') {
      const army = before.army[e.piece];
      if (army === undefined) continue;
      const controller = controllerOf(before, COLOUR_LETTERS[army]);
      if (controller === null || controller === 'frozen' || controller === 'hostage' || controller === mover) continue;
      add(controller, e.type);
    } else if (e.type === 'eliminated' && e.cause === 'encircled' && e.by === mover && e.colour !== mover) {
      add(e.colour, 'encircle');
    }
  }
  return out;
}

/**
 * The pacts a candidate turn would break: plays `turn` on `before` with the engine and returns,
 * for each of `partners` (the players bound with `mover` by a pact in force), the hostile acts
 * the turn commits against them, in `partners` order. Empty when the turn harms no partner,
 * is not `mover`'s to play or is not legal (the server refuses it, so records nothing).
 */
export function pactBreaches(before: Position, turn: Turn, mover: Colour, partners: readonly Colour[]): Map<Colour, BetrayalAct[]> {
  const out = new Map<Colour, BetrayalAct[]>();
  if (partners.length === 0 || before.toMove !== mover) return out;
  const played = playTurn(before, turn);
  if (!played.ok) return out;
  const acts = hostileActs(before, played.value.effects, mover);
  for (const partner of partners) {
    const what = partner === mover ? undefined : acts.get(partner);
    if (what && !out.has(partner)) out.set(partner, what);
  }
  return out;
}
