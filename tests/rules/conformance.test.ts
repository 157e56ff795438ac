import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runConformance } from '../tools/conformanceRunner.js';

/** The public cases live in the project's shared folder, beside the checkout (../shared). */
const file = process.env.CONFORMANCE_FILE ?? resolve(__dirname, '../../../shared/conformance/cases.json');
/** The repository's own cases in the same format (the hex games: `board` per case). */
const ownDir = resolve(__dirname, 'conformance');
const ownFiles = readdirSync(ownDir).filter((f) => f.endsWith('.json'));

describe.each(ownFiles.map((f) => [f]))("the repository's cases: %s", (name) => {
  const results = runConformance(JSON.parse(readFileSync(resolve(ownDir, name), 'utf8')));
  test.each(results.map((r) => [r.id, r] as const))('%s', (_id, r) => {
    expect(r.problems).toEqual([]);
  });
});

describe('rules conformance cases', () => {
  // The project's shared folder sits beside the checkout in CI; elsewhere (a clone in a
  // temporary folder) say so and skip the cases, but never under CI=true.
  if (existsSync(file) || process.env.CI === 'true') {
    test('the case file is there', () => {
      expect(existsSync(file)).toBe(true);
    });
  } else {
    console.warn(`[conformance] ${file} not found: public cases skipped (set CONFORMANCE_FILE)`);
  }
  const results = existsSync(file) ? runConformance(JSON.parse(readFileSync(file, 'utf8'))) : [];
  if (results.length)
    test.each(results.map((r) => [r.id, r] as const))('%s', (_id, r) => {
      expect(r.problems).toEqual([]);
    });
  test('an unknown query type, rule option or board fails instead of being skipped', () => {
    const verdicts = runConformance({
      cases: [
        { id: 'X-1', position: null, to_move: 'R', query: { type: 'mystery' }, expected: {} },
        { id: 'X-2', ruleset_overrides: { comeback: 'allowed' }, position: null, to_move: 'R', query: { type: 'initial_position' }, expected: {} },
        { id: 'X-3', position: null, to_move: 'R', query: { type: 'initial_position' }, expected: { unheard_of: 1 } },
        { id: 'X-4', board: 'hex4', position: null, to_move: 'R', query: { type: 'initial_position' }, expected: {} },
        {
          id: 'X-5',
          board: 'hex3',
          ruleset_overrides: { vertex_step: 'free' },
          position: null,
          to_move: 'R',
          query: { type: 'initial_position' },
          expected: {},
        },
      ],
    });
    expect(verdicts.map((v) => v.passed)).toEqual([false, false, false, false, false]);
  });

  test('a board given for the whole file applies to every case that names none', () => {
    const case_ = (id: string, board?: string) => ({
      id,
      ...(board ? { board } : {}),
      position: null,
      to_move: 'R',
      query: { type: 'initial_position' },
      expected: { maze: 'G7' },
    });
    const verdicts = runConformance({ board: 'hex6', cases: [case_('F-1'), case_('F-2', 'hex5'), case_('F-3', 'hex3')] });
    expect(verdicts.map((v) => v.passed)).toEqual([true, true, false]);
  });
  test('a piece of a player not to move is answered for its controller; a frozen piece has none', () => {
    const position = {
      pieces: [
        { colour: 'R', kind: 'chief', square: 'a9', alive: true },
        { colour: 'B', kind: 'chief', square: 'i9', alive: true },
        { colour: 'B', kind: 'militant', square: 'e2', alive: true },
        { colour: 'G', kind: 'militant', square: 'c3', alive: true },
      ],
      control: { G: 'frozen' },
      active_players: ['R', 'B'],
    };
    const case_ = (id: string, from: string, destinations: string[]) => ({
      id,
      position,
      to_move: 'R',
      query: { type: 'legal_destinations', from },
      expected: { destinations },
    });
    const verdicts = runConformance({
      cases: [case_('B-1', 'e2', ['d1', 'd2', 'd3', 'e1', 'e3', 'e4', 'f1', 'f2', 'f3', 'c2', 'g2', 'c4', 'g4']), case_('G-1', 'c3', [])],
    });
    expect(verdicts.map((v) => v.problems)).toEqual([[], []]);
  });
});
