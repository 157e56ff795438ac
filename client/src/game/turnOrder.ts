/**
 * Who plays next, and how: the engine's own turn order (RULES.md, `nextTurn`) run forward
 * from the live position, assuming nobody is eliminated and the ruler stays (the seat panel's
 * "turn order"). Pure, tested in Node.
 */
import { COLOURS, nextTurn, ruler, type Colour, type Position, type TurnKind } from '@djambi/shared';

/** One upcoming turn. */
export interface UpcomingTurn {
  readonly colour: Colour;
  readonly kind: TurnKind;
}

/** The turn being played, then the next `count - 1`; empty once the game is over. */
export function upcomingTurns(pos: Position, count: number): UpcomingTurn[] {
  if (pos.result || pos.toMove === null) return [];
  const k = (() => {
    const r = ruler(pos);
    return r ? COLOURS.indexOf(r) : -1;
  })();
  const out: UpcomingTurn[] = [{ colour: pos.toMove, kind: pos.turnKind }];
  let p = COLOURS.indexOf(pos.toMove);
  let normal = pos.turnKind === 'normal';
  let cursor = COLOURS.indexOf(pos.cursor);
  while (out.length < count) {
    const n = nextTurn(p, normal, cursor, pos.activeMask, k);
    if (n.player < 0) break;
    out.push({ colour: COLOURS[n.player], kind: n.normal ? 'normal' : 'extra' });
    p = n.player;
    normal = n.normal;
    cursor = n.cursor;
  }
  return out;
}
