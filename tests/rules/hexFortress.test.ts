/**
 * The fortress of the large board (shared/variants/HEX.md §4.5; §8.7, SX-7 to SX-11): the six
 * cells round the maze, closed to the pieces of every player but the ruler while a chief is in
 * power, entered only to act and left at once.
 */
import { countTurns, HEX6, legalTurns, nextChoice, type PieceSetup, parseTurn, pieces, playTurn, ruler, seatsOf, type TurnInput } from '@djambi/shared';
import { seeded } from '../support/random.js';
import { at6, check, checkedTurn, corpse, destinationsOf, P, pick, play, randomRules, setUp, sorted, squaresOf, textOf } from './hexSupport.js';

describe('the fortress (HEX.md §4.5; §8.7, SX-7 to SX-11)', () => {
  // Red rules from G7 with a militant on the fortress cell F7; Blue's pieces around.
  const base = [P('R', 'chief', 'G7'), P('R', 'militant', 'F7'), P('B', 'chief', 'M7'), P('Y', 'chief', 'J13')];
  const fortress = ['F6', 'F7', 'F8', 'G6', 'G8', 'H7'];

  test('§8.7 an enemy militant may not stop on an empty fortress cell, may kill the ruler’s piece there, then must leave', () => {
    // Blue's militant E8 (-2, 1): F8 and G8 (east) are empty fortress cells, F7 (north-east) holds Red's militant.
    const pos = setUp({ board: 'hex6' }, [...base, P('B', 'militant', 'E8')], 'B');
    const ds = destinationsOf(pos, 'E8');
    expect(ds).not.toContain('F8');
    expect(ds).not.toContain('G8');
    expect(ds).toContain('F7');
    const exit = nextChoice(pos, { from: 'E8', to: 'F7' });
    expect(exit.ok && exit.value.kind).toBe('exit');
    const exits = exit.ok && exit.value.kind === 'exit' ? exit.value.options : [];
    expect(exits.length).toBeGreaterThan(0);
    for (const e of exits) expect([...fortress, 'G7']).not.toContain(e);
    expect(exits).toContain('E8'); // back where it came from
    expect(exits).toContain('F5'); // a corner step out, between F6 and E6
    // The exit comes first (act_exit_place), then the corpse, which may go into the fortress (SX-10).
    const place = nextChoice(pos, { from: 'E8', to: 'F7', exit: 'E6' });
    expect(place.ok && place.value.kind).toBe('placement');
    const places = place.ok && place.value.kind === 'placement' ? place.value.options : [];
    expect(places).toEqual(expect.arrayContaining(['F7', 'F8', 'E8']));
    expect(places).not.toEqual(expect.arrayContaining(['G7']));
    expect(places).not.toContain('E6');
    const done = play(pos, { from: 'E8', to: 'F7', exit: 'E6', placement: 'F8' });
    expect(done.effects.map((e) => [e.type, 'to' in e ? e.to : 'square' in e ? e.square : ''])).toEqual([
      ['move', 'F7'],
      ['kill', 'F7'],
      ['exit', 'E6'],
      ['place', 'F8'],
    ]);
    expect(textOf({ from: 'E8', to: 'F7', exit: 'E6', placement: 'F8' }, pos)).toBe('E8xF7^E6>F8');
    // Without the exit the turn is incomplete; an exit into the fortress is refused.
    expect(playTurn(pos, { from: 'E8', to: 'F7', placement: 'F8' }).ok).toBe(false);
    const inside = playTurn(pos, { from: 'E8', to: 'F7', exit: 'F8', placement: 'E6' });
    expect(inside.ok ? null : inside.error.code).toBe('illegal_exit');
  });

  test('§8.7 with no exit the kill is illegal', () => {
    // Blue's assassin E7 kills on F7; its victim goes to E7, which it may cross but not stop on.
    // Corpses close every line out of F7 beyond the fortress (G7 is the ruler's chief).
    const walls = ['G5', 'E6', 'D7', 'E8', 'G9', 'F5', 'I5', 'I9', 'F9', 'D8', 'D6'];
    const list = [...base, P('B', 'assassin', 'E7')];
    const closed = setUp({ board: 'hex6' }, [...list, ...walls.map(corpse)], 'B');
    expect(destinationsOf(closed, 'E7')).not.toContain('F7');
    expect(playTurn(closed, { from: 'E7', to: 'F7', exit: 'D7' }).ok).toBe(false);
    // One line open (beyond E7, its start square): the kill is legal and leaves that way.
    const open = setUp({ board: 'hex6' }, [...list, ...walls.filter((w) => w !== 'D7').map(corpse)], 'B');
    expect(destinationsOf(open, 'E7')).toContain('F7');
    const c = nextChoice(open, { from: 'E7', to: 'F7' });
    expect(c.ok && c.value.kind === 'exit' && sorted(c.value.options)).toEqual(['A7', 'B7', 'C7', 'D7']);
    const done = play(open, { from: 'E7', to: 'F7', exit: 'C7' });
    expect(squaresOf(done.position).find((p) => p.square === 'E7')).toMatchObject({ colour: 'R', kind: 'militant', alive: false });
  });

  test('SX-7: with nobody in power the fortress is made of ordinary cells', () => {
    const pos = setUp(
      { board: 'hex6' },
      [P('R', 'chief', 'A7'), P('R', 'militant', 'F7'), P('B', 'chief', 'M7'), P('B', 'militant', 'E8'), P('Y', 'chief', 'J13')],
      'B',
    );
    expect(destinationsOf(pos, 'E8')).toEqual(expect.arrayContaining(['F8', 'G8']));
    const r = play(pos, { from: 'E8', to: 'F7', placement: 'E8' });
    expect(r.effects.map((e) => e.type)).toEqual(['move', 'kill', 'place']);
  });

  test('SX-8: the ruler’s own pieces and its satellites come and go freely', () => {
    // Red rules and controls Yellow's army (its chief killed); Yellow's militant moves into the fortress.
    const pos = setUp(
      { board: 'hex6' },
      [...base.filter((p) => p.colour !== 'Y'), P('R', 'militant', 'E8'), P('Y', 'chief', 'J13', false), P('Y', 'militant', 'H9'), P('G', 'chief', 'L5')],
      'R',
      { active: ['R', 'B', 'G'], control: { Y: 'R' } },
    );
    expect(destinationsOf(pos, 'E8')).toEqual(expect.arrayContaining(['F8', 'G8']));
    expect(destinationsOf(pos, 'H9')).toContain('G8');
    expect(destinationsOf(pos, 'F7')).toContain('F6'); // from one fortress cell to the next
  });

  test('SX-9: a reporter may enter to kill (the chief in power too), must name a victim, then leaves', () => {
    const pos = setUp({ board: 'hex6' }, [...base, P('B', 'reporter', 'E5')], 'B');
    // E5 (-1, -2) reaches F6 (0, -1) by a corner step; F6's neighbours: the ruler's chief G7 and Red's militant F7.
    expect(destinationsOf(pos, 'E5')).toContain('F6');
    const target = nextChoice(pos, { from: 'E5', to: 'F6' });
    expect(target.ok && target.value).toEqual({ kind: 'reporter', options: expect.arrayContaining(['G7', 'F7']), required: true });
    const none = playTurn(pos, { from: 'E5', to: 'F6', exit: 'E5' });
    expect(none.ok ? null : none.error.code).toBe('missing_choice');
    const exit = nextChoice(pos, { from: 'E5', to: 'F6', reporterTarget: 'G7' });
    expect(exit.ok && exit.value.kind).toBe('exit');
    const turn = { from: 'E5', to: 'F6', reporterTarget: 'G7', exit: 'E5' } as TurnInput;
    expect(textOf(turn, pos)).toBe('E5-F6*G7^E5');
    expect(parseTurn('E5-F6*G7^E5', 'hex6')).toEqual({ ok: true, value: turn });
    const done = play(pos, turn);
    expect(done.effects).toContainEqual({ type: 'eliminated', colour: 'R', cause: 'killed', by: 'B' });
    expect(ruler(done.position)).toBeNull();
    expect(squaresOf(done.position).find((p) => p.square === 'G7')).toMatchObject({ kind: 'chief', alive: false });
  });

  test('SX-9 under reporter=all_adjacent: the victims die without being named, then the reporter leaves', () => {
    const pos = setUp({ board: 'hex6', reporter: 'all_adjacent' }, [...base, P('B', 'reporter', 'E5')], 'B');
    const c = nextChoice(pos, { from: 'E5', to: 'F6' });
    expect(c.ok && c.value.kind).toBe('exit');
    const done = play(pos, { from: 'E5', to: 'F6', exit: 'F5' });
    expect(done.effects.filter((e) => e.type === 'kill').length).toBe(2);
  });

  test('SX-9 under maze_exit_order=act_place_exit: the placement first, each leaving an exit', () => {
    const pos = setUp({ board: 'hex6', maze_exit_order: 'act_place_exit' }, [...base, P('B', 'militant', 'E8')], 'B');
    const place = nextChoice(pos, { from: 'E8', to: 'F7' });
    expect(place.ok && place.value.kind).toBe('placement');
    const places = place.ok && place.value.kind === 'placement' ? place.value.options : [];
    expect(places).not.toContain('F7'); // the militant stands there until it leaves
    expect(places).toContain('E8');
    const turn = { from: 'E8', to: 'F7', placement: 'E8', exit: 'E6' } as TurnInput;
    expect(textOf(turn, pos)).toBe('E8xF7>E8^E6');
    const done = play(pos, turn);
    expect(done.effects.map((e) => e.type)).toEqual(['move', 'kill', 'place', 'exit']);
    // With its start square taken by the corpse, the way back is closed.
    const back = playTurn(pos, { from: 'E8', to: 'F7', placement: 'E8', exit: 'E8' });
    expect(back.ok).toBe(false);
  });

  test('SX-10: a displaced living piece goes into the fortress only if the ruler controls it; corpses may', () => {
    // Blue's diplomat D7 displaces Yellow's militant C7 (outside the fortress) or Red's militant F7 (in it).
    const pos = setUp({ board: 'hex6' }, [...base, P('B', 'diplomat', 'D7'), P('Y', 'militant', 'C7')], 'B');
    const yellow = nextChoice(pos, { from: 'D7', to: 'C7' });
    const options = yellow.ok && yellow.value.kind === 'placement' ? yellow.value.options : [];
    expect(options.length).toBeGreaterThan(50);
    expect(options.filter((c) => fortress.includes(c))).toEqual([]);
    expect(playTurn(pos, { from: 'D7', to: 'C7', placement: 'G8' }).ok).toBe(false);
    // The diplomat entering the fortress to move Red's militant: an exit, then Red's piece may go back in.
    const red = nextChoice(pos, { from: 'D7', to: 'F7' });
    expect(red.ok && red.value.kind).toBe('exit');
    const afterExit = nextChoice(pos, { from: 'D7', to: 'F7', exit: 'D7' });
    const back = afterExit.ok && afterExit.value.kind === 'placement' ? afterExit.value.options : [];
    expect(back).toEqual(expect.arrayContaining(['F7', 'F8', 'G8']));
    expect(countTurns(pos)).toBe(legalTurns(pos).length);
  });

  test('SX-11: a piece already in the fortress when power is taken may stay and leave; moving within it is entering', () => {
    // Blue's militant on F8 was there before Red took power.
    const pos = setUp({ board: 'hex6' }, [P('R', 'chief', 'G7'), P('B', 'chief', 'M7'), P('B', 'militant', 'F8'), P('Y', 'chief', 'J13')], 'B');
    const ds = destinationsOf(pos, 'F8');
    expect(ds).toEqual(expect.arrayContaining(['E8', 'E9', 'F9']));
    expect(ds).not.toContain('F7');
    expect(ds).not.toContain('G8');
  });

  test('crossing the fortress without stopping is allowed', () => {
    // Blue's chief on D6 (-2, -1): its line E along r = -1 crosses F6 and G6 to (2, -1) and beyond.
    const pos = setUp({ board: 'hex6' }, [P('R', 'chief', 'G7'), P('B', 'chief', 'D6'), P('Y', 'chief', 'J13')], 'B');
    const ds = destinationsOf(pos, 'D6');
    expect(ds).toContain(at6(2, -1));
    expect(ds).not.toContain('F6');
    expect(ds).not.toContain('G6');
  });

  test('counting and listing agree on fortress turns under each exit order, reporter rule and SX-4 reading', () => {
    const list = [
      ...base,
      P('R', 'diplomat', 'G8'),
      corpse('H7'),
      P('B', 'militant', 'E8'),
      P('B', 'assassin', 'E7'),
      P('B', 'reporter', 'E5'),
      P('B', 'diplomat', 'D9'),
      P('B', 'necromobile', 'J7'),
      P('Y', 'militant', 'D10'),
    ];
    const variants = [
      ['act_exit_place', 'optional_single', 'free'],
      ['act_place_exit', 'optional_single', 'free'],
      ['act_exit_place', 'mandatory_single', 'both_flanks_block'],
      ['act_place_exit', 'all_adjacent', 'either_flank_blocks'],
      ['act_exit_place', 'all_adjacent', 'either_flank_blocks'],
      ['act_place_exit', 'mandatory_single', 'both_flanks_block'],
    ];
    for (const [maze_exit_order, reporter, vertex_step] of variants) {
      const pos = setUp({ board: 'hex6', maze_exit_order, reporter, vertex_step }, list, 'B');
      const turns = legalTurns(pos);
      expect(turns.length).toBe(countTurns(pos));
      expect(turns.filter((t) => 'from' in t && t.exit !== undefined).length).toBeGreaterThan(0);
      for (const t of turns.filter((_, k) => k % 97 === 0)) expect(playTurn(pos, t).ok).toBe(true);
    }
  });
});

describe('the fortress and the hostage army (SX-7, SX-13)', () => {
  const HOSTAGE_LIST = [
    P('R', 'chief', 'A7'),
    P('B', 'chief', 'D13'),
    P('Y', 'chief', 'J13'),
    P('G', 'chief', 'M7'),
    P('P', 'chief', 'J1'),
    P('W', 'chief', 'C3'),
    P('W', 'militant', 'D3'),
  ];
  test('a hostage chief on the maze gives nobody power, so the fortress stays open', () => {
    const onMaze = HOSTAGE_LIST.map((p) => (p.colour === 'W' && p.kind === 'chief' ? { ...p, square: 'G7' } : p));
    const pos = setUp({ board: 'hex5' }, [...onMaze, P('R', 'militant', 'E8')], 'R', { active: ['R', 'B', 'Y', 'G', 'P'], control: { W: 'hostage' } });
    expect(ruler(pos)).toBeNull();
    expect(destinationsOf(pos, 'E8')).toEqual(expect.arrayContaining(['F8', 'G8']));
  });
});

describe('random positions (seeded)', () => {
  test('crowded centres with a chief in power: fortress turns counted as listed, and played', () => {
    const random = seeded(39);
    const cells = HEX6.names.filter((n) => n !== 'G7');
    let fortressTurns = 0;
    for (let k = 0; k < 40; k++) {
      const board = pick(random, ['hex6', 'hex5']);
      const rules = randomRules(random, board);
      const free = cells.slice();
      /** Distance of a cell from the centre. */
      const distance = (c: string) => {
        const [q, r] = HEX6.coords[HEX6.byName.get(c)!];
        return Math.max(Math.abs(q), Math.abs(r), Math.abs(q + r));
      };
      const take = (near: boolean) => {
        // Near the centre most of the time, so that pieces meet around the fortress.
        const pool = near ? free.filter((c) => distance(c) <= 3) : free;
        const c = pick(random, pool.length ? pool : free);
        free.splice(free.indexOf(c), 1);
        return c;
      };
      const seats = seatsOf(rules);
      const colours = ['R', 'B', 'Y', 'G', 'P', 'W'] as const;
      const hostage = colours.find((c) => !(seats as string[]).includes(c));
      const rulerColour = pick(random, seats);
      const list: PieceSetup[] = [];
      for (const c of colours) {
        list.push(P(c, 'chief', c === rulerColour ? 'G7' : take(false)));
        for (const kind of ['assassin', 'reporter', 'diplomat', 'necromobile', 'militant', 'militant'] as const)
          if (random() < 0.6) list.push(P(c, kind, take(true)));
      }
      for (let n = 0; n < 12; n++) list.push(corpse(take(true)));
      let pos = setUp({ ...rules }, list, pick(random, seats), { active: [...seats], control: hostage ? { [hostage]: 'hostage' } : {} });
      const count = pieces(pos).length;
      for (let t = 0; t < 8 && !pos.result; t++) {
        const all = legalTurns(pos);
        check(all.length === countTurns(pos), 'listing and counting agree', pos);
        const entries = all.filter((x) => 'from' in x && x.exit !== undefined && (x.to as string) !== 'G7');
        fortressTurns += entries.length ? 1 : 0;
        pos = checkedTurn(pos, entries.length && random() < 0.7 ? pick(random, entries) : pick(random, all), count);
      }
    }
    // The positions do make fortress entries (so the checks are not vacuous).
    expect(fortressTurns).toBeGreaterThan(20);
  });
});
