/** The live game's move list as a game record, for export from the game page (no import code here: that is the replay chunk's). */
import { boardOf, parseTurn, recordTags, type GameRecord, type RecordEvent, type RecordInfo, type Rules } from '@djambi/shared';
import type { MoveRecord } from './snapshot.js';

/**
 * A move list (the room's `moves`) as a game record, for export; entries that do not read are
 * left out. With `info` (the game's address, its players' names), the record carries its tags.
 */
export function movesToRecord(rules: Rules, moves: readonly MoveRecord[], info?: RecordInfo): GameRecord {
  const events: RecordEvent[] = [];
  for (const m of moves) {
    if (m.kind === 'draw') events.push({ type: 'draw' });
    else if ((m.kind === 'resign' || m.kind === 'timeout') && m.colour)
      events.push({ type: 'resign', colour: m.colour, ...(m.kind === 'timeout' ? { timeout: true } : {}) });
    else if (m.kind === 'pass') events.push({ type: 'turn', turn: { pass: true } });
    else if (m.kind === 'turn') {
      const t = parseTurn(m.text, boardOf(rules));
      if (t.ok) events.push({ type: 'turn', turn: t.value });
    }
  }
  return info ? { rules, events, tags: recordTags({ rules, events }, info) } : { rules, events };
}
