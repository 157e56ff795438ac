/**
 * The headless game session, without a browser: snapshots built from a real engine game (the
 * move list as the server syncs it) give the live position, the history, the last-move squares
 * and the effects to animate; the schema's `pieces`, `lastTurn` and `fen` are never read.
 */
import { DEFAULT_RULES, initialPosition, makeFen, makeTurn, pieces, playTurn, randomTurn, type Position } from '@djambi/shared';
import { GameSession, turnSquares } from '../../client/src/game/session.js';
import { readMove, readSnapshot, type GameSnapshot } from '../../client/src/game/snapshot.js';
import { seeded } from '../support/random.js';

/** A seeded game: the move-list strings (`R c7-c5`) and the positions after each. */
function game(turns: number, seed = 7): { moves: string[]; positions: Position[] } {
  const random = seeded(seed);
  let pos = initialPosition(DEFAULT_RULES);
  const moves: string[] = [];
  const positions = [pos];
  for (let i = 0; i < turns; i++) {
    const turn = randomTurn(pos, random);
    moves.push(`${pos.toMove} ${makeTurn(turn, pos)}`);
    const res = playTurn(pos, turn);
    if (!res.ok) throw new Error(res.error.message);
    pos = res.value.position;
    positions.push(pos);
  }
  return { moves, positions };
}

/** A synced state with only the move list (plus junk board fields the session must ignore). */
function snapshot(moves: readonly string[], extra: Record<string, unknown> = {}): GameSnapshot {
  return readSnapshot({
    phase: 'playing',
    moves,
    version: moves.length,
    pieces: [{ id: 0, colour: 'R', kind: 'chief', square: 'e5', alive: true }],
    lastTurn: { kind: 'turn', from: 'a1', to: 'a2' },
    fen: 'junk',
    ...extra,
  });
}

describe('game session', () => {
  const { moves, positions } = game(12);

  test('before any state there is nothing to show', () => {
    const v = new GameSession().view;
    expect(v.live).toBeNull();
    expect(v.pieces).toEqual([]);
    expect(v.fen).toBe('');
    expect(v.phase).toBe('');
    expect(v.link.kind).toBe('connecting');
  });

  test('the live position is the move list replayed, not the schema board', () => {
    const session = new GameSession();
    const up = session.applySnapshot(snapshot(moves));
    expect(up.first).toBe(true);
    expect(up.added).toHaveLength(12);
    expect(up.animate).toBeNull();
    const v = session.view;
    expect(v.fen).toBe(makeFen(positions[12]));
    expect(v.pieces).toEqual(pieces(positions[12]));
    expect(v.shown).toBe(v.live);
    expect(v.historyIndex).toBeNull();
    expect(v.toMove).toBe(positions[12].toMove);
    expect(v.lastMove).toEqual(turnSquares(readMove(moves[11])));
    expect(v.lastMove.length).toBeGreaterThanOrEqual(2);
  });

  test('a new turn gives its effects to animate; a catch-up does not', () => {
    const session = new GameSession();
    session.applySnapshot(snapshot(moves.slice(0, 10)));
    const up = session.applySnapshot(snapshot(moves.slice(0, 11)));
    expect(up.first).toBe(false);
    expect(up.versionChanged).toBe(true);
    expect(up.added).toHaveLength(1);
    expect(up.animate).toEqual(up.added[0].effects);
    expect(up.animate!.length).toBeGreaterThan(0);
    expect(session.view.fen).toBe(makeFen(positions[11]));
    const same = session.applySnapshot(snapshot(moves.slice(0, 11)));
    expect(same.added).toHaveLength(0);
    expect(same.animate).toBeNull();
    expect(same.versionChanged).toBe(false);
  });

  test('the seat decides whose turn is mine', () => {
    const session = new GameSession();
    session.applySnapshot(snapshot(moves.slice(0, 4)));
    const toMove = positions[4].toMove!;
    session.setSeat({ colour: toMove, seatKey: 'k' });
    expect(session.view.myTurn).toBe(true);
    expect(session.view.mySeat).toBe(toMove);
    session.setSeat(null);
    expect(session.view.myTurn).toBe(false);
    session.applySnapshot(snapshot(moves.slice(0, 4), { phase: 'waiting' }));
    expect(session.view.toMove).toBeNull();
    expect(session.view.started).toBe(false);
  });

  test('history: stepping back shows earlier positions and their last move; live turns do not animate there', () => {
    const session = new GameSession();
    session.applySnapshot(snapshot(moves.slice(0, 10)));
    expect(session.step('prev')).toBe(true);
    expect(session.view.historyIndex).toBe(9);
    expect(makeFen(session.view.shown!)).toBe(makeFen(positions[9]));
    expect(session.view.lastMove).toEqual(turnSquares(readMove(moves[8])));
    session.step('first');
    expect(session.view.historyIndex).toBe(0);
    expect(session.view.pieces).toEqual(pieces(positions[0]));
    expect(session.view.lastMove).toEqual([]);
    session.step('prev');
    expect(session.view.historyIndex).toBe(0);
    session.step('next');
    expect(session.view.historyIndex).toBe(1);
    // A new turn while looking back: the live position moves on, the board stays.
    const up = session.applySnapshot(snapshot(moves.slice(0, 11)));
    expect(up.animate).toBeNull();
    expect(session.view.fen).toBe(makeFen(positions[11]));
    expect(makeFen(session.view.shown!)).toBe(makeFen(positions[1]));
    session.step('last');
    expect(session.view.historyIndex).toBeNull();
    session.viewMove(5);
    expect(session.view.historyIndex).toBe(5);
    session.viewMove(11);
    expect(session.view.historyIndex).toBeNull();
  });

  test('a resignation ends the replay with no highlight', () => {
    const session = new GameSession();
    const who = positions[12].toMove!;
    session.applySnapshot(snapshot([...moves, `${who} resign`]));
    const v = session.view;
    expect(v.replayed).toBe(13);
    expect(v.lastMove).toEqual([]);
    expect(v.live!.eliminations.some((e) => e.colour === who)).toBe(true);
  });

  test('the link: back after a drop is said once', () => {
    const session = new GameSession();
    expect(session.setLink({ kind: 'connected' })).toBe(false);
    expect(session.setLink({ kind: 'retrying' })).toBe(false);
    expect(session.hadDrop).toBe(true);
    expect(session.setLink({ kind: 'connected' })).toBe(true);
    expect(session.hadDrop).toBe(false);
    expect(session.setLink({ kind: 'connected' })).toBe(false);
  });
});

describe('the link down (issue 40, bug 7)', () => {
  test('the clocks stop at the time the link dropped and the view says the link is down, until it is back', () => {
    const s = new GameSession();
    s.applySnapshot(snapshot([]));
    s.setLink({ kind: 'connected' }, 1000);
    expect(s.view).toMatchObject({ linkDown: false, clockFrozenAt: null });
    s.setLink({ kind: 'waiting' }, 5000);
    expect(s.view).toMatchObject({ linkDown: true, clockFrozenAt: 5000 });
    // Retrying (and waiting again) keeps the moment it dropped.
    s.setLink({ kind: 'retrying' }, 9000);
    s.setLink({ kind: 'restarting' }, 12000);
    expect(s.view).toMatchObject({ linkDown: true, clockFrozenAt: 5000 });
    expect(s.setLink({ kind: 'connected' }, 20000)).toBe(true);
    expect(s.view).toMatchObject({ linkDown: false, clockFrozenAt: null });
  });
});
