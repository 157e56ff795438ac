/**
 * The table during the game, headless: the move list told as sentences from the engine's
 * effects, the turn order (the ruler's extra turn included), the signals a new state calls for
 * (sounds, notices, your turn) and the draw banner.
 */
import { DEFAULT_RULES, initialPosition, makeTurn, parseTurn, playTurn, randomTurn, resign, setupPosition, type Position, type Rules } from '@djambi/shared';
import { describeEntry } from '../../client/src/game/moveDescription.js';
import { GameSession } from '../../client/src/game/session.js';
import { readSnapshot, type GameSnapshot } from '../../client/src/game/snapshot.js';
import { DrawWatch, TableWatcher } from '../../client/src/game/table.js';
import type { TimelineEntry } from '../../client/src/game/timeline.js';
import { upcomingTurns } from '../../client/src/game/turnOrder.js';
import { seeded } from '../support/random.js';

type P = { colour: 'R' | 'B' | 'Y' | 'G'; kind: 'chief' | 'assassin' | 'reporter' | 'diplomat' | 'necromobile' | 'militant'; square: string; alive?: boolean };

function setup(pieces: P[], extra: Record<string, unknown> = {}, rules: Rules = DEFAULT_RULES): Position {
  const r = setupPosition({ toMove: 'R', pieces: pieces.map((p) => ({ ...p, alive: p.alive ?? true })), ...extra }, rules);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Play `text` for the player to move and return the replayed entry. */
function entry(pos: Position, text: string): TimelineEntry {
  const t = parseTurn(text);
  if (!t.ok) throw new Error(t.error.message);
  const r = playTurn(pos, t.value);
  if (!r.ok) throw new Error(`${text}: ${r.error.message}`);
  return { record: { kind: 'turn', colour: pos.toMove!, text }, position: r.value.position, effects: r.value.effects };
}

const CHIEFS: P[] = [
  { colour: 'R', kind: 'chief', square: 'a1' },
  { colour: 'Y', kind: 'chief', square: 'i9' },
  { colour: 'G', kind: 'chief', square: 'a9' },
];

describe('move descriptions', () => {
  test.each([
    {
      name: 'a plain move',
      pieces: [...CHIEFS, { colour: 'B', kind: 'chief', square: 'i1' }, { colour: 'R', kind: 'militant', square: 'c3' }] as P[],
      turn: 'c3-c5',
      text: 'Red militant c3-c5',
      marks: [],
      kind: 'militant',
    },
    {
      name: 'a kill with the corpse placed',
      pieces: [
        ...CHIEFS,
        { colour: 'B', kind: 'chief', square: 'i1' },
        { colour: 'R', kind: 'militant', square: 'c3' },
        { colour: 'B', kind: 'assassin', square: 'd4' },
      ] as P[],
      turn: 'c3xd4>a5',
      text: 'Red militant c3×d4 kills Blue assassin, corpse to a5',
      marks: ['kill'],
      kind: 'militant',
    },
    {
      name: 'a displacement by a diplomat',
      pieces: [
        ...CHIEFS,
        { colour: 'B', kind: 'chief', square: 'i1' },
        { colour: 'R', kind: 'diplomat', square: 'g3' },
        { colour: 'B', kind: 'militant', square: 'g4' },
      ] as P[],
      turn: 'g3xg4>h1',
      text: 'Red diplomat g3×g4, Blue militant to h1',
      marks: ['displace'],
      kind: 'diplomat',
    },
    {
      name: 'a chief entering the maze',
      pieces: [...CHIEFS.slice(1), { colour: 'R', kind: 'chief', square: 'c3' }, { colour: 'B', kind: 'chief', square: 'i1' }] as P[],
      turn: 'c3-e5',
      text: 'Red chief c3-e5, enters the maze',
      marks: ['maze'],
      kind: 'chief',
    },
    {
      name: 'a chief killed: the army changes hands and its player is out',
      pieces: [
        ...CHIEFS,
        { colour: 'R', kind: 'militant', square: 'c3' },
        { colour: 'B', kind: 'chief', square: 'd4' },
        { colour: 'B', kind: 'militant', square: 'h8' },
      ] as P[],
      turn: 'c3xd4>a5',
      text: 'Red militant c3×d4 kills Blue chief, Blue army to Red, Blue out (chief killed), corpse to a5',
      marks: ['kill', 'control', 'eliminated'],
      kind: 'militant',
    },
  ])('$name', ({ pieces, turn, text, marks, kind }) => {
    const d = describeEntry(entry(setup(pieces), turn));
    expect(d.text).toBe(text);
    expect(d.marks).toEqual(marks);
    expect(d.kind).toBe(kind);
    expect(d.notation).toBe(turn);
    expect(d.colour).toBe('R');
  });

  test('an elimination is listed with its cause', () => {
    const pos = setup([
      ...CHIEFS,
      { colour: 'R', kind: 'militant', square: 'c3' },
      { colour: 'B', kind: 'chief', square: 'd4' },
      { colour: 'B', kind: 'militant', square: 'h8' },
    ]);
    expect(describeEntry(entry(pos, 'c3xd4>a5')).eliminated).toEqual([{ colour: 'B', cause: 'killed', by: 'R' }]);
  });

  test('a resignation reads as one, without a kill clause', () => {
    const pos = initialPosition(DEFAULT_RULES);
    const r = resign(pos, 'B');
    if (!r.ok) throw new Error(r.error.message);
    const d = describeEntry({ record: { kind: 'resign', colour: 'B', text: '' }, position: r.value.position, effects: r.value.effects });
    expect(d.text).toBe('resigns');
    expect(d.marks).toContain('eliminated');
    expect(d.eliminated[0]).toMatchObject({ colour: 'B', cause: 'resigned' });
  });

  test('every turn of a random game is described without a throw, naming its squares', () => {
    const random = seeded(11);
    let pos = initialPosition(DEFAULT_RULES);
    for (let i = 0; i < 200 && !pos.result; i++) {
      const text = makeTurn(randomTurn(pos, random), pos);
      const e = text === 'pass' ? null : entry(pos, text);
      if (e) {
        const d = describeEntry(e);
        const t = parseTurn(text);
        if (t.ok && 'from' in t.value) expect(d.text).toContain(t.value.from);
        expect(d.text.length).toBeGreaterThan(0);
        pos = e.position;
      } else {
        const r = playTurn(pos, { pass: true });
        if (!r.ok) throw new Error(r.error.message);
        pos = r.value.position;
      }
    }
  });
});

describe('turn order', () => {
  test('four players in seat order from the start', () => {
    expect(upcomingTurns(initialPosition(DEFAULT_RULES), 5)).toEqual([
      { colour: 'R', kind: 'normal' },
      { colour: 'B', kind: 'normal' },
      { colour: 'Y', kind: 'normal' },
      { colour: 'G', kind: 'normal' },
      { colour: 'R', kind: 'normal' },
    ]);
  });

  test('a ruler on the maze plays an extra turn after every other player', () => {
    // Red's chief rules from the maze; Blue is to move.
    const pos = setup(
      [
        { colour: 'R', kind: 'chief', square: 'e5' },
        { colour: 'B', kind: 'chief', square: 'i1' },
        { colour: 'Y', kind: 'chief', square: 'i9' },
        { colour: 'G', kind: 'chief', square: 'a9' },
      ],
      { toMove: 'B', cursor: 'B' },
    );
    const order = upcomingTurns(pos, 6);
    expect(order[0]).toEqual({ colour: 'B', kind: 'normal' });
    expect(order[1]).toEqual({ colour: 'R', kind: 'extra' });
    expect(order.map((t) => t.colour)).toEqual(['B', 'R', 'Y', 'R', 'G', 'R']);
  });

  test('no turns once the game is over', () => {
    let pos = initialPosition({ ...DEFAULT_RULES, players: 2 });
    const r = resign(pos, 'Y');
    if (!r.ok) throw new Error(r.error.message);
    pos = r.value.position;
    expect(upcomingTurns(pos, 4)).toEqual([]);
  });
});

/** A synced state from a move list (strings as the server syncs them). */
function snap(moves: readonly string[], extra: Record<string, unknown> = {}): GameSnapshot {
  return readSnapshot({ phase: 'playing', moves, version: moves.length, active: ['R', 'B', 'Y', 'G'], ...extra });
}

describe('table signals', () => {
  const pos0 = initialPosition(DEFAULT_RULES);
  const moves: string[] = [];
  let pos = pos0;
  const random = seeded(3);
  // Four quiet moves (Red, Blue, Yellow, Green).
  while (moves.length < 4) {
    const t = randomTurn(pos, random);
    const r = playTurn(pos, t);
    if (!r.ok) throw new Error(r.error.message);
    if (!r.value.effects.every((e) => e.type === 'move')) continue;
    moves.push(`${pos.toMove} ${makeTurn(t, pos)}`);
    pos = r.value.position;
  }

  test('the first view signals nothing; a move by another player sounds; it becoming mine says so', () => {
    const session = new GameSession();
    session.setSeat({ colour: 'Y' } as never);
    const w = new TableWatcher();
    session.applySnapshot(snap(moves.slice(0, 1)));
    expect(w.take(session.view)).toEqual({ sound: null, notices: [], yourTurn: false });
    // Again the same view (a clock tick): nothing.
    expect(w.take(session.view).sound).toBeNull();
    session.applySnapshot(snap(moves.slice(0, 2)));
    expect(w.take(session.view)).toEqual({ sound: 'turn', notices: [], yourTurn: true });
    // My own move makes no sound.
    session.applySnapshot(snap(moves.slice(0, 3)));
    expect(w.take(session.view)).toEqual({ sound: null, notices: [], yourTurn: false });
    session.applySnapshot(snap(moves.slice(0, 4)));
    expect(w.take(session.view)).toEqual({ sound: 'move', notices: [], yourTurn: false });
  });

  test('a resignation is a notice to all', () => {
    const session = new GameSession();
    const w = new TableWatcher();
    session.applySnapshot(snap(moves.slice(0, 2)));
    w.take(session.view);
    session.applySnapshot(snap([...moves.slice(0, 2), 'B resign']));
    const s = w.take(session.view);
    expect(s.notices).toEqual([{ kind: 'resigned', colour: 'B', cause: 'resigned' }]);
  });

  test('a kill sounds as a kill', () => {
    const session = new GameSession();
    const w = new TableWatcher();
    // Replay a random game until a kill, then check the signal of that entry.
    const random = seeded(5);
    let p = initialPosition(DEFAULT_RULES);
    const list: string[] = [];
    let killAt = -1;
    for (let i = 0; i < 300 && killAt < 0 && !p.result; i++) {
      const t = randomTurn(p, random);
      list.push(`${p.toMove} ${makeTurn(t, p)}`);
      const r = playTurn(p, t);
      if (!r.ok) throw new Error(r.error.message);
      if (r.value.effects.some((e) => e.type === 'kill')) killAt = i;
      p = r.value.position;
    }
    expect(killAt).toBeGreaterThan(0);
    session.applySnapshot(snap(list.slice(0, killAt)));
    w.take(session.view);
    session.applySnapshot(snap(list.slice(0, killAt + 1)));
    expect(w.take(session.view).sound).toBe('kill');
  });
});

describe('draw banner', () => {
  const base = { seats: {}, active: ['R', 'B', 'Y'] };

  test('an open offer shows who accepted and who is awaited; the active who have not accepted may answer', () => {
    const d = new DrawWatch();
    const s = snap([], { ...base, drawOffer: { id: 3, by: 'R', accepted: 'R' } });
    expect(d.view(s, 'B')).toEqual({ kind: 'offer', id: 3, by: 'R', accepted: ['R'], waiting: ['B', 'Y'], canAnswer: true });
    expect(d.view(s, 'R')).toMatchObject({ kind: 'offer', canAnswer: false });
    expect(d.view(s, null)).toMatchObject({ kind: 'offer', canAnswer: false });
    // An eliminated seat does not answer.
    expect(d.view(s, 'G')).toMatchObject({ kind: 'offer', canAnswer: false });
  });

  test('a decline names who declined until dismissed or a new offer opens', () => {
    const d = new DrawWatch();
    expect(d.receive('draw', { event: 'declined', by: 'Y', offer: { id: 3, by: 'R', accepted: ['R'], ply: 4 } })).toBe(true);
    const closed = snap([], base);
    expect(d.view(closed, 'R')).toEqual({ kind: 'declined', id: 3, by: 'Y', offerBy: 'R' });
    d.dismiss();
    expect(d.view(closed, 'R')).toEqual({ kind: 'none' });
    d.receive('draw', { event: 'declined', by: 'Y', offer: { id: 3, by: 'R', accepted: ['R'], ply: 4 } });
    expect(d.view(snap([], { ...base, drawOffer: { id: 4, by: 'B', accepted: 'B' } }), 'R')).toMatchObject({ kind: 'offer', id: 4 });
    expect(d.view(closed, 'R')).toEqual({ kind: 'none' });
  });

  // Garbage never gets here: the connection drops what its shared schema refuses (tests/client/press.test.ts).
  test('other messages change nothing', () => {
    const d = new DrawWatch();
    expect(d.receive('draw', { event: 'offered', by: 'R', offer: { id: 1, by: 'R', accepted: ['R'], ply: 4 } })).toBe(false);
    expect(d.receive('draw', { event: 'lapsed', by: null, offer: { id: 1, by: 'R', accepted: ['R'], ply: 4 } })).toBe(false);
    expect(d.receive('press_unread', { channel: 'table', readUpTo: 1, unread: 0 })).toBe(false);
    expect(d.view(snap([], base), 'R')).toEqual({ kind: 'none' });
    expect(d.view(snap([], { ...base, phase: 'over', drawOffer: { id: 1, by: 'R', accepted: 'R' } }), 'B')).toEqual({ kind: 'none' });
  });
});
