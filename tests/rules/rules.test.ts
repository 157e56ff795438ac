/** Table-driven tests per rule, beyond the conformance cases (RULES.md identifiers in the names). */
import {
  DEFAULT_RULES,
  activePlayers,
  controllerOf,
  drawByAgreement,
  initialPosition,
  legalDestinations,
  legalTurns,
  makeFen,
  mustPass,
  nextChoice,
  parseRules,
  pieceAt,
  playTurn,
  resign,
  ruler,
  type Colour,
  type Controller,
  type Position,
  type TurnInput,
} from '@djambi/shared';
import { position, type PositionOptions } from '../support/positions.js';

/** The square board's four armies (COLOURS has the hex boards' six). */
const SQUARE_ARMIES = ['R', 'B', 'Y', 'G'] as const;

function play(pos: Position, turn: TurnInput): Position {
  const r = playTurn(pos, turn);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value.position;
}

const CHIEFS = 'Rc a9, Bc i9, Yc i1, Gc a1';

describe('movement (R-4)', () => {
  test.each([
    ['militant moves 1 or 2 squares (R-4.1)', 'Rm e2', 'e2', ['d1', 'd2', 'd3', 'e1', 'e3', 'e4', 'f1', 'f2', 'f3', 'c2', 'g2', 'c4', 'g4']],
    [
      'a militant crosses the empty maze but never stops on it (R-4.3)',
      'Rm e4',
      'e4',
      ['c2', 'c4', 'c6', 'd3', 'd4', 'd5', 'e2', 'e3', 'e6', 'f3', 'f4', 'f5', 'g2', 'g4', 'g6'],
    ],
    [
      'an occupied maze blocks lines (R-4.4)',
      'Rr e3, bc e5',
      'e3',
      ['a3', 'b3', 'c3', 'd3', 'f3', 'g3', 'h3', 'e4', 'e2', 'e1', 'd4', 'c5', 'b6', 'a7', 'f4', 'g5', 'h6', 'i7', 'i3', 'd2', 'c1', 'f2', 'g1'],
    ],
  ])('%s', (_name, extra, from, expected) => {
    const pos = position(`${CHIEFS.replace('Bc i9', 'Bc i8')}, ${extra}`);
    expect(new Set(legalDestinations(pos, from))).toEqual(new Set(expected));
  });

  test('only a chief may stop on the empty maze (R-7.1)', () => {
    const pos = position(`${CHIEFS.replace('Rc a9', 'Rc e3')}, Ra c3`);
    expect(legalDestinations(pos, 'e3')).toContain('e5');
    expect(legalDestinations(pos, 'c3')).not.toContain('e5');
    expect(legalDestinations(pos, 'c3')).toContain('f6');
  });

  test('no piece jumps: a corpse stops the line (R-4.2)', () => {
    const pos = position(`${CHIEFS}, Ra c5, bm c7`);
    const dests = legalDestinations(pos, 'c5');
    expect(dests).toContain('c6');
    expect(dests).not.toContain('c7');
    expect(dests).not.toContain('c8');
  });

  test('a reporter moves only to empty field squares (R-5.4)', () => {
    const pos = position(`${CHIEFS}, Rr c5, Bm c7`);
    const dests = legalDestinations(pos, 'c5');
    expect(dests).toContain('c6');
    expect(dests).not.toContain('c7');
  });

  test('a necromobile moves onto corpses only (R-5.6)', () => {
    const pos = position(`${CHIEFS}, Rn c5, Bm c7, bm e5`.replace(', bm e5', ', bm e7'));
    const dests = legalDestinations(pos, 'c5');
    expect(dests).not.toContain('c7');
    expect(dests).toContain('e7');
  });
});

describe('multi-step turns (nextChoice)', () => {
  const pos = position(`${CHIEFS}, Rm d5, Bm d4, Rr f4, Bm g3`);
  test.each([
    [{}, 'piece'],
    [{ from: 'd5' }, 'destination'],
    [{ from: 'd5', to: 'd4' }, 'placement'],
    [{ from: 'd5', to: 'd4', placement: 'a5' }, 'complete'],
    [{ from: 'f4', to: 'f3' }, 'reporter'],
    [{ from: 'f4', to: 'f3', reporterTarget: null }, 'complete'],
    [{ from: 'f4', to: 'f3', reporterTarget: 'g3' }, 'complete'],
  ])('%j needs %s', (partial, kind) => {
    const r = nextChoice(pos, partial);
    expect(r.ok && r.value.kind).toBe(kind);
  });

  test.each([
    [{ from: 'd4' }, 'not_your_piece'],
    [{ from: 'd5', to: 'd9' }, 'illegal_destination'],
    [{ from: 'd5', to: 'd4', placement: 'e5' }, 'illegal_placement'],
    [{ from: 'd5', to: 'd4', placement: 'd4' }, 'illegal_placement'],
    [{ from: 'd5', to: 'd6', placement: 'a5' }, 'unexpected_choice'],
    [{ from: 'f4', to: 'f3', reporterTarget: 'e4' }, 'illegal_reporter_target'],
    [{ from: 'z9' }, 'bad_square'],
    [{ to: 'd4' }, 'bad_turn'],
  ])('%j is refused with %s', (partial, code) => {
    const r = nextChoice(pos, partial as never);
    expect(r.ok ? 'ok' : r.error.code).toBe(code);
  });

  test('a complete turn without a needed choice is missing_choice and changes nothing', () => {
    const r = playTurn(pos, { from: 'd5', to: 'd4' });
    expect(r.ok ? 'ok' : r.error.code).toBe('missing_choice');
    expect(pieceAt(pos, 'd4')?.colour).toBe('B');
  });

  test.each([null, undefined, 42, 'd5-d4', [], { from: 5 }, { from: 'd5', to: 'd4', placement: {} }, { pass: 'yes' }, { from: 'd5', to: 'd6', extra: 1 }])(
    'garbage %j gets an error, never a throw',
    (garbage) => {
      const r = playTurn(pos, garbage as never);
      expect(r.ok).toBe(false);
      const c = nextChoice(pos, garbage as never);
      if (garbage !== undefined) expect(c.ok).toBe(false);
    },
  );
});

describe('kills and control (R-6)', () => {
  test('a killed chief hands its armies to the killer and eliminates its player (R-6.3a)', () => {
    const pos = play(position(`${CHIEFS}, Rm h8`), { from: 'h8', to: 'i9', placement: 'e9' });
    expect(controllerOf(pos, 'B')).toBe('R');
    expect(activePlayers(pos)).toEqual(['R', 'Y', 'G']);
    expect(pos.eliminations.map((e) => [e.colour, e.cause, e.by])).toEqual([['B', 'killed', 'R']]);
  });

  test('2 players: killing the satellite chief hands over that army only (R-6.3b, §12)', () => {
    const rules = { players: 2 as const };
    const pos0 = position(`${CHIEFS}, Ym h8`, { rules, active: ['R', 'Y'], control: { B: 'R', G: 'Y' }, toMove: 'Y' });
    const pos = play(pos0, { from: 'h8', to: 'i9', placement: 'e9' });
    expect(controllerOf(pos, 'B')).toBe('Y');
    expect(activePlayers(pos)).toEqual(['R', 'Y']);
    expect(pos.result).toBeNull();
    // Killing the seat chief ends the game.
    const end = play(position(`${CHIEFS}, Ym b8`, { rules, active: ['R', 'Y'], control: { B: 'R', G: 'Y' }, toMove: 'Y' }), {
      from: 'b8',
      to: 'a9',
      placement: 'e9',
    });
    expect(end.result).toMatchObject({ kind: 'win', winner: 'Y' });
  });

  test('3 players: the hostage never moves; killing its chief takes its army (R-11.2, R-11.4)', () => {
    const rules = { players: 3 as const };
    const pos0 = position(`${CHIEFS}, Gm b3, Rm b2`, { rules, active: ['R', 'B', 'Y'], control: { G: 'hostage' } });
    expect(legalDestinations(pos0, 'b3')).toEqual([]);
    expect(legalDestinations(pos0, 'b2')).toContain('b3');
    const pos = play(pos0, { from: 'b2', to: 'a1', placement: 'e9' });
    expect(controllerOf(pos, 'G')).toBe('R');
    expect(activePlayers(pos)).toEqual(['R', 'B', 'Y']);
  });

  test('3 players: a hostage chief on the maze gives nobody power (R-11.3)', () => {
    const rules = { players: 3 as const };
    const pos = play(position(`${CHIEFS}, Rd c3, Gc g3`.replace('Gc a1, ', ''), { rules, active: ['R', 'B', 'Y'], control: { G: 'hostage' } }), {
      from: 'c3',
      to: 'g3',
      placement: 'e5',
    });
    expect(pieceAt(pos, 'e5')?.colour).toBe('G');
    expect(ruler(pos)).toBeNull();
  });

  test('reporter=all_adjacent: a chief among the victims hands over its armies (N-3, R-6.3)', () => {
    const pos = play(position(`${CHIEFS}, Rr f4, Bc f2, Bm e3`.replace('Bc i9, ', ''), { rules: { reporter: 'all_adjacent' } }), { from: 'f4', to: 'f3' });
    expect(pieceAt(pos, 'f2')?.alive).toBe(false);
    expect(pieceAt(pos, 'e3')?.alive).toBe(false);
    expect(controllerOf(pos, 'B')).toBe('R');
    expect(activePlayers(pos)).not.toContain('B');
  });

  test('self_kill lets a militant kill its own non-chief piece, never a chief (N-4)', () => {
    const on = position(`${CHIEFS}, Rm c5, Ra c6, Rc c4`.replace('Rc a9, ', ''), { rules: { self_kill: true } });
    expect(legalDestinations(on, 'c5')).toContain('c6');
    expect(legalDestinations(on, 'c5')).not.toContain('c4');
    const off = position(`${CHIEFS}, Rm c5, Ra c6`);
    expect(legalDestinations(off, 'c5')).not.toContain('c6');
  });

  test('neutral_pieces_untouchable=false: frozen pieces may be killed (R-9.5, D-14)', () => {
    const list = `${CHIEFS.replace('Bc i9', 'bc i9')}, Ra c5, Bm c7`;
    const opts = { active: ['R', 'Y', 'G'] as Colour[], control: { B: 'frozen' as const } };
    expect(legalDestinations(position(list, opts), 'c5')).not.toContain('c7');
    expect(legalDestinations(position(list, { ...opts, rules: { neutral_pieces_untouchable: false } }), 'c5')).toContain('c7');
  });
});

describe('the maze (R-7)', () => {
  test('a chief entering the maze takes power; the ruler plays after each opponent (R-3.5)', () => {
    let pos = play(position(`${CHIEFS.replace('Rc a9', 'Rc e3')}, Rm a5`), { from: 'e3', to: 'e5' });
    expect(ruler(pos)).toBe('R');
    const order: string[] = [];
    for (let i = 0; i < 6; i++) {
      order.push(`${pos.toMove}${pos.turnKind === 'extra' ? '+' : ''}`);
      pos = play(pos, legalTurns(pos).find((t) => !('pass' in t) && t.from !== 'e5')!);
    }
    expect(order).toEqual(['B', 'R+', 'Y', 'R+', 'G', 'R']);
  });

  test.each(['act_exit_place', 'act_place_exit'] as const)('%s: a diplomat dislodges the chief in power (R-7.4, N-9)', (order) => {
    const pos0 = position(`${CHIEFS.replace('Bc i9', 'Bc e5')}, Rd c3`, { rules: { maze_exit_order: order } });
    const first = nextChoice(pos0, { from: 'c3', to: 'e5' });
    expect(first.ok && first.value.kind).toBe(order === 'act_exit_place' ? 'exit' : 'placement');
    const placement = order === 'act_exit_place' ? 'e7' : 'c7';
    const turn = { from: 'c3', to: 'e5', exit: 'e8', placement };
    const pos = play(pos0, turn);
    expect(pieceAt(pos, 'e8')?.kind).toBe('diplomat');
    expect(pieceAt(pos, placement)).toMatchObject({ colour: 'B', kind: 'chief', alive: true });
    expect(pieceAt(pos, 'e5')).toBeNull();
    expect(ruler(pos)).toBeNull();
    // The order matters: placed first on e7, the chief blocks the exit to e8.
    const blocked = playTurn(pos0, { ...turn, placement: 'e7' });
    expect(blocked.ok ? 'ok' : blocked.error.code).toBe(order === 'act_exit_place' ? 'ok' : 'illegal_exit');
    // Never back on the maze.
    expect(playTurn(pos0, { ...turn, placement: 'e5' }).ok).toBe(false);
  });

  test('a necromobile removes a corpse from the maze (R-7.4)', () => {
    const pos = play(position(`${CHIEFS}, Rn c3, bm e5`.replace(', bm e5', ', yc e5')), { from: 'c3', to: 'e5', exit: 'h8', placement: 'c3' });
    expect(pieceAt(pos, 'c3')).toMatchObject({ kind: 'chief', alive: false });
    expect(pieceAt(pos, 'e5')).toBeNull();
  });
});

describe('encirclement (R-8)', () => {
  const walled = `Rc a9, rm a8, rm b8, rm b9, Bc i9, Yc i1, Gc a1, Bm e4`;
  test('a walled chief is eliminated at the end of any move, armies frozen without a ruler (R-8.2)', () => {
    // With a living militant on b9 that moves away, a9 has a free neighbour: Red stays in.
    const pos = play(position(walled.replace('rm b9', 'Rm b9'), { toMove: 'R' }), { from: 'b9', to: 'c9' });
    expect(activePlayers(pos)).toContain('R');
    // Walled by three corpses, Red's chief dies at the end of Blue's unrelated move.
    const pos2 = play(position(walled, { toMove: 'B' }), { from: 'e4', to: 'e3' });
    expect(activePlayers(pos2)).toEqual(['B', 'Y', 'G']);
    expect(pieceAt(pos2, 'a9')?.alive).toBe(false);
    expect(controllerOf(pos2, 'R')).toBe('frozen');
    expect(pos2.eliminations[0]).toMatchObject({ colour: 'R', cause: 'encircled', by: 'B' });
  });

  test('a living controlled necromobile saves the chief (R-8.1 condition 2)', () => {
    const pos = play(position(`${walled}, Rn i5`, { toMove: 'B' }), { from: 'e4', to: 'e3' });
    expect(activePlayers(pos)).toContain('R');
  });

  test.each([
    ['group', true],
    ['literal_ring', true],
    ['throne_access', true],
  ] as const)('%s: a chief boxed in a corner by corpses is encircled', (rule, out) => {
    const pos = play(position(walled, { toMove: 'B', rules: { encirclement: rule } }), { from: 'e4', to: 'e3' });
    expect(!activePlayers(pos).includes('R')).toBe(out);
  });
});

describe('hand-overs after an elimination go to the ruler found again (N-5 step 3, N-7)', () => {
  // 2 players: Red rules through Blue's chief on e5 while its seat chief a9 stands walled on two sides.
  const TWO: PositionOptions = { rules: { players: 2 }, active: ['R', 'Y'], control: { B: 'R', G: 'Y' } };
  const SELF_WALL = 'Rc a9, rm a8, rm b8, Ra b9, Bc e5, Yc i1, Gc a1, Ym d7';
  // Yellow's chief i1 lacks only i2; Red's a9 is free only through Green's living militant on b9.
  const CASCADE = 'Rc a9, rm a8, rm b8, Gm b9, rm c8, rm c9, Bc e5, Yc i1, ym h1, ym h2, Gc a1, Rm e3';
  type Event = TurnInput | { resign: Colour };
  test.each<[string, string, PositionOptions, Event, { control: string; ruler: Colour | null; result: string; eliminated: string[]; fen: string }]>([
    [
      '2 players: the ruler walls in its own seat chief with its assassin’s corpse: its armies freeze, Yellow wins',
      SELF_WALL,
      TWO,
      { from: 'b9', to: 'd7' },
      { control: 'ffYY', ruler: null, result: 'win:Y', eliminated: ['R encircled by R'], fen: 'rcym7/rmrm7/3Ra5/9/4Bc4/9/9/9/Gc7Yc ffYY Y - n R 0 1 win:Y' },
    ],
    [
      '2 players: the opponent’s reporter walls in the ruler’s seat chief: the ruler’s armies freeze, Yellow wins',
      'Rc a9, rm a8, rm b8, Rm b9, Bc e5, Yc i1, Gc a1, Yr c5',
      { ...TWO, toMove: 'Y' },
      { from: 'c5', to: 'c9', reporterTarget: 'b9' },
      { control: 'ffYY', ruler: null, result: 'win:Y', eliminated: ['R encircled by Y'], fen: 'rcrmYr6/rmrm7/9/9/4Bc4/9/9/9/Gc7Yc ffYY Y - n Y 0 1 win:Y' },
    ],
    [
      '2 players: one corpse walls in both seat chiefs, the ruler’s included: every army freezes, draw',
      'Rc a9, rm a8, rm b8, ym c8, ym d8, ym d9, Yc c9, Bc e5, Gc a1, Rm e3, Ym e4',
      TWO,
      { from: 'e3', to: 'e4', placement: 'b9' },
      {
        control: 'ffff',
        ruler: null,
        result: 'draw:mutual_elimination',
        eliminated: ['R encircled by R', 'Y encircled by R'],
        fen: 'rcymycym5/rmrmymym5/9/9/4Bc4/4Rm4/9/9/Gc8 ffff - - n R 0 1 draw:mutual_elimination',
      },
    ],
    [
      '2 players: the ruler stays active and takes the encircled opponent’s armies, and wins',
      `${CASCADE.replace('Gm b9, ', '')}, Ym e4`,
      TWO,
      { from: 'e3', to: 'e4', placement: 'i2' },
      {
        control: 'RRRR',
        ruler: 'R',
        result: 'win:R',
        eliminated: ['Y encircled by R'],
        fen: 'Rc1rm6/rmrmrm6/9/9/4Bc4/4Rm4/9/7ymym/Gc6ymyc RRRR R - n R 0 1 win:R',
      },
    ],
    [
      '2 players: armies handed to the ruler wall in its own seat chief in the next pass: every army freezes, draw',
      `${CASCADE}, Ym e4`,
      TWO,
      { from: 'e3', to: 'e4', placement: 'i2' },
      {
        control: 'ffff',
        ruler: null,
        result: 'draw:mutual_elimination',
        eliminated: ['Y encircled by R', 'R encircled by R'],
        fen: 'rcGmrm6/rmrmrm6/9/9/4Bc4/4Rm4/9/7ymym/Gc6ymyc ffff - - n R 0 1 draw:mutual_elimination',
      },
    ],
    [
      '2 players: a resignation hands the armies to the ruler, which they wall in: every army freezes, draw (N-7)',
      CASCADE,
      TWO,
      { resign: 'Y' },
      {
        control: 'ffff',
        ruler: null,
        result: 'draw:mutual_elimination',
        eliminated: ['Y resigned by -', 'R encircled by -'],
        fen: 'rcGmrm6/rmrmrm6/9/9/4Bc4/9/4Rm4/7ym1/Gc6ymyc ffff - - n R 0 0 draw:mutual_elimination',
      },
    ],
    [
      '2 players: the ruler resigns with its satellite chief on the maze: its armies freeze (N-7)',
      SELF_WALL,
      TWO,
      { resign: 'R' },
      { control: 'ffYY', ruler: null, result: 'win:Y', eliminated: ['R resigned by -'], fen: 'rcRa7/rmrm7/3Ym5/9/4Bc4/9/9/9/Gc7Yc ffYY Y - n R 0 1 win:Y' },
    ],
    [
      '4 players: the mover walls in its own chief: its army goes to the ruler in power, who stays in',
      SELF_WALL,
      {},
      { from: 'b9', to: 'd7' },
      { control: 'BBYG', ruler: 'B', result: '*', eliminated: ['R encircled by R'], fen: 'rcym7/rmrm7/3Ra5/9/4Bc4/9/9/9/Gc7Yc BBYG BYG B n B 0 1 *' },
    ],
    [
      '3 players: with the hostage chief on the maze there is no ruler: the walled-in mover’s army freezes',
      'Rc a9, rm a8, rm b8, Ra b9, Gc e5, Bc i9, Yc i1, Ym d7',
      { rules: { players: 3 }, active: ['R', 'B', 'Y'], control: { G: 'hostage' } },
      { from: 'b9', to: 'd7' },
      { control: 'fBYh', ruler: null, result: '*', eliminated: ['R encircled by R'], fen: 'rcym6Bc/rmrm7/3Ra5/9/4Gc4/9/9/9/8Yc fBYh BY B n B 0 1 *' },
    ],
  ])('%s', (_name, list, opts, event, expected) => {
    const pos0 = position(list, opts);
    let pos: Position;
    if ('resign' in event) {
      const r = resign(pos0, event.resign);
      if (!r.ok) throw new Error(r.error.message);
      pos = r.value.position;
    } else pos = play(pos0, event);
    // The control map (R, B, Y, G): a colour, f frozen, h hostage; no controller is eliminated.
    const controllers = SQUARE_ARMIES.map((c) => controllerOf(pos, c));
    expect(controllers.map((c) => (c === 'frozen' ? 'f' : c === 'hostage' ? 'h' : (c ?? '-'))).join('')).toBe(expected.control);
    for (const c of controllers) if (c !== null && c !== 'frozen' && c !== 'hostage') expect(activePlayers(pos)).toContain(c);
    expect(ruler(pos)).toBe(expected.ruler);
    const r = pos.result;
    expect(r ? (r.kind === 'win' ? `win:${r.winner}` : `draw:${r.reason}`) : '*').toBe(expected.result);
    expect(pos.eliminations.map((e) => `${e.colour} ${e.cause} by ${e.by ?? '-'}`)).toEqual(expected.eliminated);
    expect(makeFen(pos)).toBe(expected.fen);
  });
});

describe('turn order, passes and draws (R-3.5, N-6, N-7, N-8)', () => {
  // Red's chief is boxed in by frozen pieces (untouchable, and no wall: not encircled);
  // Blue's chief likewise; Blue's militant i2 is Blue's only mobile piece.
  const STUCK = `Rc a9, Gm a8, Gm b8, Gm b9, Bc i9, Gm h9, Gm h8, Ga i8, gc e1, yc e9, Yd i1, Ym h1, Ym h2, Ym h3, Bm i2`;
  const stuckOpts = { active: ['R', 'B'] as Colour[], control: { G: 'frozen', Y: 'frozen' } as Partial<Record<Colour, Controller>> };

  test('a player with no legal move passes; the pass is a turn (R-3.3, N-8)', () => {
    const pos0 = position(STUCK, stuckOpts);
    expect(mustPass(pos0)).toBe(true);
    expect(legalTurns(pos0)).toEqual([{ pass: true }]);
    const pos = play(pos0, { pass: true });
    expect(pos.toMove).toBe('B');
    expect(pos.result).toBeNull();
    expect(playTurn(pos, { pass: true }).ok).toBe(false);
    expect(playTurn(position(CHIEFS), { pass: true }).ok).toBe(false);
  });

  test('no active player can move: draw (N-8)', () => {
    // Red's militant kills Blue's last mobile piece and puts the corpse behind itself: nobody can move.
    const pos = play(position(`${STUCK}, Rm i3`, stuckOpts), { from: 'i3', to: 'i2', placement: 'i3' });
    expect(pos.result).toMatchObject({ kind: 'draw', reason: 'no_legal_move' });
    expect(pos.toMove).toBeNull();
  });

  test('no_progress_rounds: quiet normal turns count, extra turns do not, the limit draws (N-6)', () => {
    const pos0 = position(`${CHIEFS}, Rm e2`, { quiet: 199 });
    const pos = play(pos0, { from: 'e2', to: 'e3' });
    expect(pos.result).toMatchObject({ kind: 'draw', reason: 'no_progress' });
    const extra = play(position(`${CHIEFS.replace('Rc a9', 'Rc e5')}, Rm e2`, { quiet: 199, turnKind: 'extra', cursor: 'G' }), { from: 'e2', to: 'e3' });
    expect(extra.result).toBeNull();
    expect(extra.quiet).toBe(199);
    const off = play(position(`${CHIEFS}, Rm e2`, { quiet: 199, rules: { no_progress_rounds: 0 } }), { from: 'e2', to: 'e3' });
    expect(off.result).toBeNull();
    const kill = play(position(`${CHIEFS}, Rm e2, Bm e3`, { quiet: 150 }), { from: 'e2', to: 'e3', placement: 'e2' });
    expect(kill.quiet).toBe(0);
  });

  test('resigning on one’s own turn passes the turn; a resigning ruler leaves its corpse on the maze (N-7)', () => {
    const pos0 = position(`${CHIEFS.replace('Rc a9', 'Rc e5')}, Rm e2, Bm h7`, { toMove: 'B' });
    const r = resign(pos0, 'R');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const pos = r.value.position;
    expect(pieceAt(pos, 'e5')).toMatchObject({ kind: 'chief', alive: false });
    expect(ruler(pos)).toBeNull();
    expect(controllerOf(pos, 'R')).toBe('frozen');
    expect(pos.toMove).toBe('B');
    const own = resign(pos, 'B');
    expect(own.ok && own.value.position.toMove).toBe('Y');
    expect(resign(pos, 'R').ok).toBe(false);
  });

  test('the last player standing wins; results rank by elimination (R-10)', () => {
    let pos = position(CHIEFS);
    for (const c of ['B', 'Y'] as const) {
      const r = resign(pos, c);
      if (!r.ok) throw new Error(r.error.message);
      pos = r.value.position;
    }
    const r = resign(pos, 'G');
    expect(r.ok && r.value.position.result).toEqual({ kind: 'win', winner: 'R', ranking: [['R'], ['G'], ['Y'], ['B']] });
  });

  test('a draw by agreement ends the game; nothing is played after the end', () => {
    const r = drawByAgreement(initialPosition(DEFAULT_RULES));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.position.result).toMatchObject({ kind: 'draw', reason: 'agreement' });
    expect(playTurn(r.value.position, { from: 'c7', to: 'c6' }).ok ? 'ok' : 'game_over').toBe('game_over');
    expect(nextChoice(r.value.position, {}).ok).toBe(false);
  });
});

describe('rule options', () => {
  test.each([
    [{ players: 5 }],
    [{ layout: 'spiral' }],
    [{ no_progress_rounds: -1 }],
    [{ no_progress_rounds: 1.5 }],
    [{ master_moves: true }],
    [{ unknown: 1 }],
    ['players=4'],
    [[]],
  ])('%j is refused', (input) => {
    expect(parseRules(input).ok).toBe(false);
  });
  test('defaults fill what is not given', () => {
    expect(parseRules({ players: 3 })).toEqual({ ok: true, value: { ...DEFAULT_RULES, players: 3 } });
  });
});
