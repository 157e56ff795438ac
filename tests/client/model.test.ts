/** Board orientation, the state snapshot and the replayed timeline, without a browser. */
import { initialPosition, makeFen, makeTurn, playTurn, randomTurn, DEFAULT_RULES, type Colour, type Position } from '@djambi/shared';
import { cellOf, edgeLabels, fileRank, squareAt } from '../../client/src/game/orientation.js';
import { parseCode } from '../../client/src/ui/home.js';
import { readMove, readSnapshot, type MoveRecord } from '../../client/src/game/snapshot.js';
import { Timeline } from '../../client/src/game/timeline.js';
import { seeded } from '../support/random.js';

describe('orientation', () => {
  const corners: Partial<Record<Colour, string>> = { R: 'a9', B: 'i9', Y: 'i1', G: 'a1' };

  test.each(Object.entries(corners))('%s sees its corner %s at the bottom left', (view, corner) => {
    expect(cellOf(corner, view as Colour)).toEqual({ col: 0, row: 8 });
  });

  test.each(['R', 'B', 'Y', 'G'] as Colour[])('every square maps to one cell and back for %s', (view) => {
    const seen = new Set<string>();
    for (const f of 'abcdefghi') {
      for (let r = 1; r <= 9; r++) {
        const sq = `${f}${r}`;
        const cell = cellOf(sq, view)!;
        expect(squareAt(cell, view)).toBe(sq);
        seen.add(`${cell.col},${cell.row}`);
      }
    }
    expect(seen.size).toBe(81);
    expect(cellOf('e5', view)).toEqual({ col: 4, row: 4 });
  });

  test('views are rotations: neighbours stay neighbours', () => {
    for (const view of ['R', 'B', 'Y', 'G'] as Colour[]) {
      const a = cellOf('c3', view)!;
      const b = cellOf('c4', view)!;
      expect(Math.abs(a.col - b.col) + Math.abs(a.row - b.row)).toBe(1);
    }
  });

  test('edge labels follow the rotation', () => {
    expect(edgeLabels('G')).toEqual({ bottom: [...'abcdefghi'], left: ['9', '8', '7', '6', '5', '4', '3', '2', '1'] });
    expect(edgeLabels('R').bottom).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1']);
    expect(edgeLabels('R').left).toEqual([...'ihgfedcba']);
    expect(edgeLabels('B').bottom).toEqual([...'ihgfedcba']);
  });

  test('bad input gives null', () => {
    expect(cellOf('j1', 'R')).toBeNull();
    expect(cellOf('a0', 'R')).toBeNull();
    expect(squareAt({ col: 9, row: 0 }, 'R')).toBeNull();
    expect(squareAt({ col: -1, row: 0 }, 'R')).toBeNull();
    expect(fileRank('a10')).toBeNull();
    expect(fileRank('')).toBeNull();
  });

  test('file and rank come from the engine', () => {
    expect(fileRank('a1')).toEqual({ file: 0, rank: 1 });
    expect(fileRank('i9')).toEqual({ file: 8, rank: 9 });
    expect(fileRank('e5')).toEqual({ file: 4, rank: 5 });
  });
});

describe('room code input', () => {
  test('a code or a game link is read with the shared alphabet', () => {
    expect(parseCode('abc-def')).toBe('ABCDEF');
    expect(parseCode('https://djambi.example/g/abcdef')).toBe('ABCDEF');
    expect(parseCode('ABCDE0')).toBeNull();
  });
});

describe('snapshot', () => {
  test('reads a decoded state and tolerates junk', () => {
    const snap = readSnapshot({
      code: 'ABCDEF',
      phase: 'playing',
      rules: { players: 3, layout: 'mirror', reporter: '' },
      seats: { R: { colour: 'R', name: 'ann', taken: true, presence: 'away', since: 5 }, X: { name: 'bad' } },
      pieces: [
        { id: 0, colour: 'R', kind: 'chief', square: 'a9', alive: true },
        { id: 1, colour: 'Q', kind: 'chief', square: 'a8' },
      ],
      moves: [{ kind: 'turn', colour: 'R', text: 'c7-d6' }],
      lastTurn: { kind: 'turn', from: 'c7', to: 'd6', placement: '', exit: '', reporterTarget: '' },
      result: { kind: '' },
      drawOffer: { by: '' },
      control: { R: 'R', B: 'frozen', Z: 'x' },
      active: ['R', 'B', 'nope'],
    });
    expect(snap.phase).toBe('playing');
    expect(snap.rules.players).toBe(3);
    expect(snap.rules.reporter).toBe(DEFAULT_RULES.reporter);
    expect(snap.seats).toHaveLength(1);
    expect(snap.seats[0]).toMatchObject({ colour: 'R', name: 'ann', presence: 'away', since: 5 });
    expect('pieces' in snap).toBe(false);
    expect('lastTurn' in snap).toBe(false);
    expect(snap.control).toEqual({ R: 'R', B: 'frozen' });
    expect(snap.active).toEqual(['R', 'B']);
    expect(snap.result).toBeNull();
    expect(snap.drawOffer).toBeNull();
    expect(readSnapshot(null).phase).toBe('waiting');
  });

  test('bot seats and a bot standing in for an absent player are read as such', () => {
    const snap = readSnapshot({
      seats: {
        R: { colour: 'R', name: 'ann', taken: true, presence: 'away', standIn: true },
        B: { colour: 'B', name: 'Blue (bot, normal)', taken: true, presence: 'bot' },
      },
    });
    expect(snap.seats[0]).toMatchObject({ presence: 'away', standIn: true });
    expect(snap.seats[1]).toMatchObject({ presence: 'bot', standIn: false });
  });
});

describe('move list', () => {
  test('reads the strings the server syncs, and objects', () => {
    expect(['R c7-c5', 'B d5xd4>a5', 'Y pass', 'G resign', 'B timeout', 'draw', { kind: 'turn', colour: 'R', text: 'a1-a2' }, 42].map(readMove)).toEqual([
      { kind: 'turn', colour: 'R', text: 'c7-c5' },
      { kind: 'turn', colour: 'B', text: 'd5xd4>a5' },
      { kind: 'pass', colour: 'Y', text: 'pass' },
      { kind: 'resign', colour: 'G', text: '' },
      { kind: 'timeout', colour: 'B', text: '' },
      { kind: 'draw', colour: '', text: '' },
      { kind: 'turn', colour: 'R', text: 'a1-a2' },
      { kind: '', colour: '', text: '' },
    ]);
  });

  test('a synced move list replays in the timeline', () => {
    let pos = initialPosition();
    const random = seeded(11);
    const synced: string[] = [];
    for (let i = 0; i < 12; i++) {
      const turn = randomTurn(pos, random);
      synced.push(`${pos.toMove} ${makeTurn(turn, pos)}`);
      const res = playTurn(pos, turn);
      if (!res.ok) throw new Error(res.error.message);
      pos = res.value.position;
    }
    synced.push(`${pos.toMove} resign`);
    const snap = readSnapshot({ moves: synced });
    const tl = new Timeline();
    expect(tl.sync(DEFAULT_RULES, snap.moves)).toHaveLength(13);
    expect(makeFen(tl.positionAfter(12))).toBe(makeFen(pos));
  });
});

describe('timeline', () => {
  function game(n: number, seed: number): { moves: MoveRecord[]; positions: Position[] } {
    const random = seeded(seed);
    let pos = initialPosition();
    const moves: MoveRecord[] = [];
    const positions = [pos];
    for (let i = 0; i < n && !pos.result; i++) {
      const turn = randomTurn(pos, random);
      const colour = pos.toMove!;
      const res = playTurn(pos, turn);
      if (!res.ok) throw new Error(res.error.message);
      moves.push({ kind: 'pass' in turn ? 'pass' : 'turn', colour, text: makeTurn(turn, pos) });
      pos = res.value.position;
      positions.push(pos);
    }
    return { moves, positions };
  }

  test('replays the move list incrementally with the same positions and effects', () => {
    const { moves, positions } = game(40, 7);
    const tl = new Timeline();
    expect(tl.sync(DEFAULT_RULES, moves.slice(0, 10))).toHaveLength(10);
    const added = tl.sync(DEFAULT_RULES, moves);
    expect(added).toHaveLength(moves.length - 10);
    expect(tl.length).toBe(moves.length);
    for (let i = 0; i <= moves.length; i++) expect(makeFen(tl.positionAfter(i))).toBe(makeFen(positions[i]));
    expect(added[0].effects.length).toBeGreaterThan(0);
    expect(tl.sync(DEFAULT_RULES, moves)).toEqual([]);
  });

  test('a different history is rebuilt from the start', () => {
    const a = game(12, 1).moves;
    const b = game(12, 2).moves;
    const tl = new Timeline();
    tl.sync(DEFAULT_RULES, a);
    const added = tl.sync(DEFAULT_RULES, b);
    expect(added).toHaveLength(b.length);
  });

  test('an entry that cannot be replayed stops the replay without throwing', () => {
    const { moves } = game(6, 3);
    const broken = [...moves.slice(0, 3), { kind: 'turn', colour: 'R' as const, text: 'a1-a1' }, ...moves.slice(3)];
    const tl = new Timeline();
    expect(tl.sync(DEFAULT_RULES, broken)).toHaveLength(3);
    expect(tl.length).toBe(3);
    expect(tl.positionAfter(10)).toBe(tl.positionAfter(3));
  });

  test('resignations are replayed', () => {
    const { moves } = game(4, 5);
    const tl = new Timeline();
    const added = tl.sync(DEFAULT_RULES, [...moves, { kind: 'resign', colour: 'G', text: '' }]);
    expect(added).toHaveLength(moves.length + 1);
    expect(tl.positionAfter(moves.length + 1).eliminations.map((e: { colour: Colour }) => e.colour)).toContain('G');
  });
});
