/**
 * SX-4 (shared/variants/HEX.md §4.3): may a step along a corner line of the large board pass
 * between two occupied flanking cells? The `vertex_step` rule option, each reading: moves, the
 * maze exit, and encirclement's adjacency (SX-6, §8.6).
 */
import { HEX6, nextChoice } from '@djambi/shared';
import { at6, corpse, destinationsOf, namesOf, P, play, setUp, sorted } from './hexSupport.js';

describe('SX-4 moves', () => {
  // Red's chief on D7 (-3, 0); the step N (+1, -2) lands on D5 between D6 (+1, -1) and C6 (0, -1).
  const chiefAt = 'D7';
  const far = [P('B', 'chief', 'M7'), P('Y', 'chief', 'J13')];
  const destinations = (vertex_step: string, flanks: string[]) =>
    destinationsOf(setUp({ board: 'hex6', vertex_step }, [P('R', 'chief', chiefAt), ...flanks.map(corpse), ...far], 'R'), chiefAt);

  test('the geometry: D5 is the N step from D7, flanked by D6 and C6', () => {
    const from = HEX6.byName.get(chiefAt)!;
    const n = HEX6.directions.findIndex(([q, r]) => q === 1 && r === -2);
    expect(HEX6.names[HEX6.rays[from][n][0]]).toBe('D5');
    expect(sorted(namesOf(HEX6, HEX6.flanks[from][n]))).toEqual(['C6', 'D6']);
  });

  test.each([
    ['free', ['C6', 'D6'], true],
    ['both_flanks_block', ['C6', 'D6'], false],
    ['both_flanks_block', ['D6'], true],
    ['either_flank_blocks', ['D6'], false],
    ['either_flank_blocks', [], true],
  ])('vertex_step=%s, corpses on %j: D5 reachable %s', (rule, flanks, reachable) => {
    const ds = destinations(rule, flanks);
    expect(ds.includes('D5')).toBe(reachable);
    // The whole line beyond goes with its first step.
    expect(ds.includes(at6(-1, -4))).toBe(reachable);
  });

  test('a militant’s second corner step is judged by its own flanking cells', () => {
    // Militant D7 → D5 → D3 (-1, -4): the second step passes between (-1, -3) and (-2, -3).
    const wall = [at6(-1, -3), at6(-2, -3)].map(corpse);
    const pos = (rule: string) => setUp({ board: 'hex6', vertex_step: rule }, [P('R', 'chief', 'A7'), P('R', 'militant', chiefAt), ...wall, ...far], 'R');
    expect(destinationsOf(pos('free'), chiefAt)).toEqual(expect.arrayContaining(['D5', at6(-1, -4)]));
    expect(destinationsOf(pos('both_flanks_block'), chiefAt)).toContain('D5');
    expect(destinationsOf(pos('both_flanks_block'), chiefAt)).not.toContain(at6(-1, -4));
  });

  test('the maze exit follows the same rule: the N line from G7 passes between F6 and G6', () => {
    // Blue's assassin kills Red's chief on the maze and must leave it; F6 and G6 hold corpses.
    // H10 (0, 3) reaches the maze along the SE line, across the empty fortress cell G8.
    const list = [P('R', 'chief', 'G7'), P('B', 'chief', 'M7'), P('B', 'assassin', 'H10'), P('Y', 'chief', 'J13'), corpse('F6'), corpse('G6')];
    const exits = (rule: string) => {
      const c = nextChoice(setUp({ board: 'hex6', vertex_step: rule }, list, 'B'), { from: 'H10', to: 'G7' });
      return c.ok && c.value.kind === 'exit' ? c.value.options : [];
    };
    expect(exits('free')).toContain('G5');
    expect(exits('both_flanks_block')).not.toContain('G5');
    expect(exits('both_flanks_block').length).toBeGreaterThan(0);
  });
});

describe('encirclement on the large board (HEX.md §8.6; SX-6)', () => {
  // Red's chief on D7 ringed by six corpses on the cells sharing a side; its corner steps lead out.
  const from = HEX6.byName.get('D7')!;
  const ring = namesOf(HEX6, HEX6.sides[from]);
  const corners = namesOf(HEX6, HEX6.neighbours[from]).filter((c) => !ring.includes(c));
  const eliminated = (vertex_step: string, walls: string[]) => {
    const pos = setUp(
      { board: 'hex6', vertex_step },
      [P('R', 'chief', 'D7'), ...walls.map(corpse), P('B', 'chief', 'M7'), P('B', 'militant', 'L9'), P('Y', 'chief', 'J13')],
      'B',
    );
    return play(pos, { from: 'L9', to: 'K9' }).effects.some((e) => e.type === 'eliminated' && e.colour === 'R');
  };

  test('the ring and the corner cells of D7', () => {
    expect(sorted(ring)).toEqual(['C6', 'C7', 'C8', 'D6', 'D8', 'E7']);
    expect(sorted(corners)).toEqual(['B6', 'B8', 'D5', 'D9', 'E6', 'E8']);
  });

  test('§8.6 SX-4(a): six corpses on the sides leave the corner steps open, so no encirclement; twelve encircle', () => {
    expect(eliminated('free', ring)).toBe(false);
    expect(eliminated('free', [...ring, ...corners])).toBe(true);
  });

  test('§8.6 SX-4(b) and (c): the six-corpse ring encircles', () => {
    expect(eliminated('both_flanks_block', ring)).toBe(true);
    expect(eliminated('either_flank_blocks', ring)).toBe(true);
    // Five corpses: the gap is an escape under every reading.
    expect(eliminated('both_flanks_block', ring.slice(1))).toBe(false);
  });

  test('the literal ring and the throne-access tests read the same adjacency', () => {
    const elim = (encirclement: string, vertex_step: string) => {
      const pos = setUp(
        { board: 'hex6', vertex_step, encirclement },
        [P('R', 'chief', 'D7'), ...ring.map(corpse), P('B', 'chief', 'M7'), P('B', 'militant', 'L9'), P('Y', 'chief', 'J13')],
        'B',
      );
      return play(pos, { from: 'L9', to: 'K9' }).effects.some((e) => e.type === 'eliminated' && e.colour === 'R');
    };
    expect([elim('literal_ring', 'free'), elim('literal_ring', 'both_flanks_block')]).toEqual([false, true]);
    expect([elim('throne_access', 'free'), elim('throne_access', 'both_flanks_block')]).toEqual([false, true]);
  });
});
