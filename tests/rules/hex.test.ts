/**
 * The hex games of shared/variants/HEX.md in the engine: `hex3`, `hex6` and `hex5` as values of the
 * `board` rule option, their seats, start positions, turn order, notation and perft. The §8 checks
 * are named as HEX.md numbers them; the tables of §3.2 and §4.2 are the oracle. SX-4 and the
 * fortress have their own files (hexVertexStep, hexFortress).
 */
import {
  activePlayers,
  controllerOf,
  countTurns,
  DEFAULT_RULES,
  GEOMETRIES,
  HEX6,
  hexCellName,
  initialPosition,
  legalTurns,
  makeFen,
  makeRecord,
  parseFen,
  parseRecord,
  parseRules,
  parseTurn,
  type Position,
  perft,
  pieces,
  randomTurn,
  replayRecord,
  ruler,
  seatsOf,
  type Turn,
} from '@djambi/shared';
import { seeded } from '../support/random.js';
import { campOf, check, checkedTurn, corpse, destinationsOf, namesOf, P, pick, play, randomRules, rulesOf, setUp, sorted, textOf } from './hexSupport.js';

describe('the board rule option (HEX.md; refusals with bad_rules)', () => {
  test('a square game’s rules carry no hex option, even with board: "square"', () => {
    expect(rulesOf({ board: 'square' })).toEqual(DEFAULT_RULES);
    expect(Object.keys(rulesOf({}))).not.toContain('board');
  });

  test('a hex board fixes players and layout and fills the options it has', () => {
    expect(rulesOf({ board: 'hex3' })).toMatchObject({ board: 'hex3', players: 3, layout: 'chhobu_rotational' });
    expect(rulesOf({ board: 'hex3' })).not.toHaveProperty('vertex_step');
    expect(rulesOf({ board: 'hex6' })).toMatchObject({ board: 'hex6', players: 6, layout: 'mirror', vertex_step: 'free' });
    expect(rulesOf({ board: 'hex6' })).not.toHaveProperty('hostage_seat');
    expect(rulesOf({ board: 'hex5' })).toMatchObject({ board: 'hex5', players: 5, vertex_step: 'free', hostage_seat: 6 });
    expect(rulesOf({ board: 'hex5', players: 5, hostage_seat: 2, vertex_step: 'either_flank_blocks' })).toMatchObject({
      hostage_seat: 2,
      vertex_step: 'either_flank_blocks',
    });
  });

  test.each([
    [{ board: 'hex4' }, 'board must be one of'],
    [{ board: 'hex3', players: 4 }, 'players must be 3 on board hex3'],
    [{ board: 'hex6', players: 5 }, 'players must be 6 on board hex6'],
    [{ players: 6 }, 'players must be 2, 3 or 4 on board square'],
    [{ players: 7 }, 'players must be one of'],
    [{ board: 'hex3', layout: 'mirror' }, 'layout must be chhobu_rotational on board hex3'],
    [{ board: 'hex6', layout: 'chhobu_rotational' }, 'layout must be mirror on board hex6'],
    [{ hostage_seat: 6 }, 'hostage_seat is not an option of board square'],
    [{ vertex_step: 'free' }, 'vertex_step is not an option of board square'],
    [{ board: 'hex3', vertex_step: 'both_flanks_block' }, 'vertex_step is not an option of board hex3'],
    [{ board: 'hex6', hostage_seat: 6 }, 'hostage_seat is not an option of board hex6'],
    [{ board: 'hex5', hostage_seat: 7 }, 'hostage_seat must be one of'],
    [{ board: 'hex6', vertex_step: 'sometimes' }, 'vertex_step must be one of'],
  ])('%j is refused: %s', (options, message) => {
    const r = parseRules(options);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('bad_rules');
      expect(r.error.message).toContain(message);
    }
  });
});

describe('seats and start positions (HEX.md §3.2, §4.2, SX-12, SX-13)', () => {
  test('§8.1 hex3: the §3.2 table, Red W, Blue SE, Yellow NE, Red first', () => {
    const pos = initialPosition(rulesOf({ board: 'hex3' }));
    expect(pieces(pos)).toHaveLength(27);
    expect(campOf(pos, 'R')).toEqual(['A5', 'A6', 'A4', 'B5', 'C5', 'B3', 'B4', 'B6', 'B7']);
    expect(campOf(pos, 'B')).toEqual(['G9', 'G8', 'F9', 'F8', 'F7', 'E8', 'E9', 'G7', 'H7']);
    expect(campOf(pos, 'Y')).toEqual(['G1', 'F1', 'G2', 'F2', 'F3', 'E1', 'E2', 'G3', 'H3']);
    expect(activePlayers(pos)).toEqual(['R', 'B', 'Y']);
    expect([pos.toMove, ruler(pos)]).toEqual(['R', null]);
    expect(GEOMETRIES[pos.geometry].names[GEOMETRIES[pos.geometry].maze]).toBe('E5');
  });

  test('§8.2 hex6: the §4.2 table, seats R B Y G P W counter-clockwise from W, 54 pieces on 54 cells', () => {
    const pos = initialPosition(rulesOf({ board: 'hex6' }));
    const table: Record<string, string[]> = {
      R: ['A7', 'A8', 'A6', 'B7', 'C7', 'B5', 'B6', 'B8', 'B9'],
      B: ['D13', 'C12', 'E13', 'D12', 'E11', 'C11', 'D11', 'E12', 'F13'],
      Y: ['J13', 'J12', 'I13', 'I12', 'I11', 'H12', 'H13', 'J11', 'K11'],
      G: ['M7', 'L8', 'L6', 'L7', 'K7', 'K6', 'K8', 'L5', 'L9'],
      P: ['J1', 'I1', 'J2', 'I2', 'I3', 'H1', 'H2', 'J3', 'K3'],
      W: ['D1', 'E1', 'C2', 'D2', 'E3', 'C3', 'D3', 'E2', 'F1'],
    };
    for (const [colour, camp] of Object.entries(table)) expect(campOf(pos, colour)).toEqual(camp);
    expect(new Set(pieces(pos).map((p) => p.square)).size).toBe(54);
    expect(activePlayers(pos)).toEqual(['R', 'B', 'Y', 'G', 'P', 'W']);
    expect(seatsOf(pos.rules)).toEqual(['R', 'B', 'Y', 'G', 'P', 'W']);
    expect(HEX6.names[HEX6.maze]).toBe('G7');
    expect(sorted(namesOf(HEX6, HEX6.fortress))).toEqual(['F6', 'F7', 'F8', 'G6', 'G8', 'H7']);
  });

  test('hex5: the same set-up, the sixth army a hostage (SX-13); the host may pick another seat', () => {
    const pos = initialPosition(rulesOf({ board: 'hex5' }));
    expect(pieces(pos)).toHaveLength(54);
    expect(activePlayers(pos)).toEqual(['R', 'B', 'Y', 'G', 'P']);
    expect(controllerOf(pos, 'W')).toBe('hostage');
    expect(makeFen(pos).split(' ').slice(1, 4)).toEqual(['RBYGPh', 'RBYGP', 'R']);
    const seat1 = initialPosition(rulesOf({ board: 'hex5', hostage_seat: 1 }));
    expect(activePlayers(seat1)).toEqual(['B', 'Y', 'G', 'P', 'W']);
    expect([controllerOf(seat1, 'R'), seat1.toMove]).toEqual(['hostage', 'B']);
  });

  test('turn order runs the seats in order, the hostage seat skipped (SX-12, R-11.5)', () => {
    const order = (pos: Position, n: number) => {
      const out: string[] = [];
      for (let k = 0; k < n; k++) {
        out.push(pos.toMove!);
        // A plain move of a militant that stays away from the maze.
        const turn = legalTurns(pos).find(
          (t) => 'from' in t && !t.placement && !t.reporterTarget && pieces(pos).find((p) => p.square === t.from)?.kind === 'militant',
        );
        pos = play(pos, turn!).position;
      }
      return out.join('');
    };
    expect(order(initialPosition(rulesOf({ board: 'hex3' })), 7)).toBe('RBYRBYR');
    expect(order(initialPosition(rulesOf({ board: 'hex6' })), 8)).toBe('RBYGPWRB');
    expect(order(initialPosition(rulesOf({ board: 'hex5' })), 7)).toBe('RBYGPRB');
    expect(order(initialPosition(rulesOf({ board: 'hex5', hostage_seat: 3 })), 7)).toBe('RBGPWRB');
  });

  test('the ruler plays after every other player on the large board (R-3.5, HX-7, SX-14)', () => {
    // Green's chief on the maze: G rules; with six players it moves after each of the five others.
    const list = [
      P('R', 'chief', 'A7'),
      P('R', 'militant', 'B9'),
      P('B', 'chief', 'D13'),
      P('B', 'militant', 'D11'),
      P('Y', 'chief', 'J13'),
      P('Y', 'militant', 'J11'),
      P('G', 'chief', 'G7'),
      P('G', 'militant', 'L9'),
      P('P', 'chief', 'J1'),
      P('P', 'militant', 'J3'),
      P('W', 'chief', 'D1'),
      P('W', 'militant', 'D3'),
    ];
    let pos = setUp({ board: 'hex6' }, list, 'R');
    const seen: string[] = [];
    for (let k = 0; k < 10; k++) {
      seen.push(`${pos.toMove}${pos.turnKind === 'extra' ? '+' : ''}`);
      const turn = legalTurns(pos).find((t) => 'from' in t && pieces(pos).find((p) => p.square === t.from)?.kind === 'militant' && !t.placement);
      pos = play(pos, turn!).position;
    }
    // After Y the next seat is G itself: a merged turn (normal), as on the square board.
    expect(seen.join(' ')).toBe('R G+ B G+ Y G P G+ W G+');
  });
});

describe('movement (HEX.md §8.3, §8.4; HX-3, SX-3)', () => {
  test('§8.3 hex3: a long-range piece has 24 moves on the centre, 16 on a corner', () => {
    const far = [P('B', 'chief', 'G7'), P('Y', 'chief', 'G6')]; // off every line of E5 and A5
    expect(destinationsOf(setUp({ board: 'hex3' }, [P('R', 'chief', 'E5'), ...far], 'R'), 'E5')).toHaveLength(24);
    expect(destinationsOf(setUp({ board: 'hex3' }, [P('R', 'chief', 'A5'), ...far], 'R'), 'A5')).toHaveLength(16);
  });

  test('§8.3 hex6: a long-range piece has 54 moves on the centre (36 + 18), 36 on a corner; a militant 24', () => {
    const far = [P('B', 'chief', 'I10'), P('Y', 'chief', 'J8')]; // off every line of G7 and A7
    expect(destinationsOf(setUp({ board: 'hex6' }, [P('R', 'chief', 'G7'), ...far], 'R'), 'G7')).toHaveLength(54);
    expect(destinationsOf(setUp({ board: 'hex6' }, [P('R', 'chief', 'A7'), ...far], 'R'), 'A7')).toHaveLength(36);
    // A militant one cell from the centre: 24 cells of its 12 lines, less the maze it may only cross.
    const militant = destinationsOf(setUp({ board: 'hex6' }, [P('R', 'chief', 'A7'), P('R', 'militant', 'F7'), ...far], 'R'), 'F7');
    expect(militant).toHaveLength(23);
    expect(militant).toContain('H7'); // across the empty maze
  });

  test('hex3 has no corner steps: no diagonal moves at all (HX-3)', () => {
    const pos = setUp({ board: 'hex3' }, [P('R', 'chief', 'C5'), P('B', 'chief', 'G9'), P('Y', 'chief', 'G1')], 'R');
    // C5 is (-2, 0); the corner step (1, -2) would land on (-1, -2).
    expect(destinationsOf(pos, 'C5')).not.toContain(hexCellName(4, -1, -2));
    expect(destinationsOf(pos, 'C5')).toHaveLength(20);
  });

  test('§8.4 hex6: seat 1’s militant B9 kills seat 2’s militant C11 on the first move', () => {
    const start = initialPosition(rulesOf({ board: 'hex6' }));
    expect(destinationsOf(start, 'B9')).toContain('C11');
    const done = play(start, { from: 'B9', to: 'C11', placement: 'B10' });
    expect(done.effects.map((e) => e.type)).toEqual(['move', 'kill', 'place']);
  });
});

describe('encirclement on the small board (HEX.md §8.5; HX-5)', () => {
  test('§8.5 hex3: a chief whose six neighbours are corpses or off the board is encircled', () => {
    const pos = setUp(
      { board: 'hex3' },
      [P('R', 'chief', 'A5'), corpse('A4'), corpse('A6'), corpse('D5'), P('B', 'chief', 'G9'), P('B', 'necromobile', 'G5'), P('Y', 'chief', 'G1')],
      'B',
    );
    const done = play(pos, { from: 'G5', to: 'D5', placement: 'B5' });
    expect(done.effects).toContainEqual({ type: 'eliminated', colour: 'R', cause: 'encircled', by: 'B' });
  });
});

describe('the hostage army of hex5 (SX-13, R-11)', () => {
  const list = [
    P('R', 'chief', 'A7'),
    P('R', 'assassin', 'C4'),
    P('B', 'chief', 'D13'),
    P('Y', 'chief', 'J13'),
    P('G', 'chief', 'M7'),
    P('P', 'chief', 'J1'),
    P('W', 'chief', 'C3'),
    P('W', 'militant', 'D3'),
  ];
  const hostage = () => setUp({ board: 'hex5' }, list, 'R', { active: ['R', 'B', 'Y', 'G', 'P'], control: { W: 'hostage' } });

  test('its pieces never move; killing its chief hands the army over, nobody is eliminated', () => {
    const pos = hostage();
    expect(destinationsOf(pos, 'D3')).toEqual([]);
    expect(new Set(legalTurns(pos).map((t) => ('from' in t ? t.from : 'pass')))).toEqual(new Set(['A7', 'C4']));
    expect(destinationsOf(pos, 'C4')).toContain('C3');
    const done = play(pos, { from: 'C4', to: 'C3' });
    expect(controllerOf(done.position, 'W')).toBe('R');
    expect(done.effects.some((e) => e.type === 'eliminated')).toBe(false);
    expect(activePlayers(done.position)).toEqual(['R', 'B', 'Y', 'G', 'P']);
  });
});

describe('notation of the hex games (docs/NOTATION.md)', () => {
  test.each(['hex3', 'hex5', 'hex6'])('%s: the start position, a record and its replay round-trip', (board) => {
    const rules = rulesOf({ board });
    const start = initialPosition(rules);
    const text = makeFen(start);
    const again = parseFen(text, rules);
    expect(again.ok && makeFen(again.value)).toBe(text);
    expect(parseFen(text, DEFAULT_RULES).ok).toBe(false);
    // A few turns, written and read back in the board's names.
    let pos = start;
    const events: { type: 'turn'; turn: Turn }[] = [];
    const texts: string[] = [];
    for (let k = 0; k < 12; k++) {
      const turns = legalTurns(pos);
      const turn = turns[(k * 7919) % turns.length];
      texts.push(textOf(turn, pos));
      const parsed = parseTurn(texts[k], board as never);
      expect(parsed.ok && textOf(parsed.value, pos)).toBe(texts[k]);
      events.push({ type: 'turn', turn });
      pos = play(pos, turn).position;
    }
    const record = makeRecord({ rules, events }, texts);
    expect(record.split('\n')[0]).toMatch(new RegExp(`^Djambi board=${board} players=\\d `));
    const read = parseRecord(record);
    expect(read.ok && read.value.rules).toEqual(rules);
    const replayed = read.ok ? replayRecord(read.value) : null;
    expect(replayed?.ok && makeFen(replayed.value)).toBe(makeFen(pos));
  });

  test('a square record reads as before: no board, no hex option', () => {
    const header = makeRecord({ rules: DEFAULT_RULES, events: [] }).split('\n')[0];
    expect(header).toBe(
      'Djambi players=4 layout=mirror reporter=optional_single self_kill=false maze_exit_order=act_exit_place encirclement=group neutral_pieces_untouchable=true encircled_chief=dies power_transfer_of_neutral_armies=permanent master_moves=false no_progress_rounds=50',
    );
    expect(parseRecord(`${header} vertex_step=free\n`).ok).toBe(false);
    expect(parseRecord(`${header} hostage_seat=6\n`).ok).toBe(false);
    const wrongBoard = parseRecord('Djambi board=hex3 players=4\n');
    expect(wrongBoard.ok ? null : wrongBoard.error.message).toBe('line 1, column 19: players must be 3 on board hex3');
  });

  test('hex5 and hex6 positions carry six armies: control, active players, the hostage', () => {
    const rules = rulesOf({ board: 'hex5', hostage_seat: 4 });
    const pos = initialPosition(rules);
    const fields = makeFen(pos).split(' ');
    expect(fields.slice(1, 6)).toEqual(['RBYhPW', 'RBYPW', 'R', 'n', 'R']);
    const again = parseFen(makeFen(pos), rules);
    expect(again.ok && controllerOf(again.value, 'G')).toBe('hostage');
    // A position of the small board has no P or W.
    expect(parseFen('2YmYaYc/3YmYdYr/Rm3YnYmYm/RrRm6/RcRdRn6/RaRm6/Rm3BnBmBm/3BmBdBa/2BmBrPc RBY RBY R n R 0 0 *', rulesOf({ board: 'hex3' })).ok).toBe(false);
  });
});

describe('perft from the start positions (counted as conformance README "Perft")', () => {
  test.each([
    ['hex3', [27, 1071]],
    ['hex6', [511, 275006]],
    ['hex5', [511, 275006]],
  ] as const)('%s: depths 1 and 2', (board, counts) => {
    const start = initialPosition(rulesOf({ board }));
    expect([1, 2].map((d) => perft(start, d))).toEqual(counts);
  });

  test('hex3 and hex6: the count at depth 2 equals the turns listed one by one', () => {
    for (const board of ['hex3', 'hex6']) {
      const start = initialPosition(rulesOf({ board }));
      let listed = 0;
      for (const t of legalTurns(start)) listed += legalTurns(play(start, t).position).length;
      expect(listed).toBe(perft(start, 2));
    }
  });
});

describe('random hex games (seeded)', () => {
  test.each(['hex3', 'hex6', 'hex5'])('%s: whole games, every listed turn counted and a sample accepted, records replay', (board) => {
    const random = seeded(board.length * 1000 + board.charCodeAt(3));
    for (let game = 0; game < 12; game++) {
      const rules = randomRules(random, board);
      let pos = initialPosition(rules);
      const count = pieces(pos).length;
      const events: { type: 'turn'; turn: Turn }[] = [];
      for (let n = 0; !pos.result; n++) {
        check(n < 5000, 'the game ends', pos);
        if (n % 20 === 0) {
          const all = legalTurns(pos);
          check(all.length === countTurns(pos), 'listing and counting agree', pos);
          for (let k = 0; k < 3; k++) checkedTurn(pos, pick(random, all), count);
        }
        const turn = randomTurn(pos, random);
        events.push({ type: 'turn', turn });
        pos = checkedTurn(pos, turn, count);
      }
      const replayed = parseRecord(makeRecord({ rules, events }));
      const end = replayed.ok ? replayRecord(replayed.value) : null;
      expect(end?.ok && makeFen(end.value)).toBe(makeFen(pos));
    }
  });
});
