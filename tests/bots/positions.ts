/** Hand-built positions for the bot tests: the standard start with a few pieces moved. */
import {
  initialPosition,
  pieces,
  setupPosition,
  DEFAULT_RULES,
  type Colour,
  type PositionSetup,
  type Position,
  type Rules,
  type TurnKind,
} from '@djambi/shared';

/** The start position with pieces moved (`{ from: to }`, names) and the turn state set. */
export function fromStart(
  moves: Record<string, string>,
  state: { toMove: Colour; turnKind?: TurnKind; cursor?: Colour; rules?: Rules; dead?: readonly string[] },
): Position {
  const rules = state.rules ?? DEFAULT_RULES;
  const list = pieces(initialPosition(rules)).map((p) => {
    const square = moves[p.square] ?? p.square;
    return { colour: p.colour, kind: p.kind, square, alive: !(state.dead ?? []).includes(square) };
  });
  const setup: PositionSetup = { pieces: list, toMove: state.toMove, turnKind: state.turnKind, cursor: state.cursor };
  const r = setupPosition(setup, rules);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Red rules from the maze and plays its extra turn after Blue's normal turn. */
export const rulerExtraTurn = (rules?: Rules) => fromStart({ a9: 'e5' }, { toMove: 'R', turnKind: 'extra', cursor: 'B', rules });
/** Red rules; Blue's diplomat on e7 can enter the maze (exit and placement choices). */
export const mazeEntry = (rules?: Rules) => fromStart({ a9: 'e5', h8: 'e7' }, { toMove: 'B', cursor: 'B', rules });
/** Red's reporter (on d8) can kill Blue's militant on d6 from d7, and Red's militant on d4 can kill it (two steps, then a placement). */
export const reporterAndKill = (rules?: Rules) => fromStart({ a8: 'd8', g9: 'd6', c8: 'd4' }, { toMove: 'R', rules });
/** Blue's chief on f6 is next to Red's assassin line: Red to move can kill a chief. */
export const chiefKill = (rules?: Rules) => fromStart({ i9: 'f6', b9: 'b6' }, { toMove: 'R', rules });
