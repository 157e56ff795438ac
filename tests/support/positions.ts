/** Positions for tests, written as a short list of pieces. */
import { parseRules, setupPosition, type Colour, type Controller, type Kind, type Position, type Rules, type TurnKind } from '@djambi/shared';

const KIND: Record<string, Kind> = { c: 'chief', a: 'assassin', r: 'reporter', d: 'diplomat', n: 'necromobile', m: 'militant' };

/** Options of `position`: the turn state and rules (defaults: 4 players active, Red to move). */
export interface PositionOptions {
  toMove?: Colour;
  active?: Colour[];
  control?: Partial<Record<Colour, Controller>>;
  rules?: Partial<Rules>;
  quiet?: number;
  ply?: number;
  turnKind?: TurnKind;
  cursor?: Colour;
}

/** A position from "Rc a9, bm d4" (colour then kind letter; upper-case colour: alive, lower-case: corpse). */
export function position(list: string, opts: PositionOptions = {}): Position {
  const pieces = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [code, square] = s.split(/\s+/);
      return { colour: code[0].toUpperCase() as Colour, kind: KIND[code[1]], square, alive: code[0] === code[0].toUpperCase() };
    });
  const rules = parseRules({ ...opts.rules });
  if (!rules.ok) throw new Error(rules.error.message);
  const r = setupPosition(
    {
      pieces,
      control: opts.control,
      active: opts.active ?? ['R', 'B', 'Y', 'G'],
      toMove: opts.toMove ?? 'R',
      quiet: opts.quiet,
      ply: opts.ply,
      turnKind: opts.turnKind,
      cursor: opts.cursor,
    },
    rules.value,
  );
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
