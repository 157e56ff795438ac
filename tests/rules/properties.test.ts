/**
 * Seeded property tests over random complete games (4, 3 and 2 players, random rule options).
 * PROPERTY_GAMES sets the number of games (default 500).
 */
import {
  activePlayers,
  controllerOf,
  countTurns,
  initialPosition,
  legalTurns,
  makeFen,
  makeRecord,
  makeTurn,
  parseFen,
  parseRecord,
  parseRules,
  parseTurn,
  pieces,
  playTurn,
  randomTurn,
  replayRecord,
  resign,
  setupPosition,
  type Colour,
  type Controller,
  type Effect,
  type Kind,
  type PieceSetup,
  type Position,
  type RecordEvent,
  type Rules,
  type Turn,
} from '@djambi/shared';
import { seeded } from '../support/random.js';

/** The square board's four armies (COLOURS has the hex boards' six). */
const SQUARE_ARMIES = ['R', 'B', 'Y', 'G'] as const;

const GAMES = Number(process.env.PROPERTY_GAMES ?? 500);
const TURN_CAP = 5000;

const pick = <T>(random: () => number, xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];

function randomRules(random: () => number): Rules {
  const r = parseRules({
    players: pick(random, [4, 4, 3, 2] as const),
    layout: pick(random, ['mirror', 'chhobu_rotational']),
    reporter: pick(random, ['optional_single', 'mandatory_single', 'all_adjacent']),
    self_kill: random() < 0.3,
    maze_exit_order: pick(random, ['act_exit_place', 'act_place_exit']),
    encirclement: pick(random, ['group', 'literal_ring', 'throne_access']),
    neutral_pieces_untouchable: random() < 0.7,
    no_progress_rounds: pick(random, [5, 10, 50]),
  });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const SQUARES = 'abcdefghi'.split('').flatMap((f) => '123456789'.split('').map((r) => f + r));

/** A turn changed at random: another destination, a dropped, added or changed choice. */
function mutate(random: () => number, turn: Turn): unknown {
  if ('pass' in turn) return { from: pick(random, SQUARES), to: pick(random, SQUARES) };
  const t: Record<string, unknown> = { ...turn };
  switch (Math.floor(random() * 7)) {
    case 0:
      t.to = pick(random, SQUARES);
      break;
    case 1:
      t.from = pick(random, SQUARES);
      break;
    case 2:
      if (t.placement) delete t.placement;
      else t.placement = pick(random, SQUARES);
      break;
    case 3:
      if (t.exit) delete t.exit;
      else t.exit = pick(random, SQUARES);
      break;
    case 4:
      t.reporterTarget = pick(random, SQUARES);
      break;
    case 5:
      t.placement = pick(random, [...SQUARES, 'j1', 'e0', '', 42, null]);
      break;
    default:
      t[pick(random, ['extra', 'to', 'from'])] = pick(random, [undefined, 'zz', {}, [], 'e5']);
  }
  return t;
}

/** `expect` is slow in hot loops: a plain check that throws with the position. */
function check(cond: boolean, what: string, pos: Position): void {
  if (!cond) throw new Error(`${what} in ${makeFen(pos)}`);
}

/** Invariants of every position. */
function checkPosition(pos: Position): void {
  const ps = pieces(pos);
  check(ps.length === 36, '36 pieces', pos);
  check(new Set(ps.map((p) => p.square)).size === 36, 'one piece per square', pos);
  for (const p of ps) if (p.square === 'e5') check(p.kind === 'chief', 'only a chief on the maze', pos);
  const fen = makeFen(pos);
  const back = parseFen(fen, pos.rules);
  check(back.ok && makeFen(back.value) === fen, 'position notation round-trips', pos);
}

/** No eliminated player (nor a satellite or hostage seat) controls an army (N-1, N-5 step 3, N-7). */
function checkControllers(pos: Position): void {
  const active = activePlayers(pos);
  for (const army of SQUARE_ARMIES) {
    const c = controllerOf(pos, army);
    if (c !== null && c !== 'frozen' && c !== 'hostage') check(active.includes(c), `army ${army} is controlled by the inactive ${c}`, pos);
  }
}

/** A corpse reaches the maze only when a reporter kills the chief there, or the ruler resigns. */
function checkMazeCorpse(before: Position, after: Position, effects: readonly Effect[]): void {
  const was = pieces(before).find((p) => p.square === 'e5');
  const now = pieces(after).find((p) => p.square === 'e5');
  if (!now || now.alive) return;
  if (was && !was.alive && was.id === now.id) return;
  const killedThere = effects.some((e) => e.type === 'kill' && e.square === 'e5' && e.piece === now.id);
  check(killedThere, 'a corpse on the maze was killed there', after);
  const reporterMoved = effects.some((e) => e.type === 'move' && pieces(after)[e.piece].kind === 'reporter');
  const resigned = effects.some((e) => e.type === 'resign');
  check(reporterMoved || resigned, 'only a reporter or a resignation leaves a corpse on the maze', after);
}

/**
 * A random crowded position (many corpses, few living pieces, a chief on the maze one time in
 * four) where encirclements, rulers walled in and cascades are common; the player to move is random.
 */
function crowdedPosition(random: () => number): Position {
  const players = pick(random, [2, 2, 3, 4] as const);
  const rules = parseRules({
    players,
    reporter: pick(random, ['optional_single', 'mandatory_single', 'all_adjacent']),
    encirclement: pick(random, ['group', 'literal_ring', 'throne_access']),
    self_kill: random() < 0.3,
  });
  if (!rules.ok) throw new Error(rules.error.message);
  const free = SQUARES.filter((sq) => sq !== 'e5');
  const take = () => free.splice(Math.floor(random() * free.length), 1)[0];
  const kinds: Kind[] = ['assassin', 'reporter', 'diplomat', 'militant', 'militant', 'militant'];
  const list: PieceSetup[] = [];
  for (const colour of SQUARE_ARMIES) {
    const onMaze = random() < 0.25 && !list.some((p) => p.square === 'e5');
    list.push({ colour, kind: 'chief', square: onMaze ? 'e5' : take(), alive: true });
    for (let k = 1 + Math.floor(random() * 4); k > 0; k--)
      list.push({ colour, kind: random() < 0.05 ? 'necromobile' : pick(random, kinds), square: take(), alive: true });
  }
  for (let k = 30 + Math.floor(random() * 30); k > 0; k--) list.push({ colour: pick(random, SQUARE_ARMIES), kind: 'militant', square: take(), alive: false });
  const control: Partial<Record<Colour, Controller>> = players === 2 ? { B: 'R', G: 'Y' } : players === 3 ? { G: 'hostage' } : {};
  const active: Colour[] = players === 2 ? ['R', 'Y'] : players === 3 ? ['R', 'B', 'Y'] : ['R', 'B', 'Y', 'G'];
  const r = setupPosition({ pieces: list, control, active, toMove: pick(random, active) }, rules.value);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe(`random games (${GAMES})`, () => {
  test('invariants hold after every turn, records replay, every game ends', () => {
    const random = seeded(20261129);
    const ends: Record<string, number> = {};
    for (let g = 0; g < GAMES; g++) {
      const rules = randomRules(random);
      let pos = initialPosition(rules);
      checkPosition(pos);
      const events: RecordEvent[] = [];
      const texts: string[] = [];
      let turns = 0;
      while (!pos.result) {
        check(turns++ < TURN_CAP, 'the game ends within the turn cap', pos);
        const before = pos;
        if (random() < 0.002) {
          const who = pick(random, activePlayers(pos));
          const r = resign(pos, who);
          check(r.ok, 'an active player may resign', pos);
          if (!r.ok) break;
          events.push({ type: 'resign', colour: who });
          texts.push(`resign:${who}`);
          pos = r.value.position;
          checkMazeCorpse(before, pos, r.value.effects);
          checkPosition(pos);
          checkControllers(pos);
          continue;
        }
        if (turns % 25 === 0) {
          // Every enumerated turn is counted; a sample is accepted; mutations are rejected or legal.
          const all = legalTurns(pos);
          check(all.length === countTurns(pos), 'enumeration and count agree', pos);
          const legal = new Set(all.map((t) => makeTurn(t)));
          const fen = makeFen(pos);
          for (let k = 0; k < 4; k++) {
            const sample = playTurn(pos, pick(random, all));
            check(sample.ok, 'an enumerated turn is accepted', pos);
            if (sample.ok) checkControllers(sample.value.position);
          }
          for (let k = 0; k < 6; k++) {
            const bad = mutate(random, pick(random, all));
            const r = playTurn(pos, bad as Turn);
            if (r.ok) check(legal.has(makeTurn(bad as Turn)), `an accepted mutation is legal: ${JSON.stringify(bad)}`, pos);
            else check(typeof r.error.code === 'string' && r.error.code.length > 0, 'a rejection has a code', pos);
          }
          check(makeFen(pos) === fen, 'rejected turns change nothing', pos);
        }
        const turn = randomTurn(pos, random);
        const text = makeTurn(turn, pos);
        const parsed = parseTurn(text);
        check(parsed.ok && makeTurn(parsed.value, pos) === text, `turn notation round-trips: ${text}`, pos);
        const r = playTurn(pos, turn);
        check(r.ok, `a random legal turn is accepted: ${text}`, pos);
        if (!r.ok) break;
        events.push({ type: 'turn', turn });
        texts.push(text);
        pos = r.value.position;
        checkMazeCorpse(before, pos, r.value.effects);
        checkPosition(pos);
        checkControllers(pos);
      }
      const key = pos.result!.kind === 'win' ? 'win' : `draw:${pos.result!.reason}`;
      ends[key] = (ends[key] ?? 0) + 1;
      // The record (with its own turn texts) replays to the same final position.
      const text = makeRecord({ rules, events }, texts);
      const record = parseRecord(text);
      expect(record.ok).toBe(true);
      if (!record.ok) continue;
      expect(makeRecord(record.value)).toBe(makeRecord({ rules, events }));
      const replayed = replayRecord(record.value);
      expect(replayed.ok).toBe(true);
      if (replayed.ok) expect(makeFen(replayed.value)).toBe(makeFen(pos));
    }
    // The games reach both kinds of end.
    expect(Object.keys(ends).length).toBeGreaterThan(1);
  });

  test('the same seed gives the same game', () => {
    const play = (seed: number) => {
      const random = seeded(seed);
      let pos = initialPosition(randomRules(random));
      const out: string[] = [];
      while (!pos.result) {
        const t = randomTurn(pos, random);
        out.push(makeTurn(t, pos));
        const r = playTurn(pos, t);
        if (!r.ok) throw new Error(r.error.message);
        pos = r.value.position;
      }
      return out.join(' ');
    };
    expect(play(99)).toBe(play(99));
  });
});

describe(`crowded random positions (${GAMES * 2})`, () => {
  test('no eliminated player controls an army after any turn or resignation (N-5 step 3, N-7)', () => {
    const random = seeded(20260512);
    let eliminations = 0;
    for (let g = 0; g < GAMES * 2; g++) {
      let pos = crowdedPosition(random);
      for (let t = 0; t < 40 && !pos.result; t++) {
        const resigning = random() < 0.05;
        const r = resigning ? resign(pos, pick(random, activePlayers(pos))) : playTurn(pos, randomTurn(pos, random));
        check(r.ok, resigning ? 'an active player may resign' : 'a random legal turn is accepted', pos);
        if (!r.ok) break;
        pos = r.value.position;
        eliminations += r.value.effects.filter((e) => e.type === 'eliminated').length;
        checkControllers(pos);
      }
    }
    // The positions do eliminate players (so the check is not vacuous).
    expect(eliminations).toBeGreaterThan(GAMES);
  });
});
