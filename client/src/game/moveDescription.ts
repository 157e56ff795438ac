/**
 * A move-list entry told as a sentence (`Red militant c3×d4 kills Blue assassin, corpse to a5`),
 * built from the engine's effects of the replayed entry, never from a rule of its own. Pure: no
 * DOM, tested in Node.
 */
import { geometryOf, pieces, type Colour, type EliminationCause, type Kind } from '@djambi/shared';
import { S } from '../i18n/strings.js';
import type { TimelineEntry } from './timeline.js';

/** What an entry did, for the marks beside it. */
export const MOVE_MARKS = ['kill', 'displace', 'maze', 'control', 'eliminated'] as const;
export type MoveMark = (typeof MOVE_MARKS)[number];

/** Glyphs of the marks. */
export const MARK_GLYPHS: Record<MoveMark, string> = { kill: '✝', displace: '⇄', maze: '◈', control: '⚑', eliminated: '☠' };

/** A described entry. */
export interface MoveDescription {
  /** The colour that played ('' for a draw). */
  readonly colour: Colour | '';
  /** The moved piece's kind, for its icon (null when no piece moved). */
  readonly kind: Kind | null;
  readonly text: string;
  /** The entry in notation (docs/NOTATION.md), as the move list syncs it. */
  readonly notation: string;
  readonly marks: readonly MoveMark[];
  /** The players this entry eliminated. */
  readonly eliminated: readonly { readonly colour: Colour; readonly cause: EliminationCause; readonly by: Colour | null }[];
}

/** Describe one replayed entry. */
export function describeEntry(entry: TimelineEntry): MoveDescription {
  const { record, effects } = entry;
  const all = pieces(entry.position);
  const g = geometryOf(entry.position);
  const maze = g.names[g.maze];
  const name = (id: number): string => {
    const p = all[id];
    return p ? S.table.piece(p.colour, p.kind) : '?';
  };
  const marks = new Set<MoveMark>();
  const eliminated: { colour: Colour; cause: EliminationCause; by: Colour | null }[] = [];
  const parts: string[] = [];
  let head = '';
  let kind: Kind | null = null;
  let landed = '';
  /** The first clause is the kill by the moved piece: it follows the move without a comma. */
  let killFirst = false;
  for (const e of effects) {
    switch (e.type) {
      case 'move': {
        const p = all[e.piece];
        kind = p ? p.kind : null;
        landed = e.to;
        const occupied = effects.some((x) => (x.type === 'kill' && x.square === e.to) || ((x.type === 'displace' || x.type === 'place') && x.from === e.to));
        head = `${name(e.piece)} ${e.from}${occupied ? '×' : '-'}${e.to}`;
        if (e.to === maze) {
          marks.add('maze');
          if (p?.kind === 'chief') parts.push(S.table.entersMaze);
        }
        break;
      }
      case 'kill':
        marks.add('kill');
        // A chief dies with its player's resignation: the elimination says it.
        if (e.by < 0) break;
        if (parts.length === 0) killFirst = true;
        parts.push(e.square === landed ? S.table.kills(name(e.piece)) : S.table.killsOn(name(e.piece), e.square));
        break;
      case 'place':
        parts.push(S.table.corpseTo(e.to));
        break;
      case 'displace':
        marks.add('displace');
        parts.push(S.table.displacedTo(name(e.piece), e.to));
        break;
      case 'exit':
        marks.add('maze');
        parts.push(S.table.exitsTo(e.to));
        break;
      case 'control':
        marks.add('control');
        parts.push(S.table.armyTo(e.army, e.to === 'frozen' ? S.table.frozen : e.to === 'hostage' ? S.table.hostage : S.table.controlledBy(e.to)));
        break;
      case 'eliminated':
        marks.add('eliminated');
        eliminated.push({ colour: e.colour, cause: e.cause, by: e.by });
        if (record.kind === 'turn' || record.kind === 'pass') parts.push(S.table.out(e.colour, e.cause));
        break;
      default:
        break;
    }
  }
  const colour = record.colour;
  let text: string;
  if (record.kind === 'turn' && head) text = [killFirst ? `${head} ${parts[0]}` : head, ...parts.slice(killFirst ? 1 : 0)].join(', ');
  else if (record.kind === 'pass') text = [colour ? `${S.colour(colour)} ${S.table.passes}` : S.table.passes, ...parts].join(', ');
  else if (record.kind === 'resign') text = S.moves.resign;
  else if (record.kind === 'timeout') text = S.moves.timeout;
  else if (record.kind === 'draw') text = S.status.resultDraw('agreement');
  else text = record.text || record.kind;
  return { colour, kind, text, notation: notationOf(entry), marks: MOVE_MARKS.filter((m) => marks.has(m)), eliminated };
}

/** The entry as the move list syncs it (`c3xd4>a5`, `pass`, `resign`, …). */
function notationOf(entry: TimelineEntry): string {
  const r = entry.record;
  if (r.kind === 'turn' || r.kind === 'pass') return r.text || 'pass';
  return r.kind;
}
