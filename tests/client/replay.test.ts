/**
 * The replay model without a browser: a record becomes the move list the session replays,
 * `#ply=` links are read and clamped, stepping stays in range, the after-game press is placed
 * between the moves by its ply, and a malformed record (text or JSON) is an error with its line
 * and column, never a throw.
 */
import { DEFAULT_RULES, initialPosition, makeRecord, parseRecord, parseRules, replayRecord } from '@djambi/shared';
import { movesToRecord } from '../../client/src/game/recordExport.js';
import { eventPositions, importRecord, interleave, lineColumn, parsePlyHash, plyHash, ReplayCursor, replayGame } from '../../client/src/game/replay.js';
import { GameSession } from '../../client/src/game/session.js';
import { readSnapshot } from '../../client/src/game/snapshot.js';

const TEXT = `${makeRecord({ rules: DEFAULT_RULES, events: [] }).split('\n')[0]}\nc7-c6 g7-g6 i3-i5\nc1-d1 resign:B\n`;

describe('a record as a move list', () => {
  test('every event, with its colour and the ply before it', () => {
    const r = importRecord(TEXT);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.moves.map((m) => `${m.colour}:${m.kind}:${m.text}`)).toEqual(['R:turn:c7-c6', 'B:turn:g7-g6', 'Y:turn:i3-i5', 'G:turn:c1-d1', 'B:resign:']);
    expect(r.value.plies).toEqual([0, 1, 2, 3, 4]);
  });

  test('the session replays it to the same final position as the engine', () => {
    const r = importRecord(TEXT);
    const rec = parseRecord(TEXT);
    if (!r.ok || !rec.ok) throw new Error('parse');
    const s = new GameSession();
    s.applySnapshot(readSnapshot({ code: '', phase: 'over', rules: r.value.rules, moves: r.value.moves }));
    const end = replayRecord(rec.value);
    if (!end.ok) throw new Error('replay');
    expect(s.view.replayed).toBe(5);
    expect(s.view.live?.ply).toBe(end.value.ply);
    s.viewMove(0);
    expect(s.view.shown?.ply).toBe(initialPosition().ply);
  });

  test('the JSON form gives the same game, and export round-trips', () => {
    const rec = parseRecord(TEXT);
    if (!rec.ok) throw new Error('parse');
    const fromJson = importRecord(JSON.stringify(rec.value));
    const fromText = importRecord(TEXT);
    if (!fromJson.ok || !fromText.ok) throw new Error('import');
    expect(fromJson.value.moves).toEqual(fromText.value.moves);
    expect(movesToRecord(DEFAULT_RULES, fromText.value.moves)).toEqual(rec.value);
  });

  test('a hex3 record in JSON names its own cells (E1, C1) and gives the text form’s game', () => {
    const rules = parseRules({ board: 'hex3', players: 3 });
    if (!rules.ok) throw new Error('rules');
    const text = `${makeRecord({ rules: rules.value, events: [] }).split('\n')[0]}\nC5-D5 F7-C1 E1xC1>D1 resign:B\n`;
    const rec = parseRecord(text);
    if (!rec.ok) throw new Error(rec.error.message);
    const fromJson = importRecord(JSON.stringify(rec.value));
    const fromText = importRecord(text);
    if (!fromJson.ok || !fromText.ok) throw new Error(`import: ${fromJson.ok ? '' : fromJson.error.message}`);
    expect(fromJson.value.moves).toEqual(fromText.value.moves);
    expect(fromJson.value.moves).toHaveLength(4);
  });
});

describe('#ply links', () => {
  test.each([
    ['#ply=3', 10, 3],
    ['#ply=0', 10, 0],
    ['#ply=37', 10, 10],
    ['#foo=1&ply=4', 10, 4],
    ['#ply=', 10, null],
    ['#ply=-2', 10, null],
    ['#ply=x', 10, null],
    ['', 10, null],
    ['#reply=3', 10, null],
  ] as [string, number, number | null][])('%j of %i moves → %j', (hash, max, n) => {
    expect(parsePlyHash(hash, max)).toBe(n);
  });
  test('a link names its move', () => {
    expect(plyHash(37)).toBe('#ply=37');
    expect(parsePlyHash(plyHash(37), 40)).toBe(37);
  });
});

describe('stepping', () => {
  test('stays between the start and the end', () => {
    const c = new ReplayCursor(3, 1);
    expect(c.step('prev')).toBe(true);
    expect(c.index).toBe(0);
    expect(c.step('prev')).toBe(false);
    expect(c.step('last')).toBe(true);
    expect(c.atEnd).toBe(true);
    expect(c.step('next')).toBe(false);
    expect(c.index).toBe(3);
    c.step('first');
    expect(c.index).toBe(0);
    expect(c.go(99)).toBe(true);
    expect(c.index).toBe(3);
    expect(new ReplayCursor(3, Number.NaN).index).toBe(0);
  });
});

describe('the press between the moves', () => {
  test('an item with ply p comes after p turns and before the next one; order is kept', () => {
    const items = [
      { ply: 0, id: 'a' },
      { ply: 0, id: 'b' },
      { ply: 2, id: 'c' },
      { ply: 2, id: 'd' },
      { ply: 9, id: 'e' },
    ];
    const rows = interleave([0, 1, 2, 3], items).map((r) => (r.kind === 'move' ? `m${r.index}` : `${r.item.id}@${r.after}`));
    expect(rows).toEqual(['a@0', 'b@0', 'm0', 'm1', 'c@2', 'd@2', 'm2', 'm3', 'e@4']);
  });
  test('an off-turn entry (same ply) keeps the press before it', () => {
    const rows = interleave([0, 1, 1, 2], [{ ply: 1 }]).map((r) => (r.kind === 'move' ? `m${r.index}` : `p@${r.after}`));
    expect(rows).toEqual(['m0', 'p@1', 'm1', 'm2', 'm3']);
  });
  test('no press: only the moves', () => {
    expect(interleave([0, 1], [])).toEqual([
      { kind: 'move', index: 0 },
      { kind: 'move', index: 1 },
    ]);
  });
});

describe('import errors', () => {
  test.each([
    ['Djambi players=4\nc7-c6 g7-g6\n  i3-i5 zz9\n', 3, 9, /event 4/],
    ['Djambi players=4 nonsense=yes\nc7-c6\n', 1, 18, /bad rule option/],
    ['Chess\n1. e4 e5\n', 1, 1, /Djambi/],
    // syntactically fine, illegal in play: located by its event
    ['Djambi\nc7-c6 g7-g6\ni3-i9\n', 3, 1, /event 3/],
    ['{"rules": {}, "events": [\n  {"type": "turn", "turn": {"from": "c7", "to": "c6"}},\n  oops\n]}', 3, 3, /JSON/],
  ] as [string, number, number, RegExp][])('%j → line %i, column %i', (text, line, column, re) => {
    const r = importRecord(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatchObject({ line, column });
    expect(r.error.message).toMatch(re);
    // The place is said once, by the page from `line` and `column` (issue 40, bug 9).
    expect(r.error.message).not.toMatch(/line \d|column \d|position \d/);
  });

  test('a tagged record imports, its errors are placed after its tags, and JSON keeps the tags (issue 40, bug 9)', () => {
    const tagged = `[Event "Djambi online"]\n[Red "Ana"]\n${TEXT}`;
    const r = importRecord(tagged);
    expect(r.ok && r.value.record.tags).toEqual({ Event: 'Djambi online', Red: 'Ana' });
    expect(importRecord(`[Event "x"]\nDjambi\nc7-c6 g7-g6\ni3-i9\n`)).toMatchObject({ ok: false, error: { line: 4, column: 1 } });
    const json = importRecord(JSON.stringify({ rules: {}, events: [], tags: { Event: 'e', Red: 'Ana', bad: 3 } }));
    expect(json.ok && json.value.record.tags).toEqual({ Event: 'e', Red: 'Ana' });
    expect(movesToRecord(DEFAULT_RULES, [], { site: 'https://x/g/AB', names: { R: 'Ana' } }).tags).toMatchObject({
      Site: 'https://x/g/AB',
      Red: 'Ana',
      Blue: '?',
      Variant: 'square',
    });
  });

  test.each([
    '',
    '   ',
    '{}',
    '[]',
    '{"rules":{"players":9},"events":[]}',
    '{"rules":{},"events":[{"type":"turn","turn":{"from":"z9","to":"a1"}}]}',
    'null',
    '\u0000',
  ])('%j is an error, not a throw', (text) => {
    expect(() => importRecord(text)).not.toThrow();
    expect(importRecord(text).ok).toBe(false);
  });

  test('positions of events and offsets', () => {
    expect(eventPositions('Djambi\n a b\nc')).toEqual([
      { line: 2, column: 2 },
      { line: 2, column: 4 },
      { line: 3, column: 1 },
    ]);
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
    expect(replayGame({ rules: DEFAULT_RULES, events: [{ type: 'draw' }] }).ok).toBe(true);
  });
});
