/**
 * Runs rules conformance cases (format: ../shared/conformance/README.md) against the engine.
 * Pure: takes the parsed file, returns one verdict per case. One addition to the format: an
 * optional `board` (a value of the `board` rule option: `square`, `hex3`, `hex5`, `hex6`;
 * shared/variants/HEX.md) at the top level of the file, for every case, or in a case, for that
 * case; cells are then named as on that board (HEX.md §2) and its start position is the one
 * `initial_position` asks about.
 */
import {
  ALL_COLOURS,
  activePlayers,
  BOARDS,
  geometryOfRules,
  controllerOf,
  diagnoseTurn,
  initialPosition,
  legalDestinations,
  parseRules,
  pieces,
  playTurn,
  ruler,
  seatsOf,
  setupPosition,
  type AnyColour,
  type Colour,
  type Effect,
  type MoveTurn,
  type Position,
} from '../../shared/src/index.js';
import { nextTurn } from '../../shared/src/rules/order.js';

/** The verdict on one case. */
export interface CaseResult {
  id: string;
  passed: boolean;
  /** What differed (empty when passed). */
  problems: string[];
}

type Json = Record<string, unknown>;

const QUERY_FIELDS: Record<string, readonly string[]> = {
  initial_position: ['pieces', 'control', 'active_players', 'first_player', 'seat_order', 'maze', 'maze_occupied', 'differences_from_mirror'],
  legal_destinations: ['destinations'],
  legal_destinations_many: ['by_square'],
  legal_destinations_all: ['by_square'],
  move: [
    'legal',
    'destinations',
    'placement_options',
    'exit_options',
    'placement_options_after_exit',
    'reporter_targets',
    'reporter_kill_required',
    'choices_made',
    'pieces_after',
    'control_after',
    'active_players_after',
    'ruler_after',
    'eliminated',
    'winner',
  ],
  turn_sequence: ['sequence', 'turn_kinds', 'next_player_after_last_step'],
};

/** Run every case of a parsed conformance file. */
export function runConformance(file: unknown): CaseResult[] {
  if (!isObj(file) || !Array.isArray(file.cases)) return [{ id: '(file)', passed: false, problems: ['no cases list'] }];
  const defaults = isObj(file.default_ruleset) ? file.default_ruleset : {};
  const board = file.board ?? 'square';
  return file.cases.map((c, i) => {
    const id = isObj(c) && typeof c.id === 'string' ? c.id : `#${i}`;
    let problems: string[];
    try {
      problems = isObj(c) ? runCase(c, defaults, c.board ?? board) : ['case is not an object'];
    } catch (e) {
      problems = [`engine threw: ${e instanceof Error ? e.message : String(e)}`];
    }
    return { id, passed: problems.length === 0, problems };
  });
}

function runCase(c: Json, defaults: Json, board: unknown): string[] {
  const query = c.query;
  const expected = c.expected;
  if (!isObj(query) || !isObj(expected)) return ['missing query or expected'];
  const type = String(query.type);
  const known = QUERY_FIELDS[type];
  if (!known) return [`unsupported query type ${type}`];
  const problems: string[] = [];
  for (const k of Object.keys(expected)) if (k !== 'note' && k !== 'notes' && !known.includes(k)) problems.push(`unsupported expected field ${k}`);
  if (!(BOARDS as readonly unknown[]).includes(board)) return [...problems, `unsupported board ${JSON.stringify(board)}`];
  const options: Json = { ...defaults, ...(isObj(c.ruleset_overrides) ? c.ruleset_overrides : {}) };
  if (board !== 'square') options.board = board;
  const position = isObj(c.position) ? c.position : null;
  if (type === 'initial_position' && query.players !== undefined) options.players = query.players;
  // On a hex board the board fixes the player count (parseRules); on the square board the position implies it.
  else if (position && board === 'square') options.players = playersOf(position);
  const rules = parseRules(options);
  if (!rules.ok) return [...problems, `unsupported rule options: ${rules.error.message}`];
  const check = (field: string, actual: unknown, compare: (a: unknown, b: unknown) => boolean = sameJson) => {
    if (!(field in expected)) return;
    if (!compare(expected[field], actual)) problems.push(`${field}: expected ${JSON.stringify(expected[field])}, got ${JSON.stringify(actual)}`);
  };

  if (type === 'turn_sequence') {
    problems.push(...runSequence(c, query, expected));
    return problems;
  }
  if (type === 'initial_position') {
    const pos = initialPosition(rules.value);
    check('pieces', pieceList(pos), sameMultiset);
    check('control', controlMap(pos));
    check('active_players', activePlayers(pos), sameSet);
    check('first_player', pos.toMove);
    check('seat_order', seatsOf(rules.value));
    const g = geometryOfRules(rules.value);
    check('maze', g.names[g.maze]);
    check(
      'maze_occupied',
      pieces(pos).some((p) => p.square === g.names[g.maze]),
    );
    if (Array.isArray(expected.differences_from_mirror)) {
      for (const diff of expected.differences_from_mirror) {
        if (!isObj(diff)) continue;
        for (const [kind, square] of Object.entries(diff)) {
          if (kind === 'colour') continue;
          const found = pieces(pos).some((p) => p.colour === diff.colour && p.kind === kind && p.square === square);
          if (!found) problems.push(`differences_from_mirror: no ${String(diff.colour)} ${kind} on ${String(square)}`);
        }
      }
    }
    return problems;
  }
  if (!position) return [...problems, 'missing position'];
  const setupFor = (toMove: AnyColour) =>
    setupPosition(
      {
        pieces: (position.pieces as never[]) ?? [],
        control: position.control as Partial<Record<AnyColour, AnyColour | 'frozen' | 'hostage'>>,
        active: position.active_players as AnyColour[],
        toMove,
      },
      rules.value,
    );
  const setup = setupFor(c.to_move as AnyColour);
  if (!setup.ok) return [...problems, `bad position: ${setup.error.message}`];
  const pos = setup.value;
  /** Destinations of the piece on `sq`, asked of the player who controls it (the one to move, normally). */
  const destinationsOf = (sq: string): string[] => {
    const piece = pieces(pos).find((p) => p.square === sq);
    const owner = piece ? controllerOf(pos, piece.colour) : null;
    if (!owner || owner === pos.toMove || !activePlayers(pos).includes(owner as Colour)) return legalDestinations(pos, sq);
    const as = setupFor(owner as AnyColour);
    return as.ok ? legalDestinations(as.value, sq) : [];
  };

  switch (type) {
    case 'legal_destinations':
      check('destinations', destinationsOf(String(query.from)), sameSet);
      break;
    case 'legal_destinations_many':
    case 'legal_destinations_all': {
      const froms =
        type === 'legal_destinations_many'
          ? (query.from as string[])
          : pieces(pos)
              .filter((p) => p.alive && controllerOf(pos, p.colour) === (query.colour ?? c.to_move))
              .map((p) => p.square);
      const exp = isObj(expected.by_square) ? (expected.by_square as Record<string, string[]>) : {};
      const all = new Set([...froms, ...Object.keys(exp)]);
      for (const sq of all) {
        const actual = froms.includes(sq) ? destinationsOf(sq) : [];
        if (!sameSet(exp[sq] ?? [], actual)) problems.push(`by_square.${sq}: expected ${JSON.stringify(exp[sq] ?? [])}, got ${JSON.stringify(actual)}`);
      }
      break;
    }
    case 'move':
      problems.push(...runMove(pos, query, expected, check));
      break;
  }
  return problems;
}

function runMove(pos: Position, query: Json, expected: Json, check: (f: string, a: unknown, cmp?: (a: unknown, b: unknown) => boolean) => void): string[] {
  const turn: { -readonly [K in keyof MoveTurn<string>]: MoveTurn<string>[K] } = { from: String(query.from), to: String(query.to) };
  const choices: Json = {};
  // A choice given as null is echoed but means "none" (e.g. a declined reporter kill).
  for (const [field, key] of [
    ['placement', 'placement'],
    ['exit', 'exit'],
    ['reporter_target', 'reporterTarget'],
  ] as const) {
    const value = query[field];
    if (value === undefined) continue;
    choices[field] = value;
    if (value !== null) turn[key] = String(value);
  }
  const diagnosis = diagnoseTurn(pos, turn);
  const played = playTurn(pos, turn);
  const problems: string[] = [];
  if (played.ok !== (diagnosis.error === null)) problems.push('playTurn and diagnoseTurn disagree');
  check('legal', played.ok);
  // Option sets offered at each step, named as in the case format.
  let seenExit = false;
  let reporterRequired = false;
  const offered: Record<string, string[]> = {};
  for (const s of diagnosis.steps) {
    if (s.choice === 'destination') offered.destinations = [...s.options];
    else if (s.choice === 'exit') {
      offered.exit_options = [...s.options];
      seenExit = true;
    } else if (s.choice === 'placement') offered[seenExit ? 'placement_options_after_exit' : 'placement_options'] = [...s.options];
    else {
      offered.reporter_targets = [...s.options];
      reporterRequired = s.required === true;
    }
  }
  for (const f of ['destinations', 'placement_options', 'exit_options', 'placement_options_after_exit', 'reporter_targets'])
    if (f in expected) check(f, offered[f] ?? [], sameSet);
  check('reporter_kill_required', reporterRequired);
  check('choices_made', choices);
  const after = played.ok ? played.value.position : pos;
  const effects: Effect[] = played.ok ? played.value.effects : [];
  check('pieces_after', pieceList(after), sameMultiset);
  check('control_after', controlMap(after));
  check('active_players_after', activePlayers(after), sameSet);
  check('ruler_after', ruler(after));
  check(
    'eliminated',
    effects.flatMap((e) => (e.type === 'eliminated' ? [e.colour] : [])),
    sameSet,
  );
  check('winner', after.result?.kind === 'win' ? after.result.winner : null);
  if (!played.ok && !sameMultiset(pieceList(after), pieceList(pos))) problems.push('a rejected turn changed the position');
  return problems;
}

/** R-3.5 on the facts given by a turn_sequence case. */
function runSequence(c: Json, query: Json, expected: Json): string[] {
  const steps = Array.isArray(query.steps) ? (query.steps as Json[]) : [];
  const idx = (x: unknown) => ALL_COLOURS.indexOf(x as AnyColour);
  let toMove = idx(c.to_move ?? steps[0]?.turn_of);
  let normal = true;
  let cursor = toMove;
  const sequence: string[] = [];
  const kinds: string[] = [];
  const problems: string[] = [];
  for (const [i, s] of steps.entries()) {
    if (idx(s.turn_of) !== toMove) problems.push(`step ${i}: the engine gives the turn to ${ALL_COLOURS[toMove]}, the case to ${String(s.turn_of)}`);
    sequence.push(ALL_COLOURS[toMove]);
    kinds.push(normal ? 'normal' : 'extra');
    const mask = ((s.after_turn_active_players as string[]) ?? []).reduce((m, x) => m | (1 << idx(x)), 0);
    const k = s.after_turn_ruler == null ? -1 : idx(s.after_turn_ruler);
    const next = nextTurn(toMove, normal, cursor, mask, k);
    toMove = next.player;
    normal = next.normal;
    cursor = next.cursor;
  }
  const cmp = (f: string, actual: unknown) => {
    if (f in expected && !sameJson(expected[f], actual)) problems.push(`${f}: expected ${JSON.stringify(expected[f])}, got ${JSON.stringify(actual)}`);
  };
  cmp('sequence', sequence);
  cmp('turn_kinds', kinds);
  cmp('next_player_after_last_step', ALL_COLOURS[toMove]);
  return problems;
}

/** Player count implied by a case position (README: the mode follows from control and active players). */
function playersOf(position: Json): 2 | 3 | 4 {
  const control = isObj(position.control) ? position.control : {};
  if (Object.values(control).includes('hostage')) return 3;
  const active = Array.isArray(position.active_players) ? position.active_players : [];
  if (control.B === 'R' && control.G === 'Y' && active.length === 2 && active.includes('R') && active.includes('Y')) return 2;
  return 4;
}

function pieceList(pos: Position) {
  return pieces(pos).map(({ colour, kind, square, alive }) => ({ colour, kind, square, alive }));
}

function controlMap(pos: Position): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of ALL_COLOURS) {
    const ctl = controllerOf(pos, c);
    if (ctl !== null) out[c] = ctl;
  }
  return out;
}

function isObj(x: unknown): x is Json {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function canonical(x: unknown): string {
  if (Array.isArray(x)) return `[${x.map(canonical).join(',')}]`;
  if (isObj(x))
    return `{${Object.keys(x)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(x[k])}`)
      .join(',')}}`;
  return JSON.stringify(x ?? null);
}

function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function sameSet(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b)) return false;
  const sa = [...new Set(a.map(canonical))].sort();
  const sb = [...new Set(b.map(canonical))].sort();
  return sa.length === sb.length && sa.every((x, i) => x === sb[i]) && a.length === sa.length && b.length === sb.length;
}

function sameMultiset(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  const sa = a.map(canonical).sort();
  const sb = b.map(canonical).sort();
  return sa.every((x, i) => x === sb[i]);
}
