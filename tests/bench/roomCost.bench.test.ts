/**
 * `npm run bench:room` (tests/bench/roomCost.ts) still measures what it says: a small run of
 * both targets in their own processes, whose rooms accept every turn and send one patch to each
 * of their six clients per turn (a refused turn, or a turn with no patch, fails the run).
 * Its figures are checked for shape only: timing belongs to the benchmark, not to a test.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** Runs a bench script under tsx with the server's tsconfig, as `npm run bench:room` does. */
function bench(script: string, args: readonly string[], timeout = 120_000) {
  const env = { ...process.env, TSX_TSCONFIG_PATH: 'tests/bench/server-tsconfig.json' };
  return spawnSync(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, encoding: 'utf8', timeout, env });
}

/** A small run of one Djambi room target: `--rooms R --turns T --passes 1 --pairs 1 --json`, plus `extra`. */
const small = (rooms: number, turns: number, extra: readonly string[]) =>
  bench('tests/bench/roomCost.ts', [
    '--target',
    'djambi',
    '--rooms',
    String(rooms),
    '--turns',
    String(turns),
    '--passes',
    '1',
    '--pairs',
    '1',
    ...extra,
    '--json',
  ]);

test('bench:room runs both rooms and reports their cost per turn', () => {
  const run = bench('tests/bench/roomCost.ts', ['--rooms', '4', '--turns', '400', '--passes', '2', '--pairs', '1', '--json']);
  expect(run.status).toBe(0);
  const out = JSON.parse(run.stdout) as {
    summary: Record<string, { cpuUsPerTurn: number; roomUsPerTurn: number; heapPerRoomKB: number }>;
    ratios: { cpuLessGenerator: number; inTheRoom: number } | null;
    runs: { target: string; passes: { patchesPerTurn: number; newGames: number }[] }[];
  };
  expect(out.runs.map((r) => r.target)).toEqual(['djambi', 'baseline']);
  for (const r of out.runs) {
    for (const p of r.passes) {
      // Six clients, one patch each per turn; a finished game's new room adds its joins' patches
      // (and an eliminated player gets its press history: a message, not a patch).
      if (p.newGames === 0) expect(p.patchesPerTurn).toBe(6);
      else expect(p.patchesPerTurn).toBeGreaterThan(6);
    }
  }
  for (const t of ['djambi', 'baseline']) {
    expect(out.summary[t].cpuUsPerTurn).toBeGreaterThan(0);
    expect(out.summary[t].roomUsPerTurn).toBeGreaterThan(0);
    expect(out.summary[t].heapPerRoomKB).toBeGreaterThan(0);
  }
  expect(out.ratios?.inTheRoom).toBeGreaterThan(0);
});

test('bench:room --against compares this build with another one, and refuses a directory outside the repository', () => {
  // The same build on both sides: what matters here is that both run and are compared.
  const run = small(3, 200, ['--against', 'server/dist']);
  expect(run.status).toBe(0);
  const out = JSON.parse(run.stdout) as { builds: { inTheRoom: number } | null; runs: { target: string }[] };
  expect(out.runs.map((r) => r.target)).toEqual(['djambi', 'against']);
  expect(out.builds?.inTheRoom).toBeGreaterThan(0);
  const outside = small(3, 200, ['--against', '/tmp']);
  expect(outside.status).not.toBe(0);
  expect(outside.stderr).toContain('--against takes a directory inside the repository');
});

test('bench:room --from-move plays that many turns per room before measuring, and --heap-snapshot writes what heapSummary reads', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'djambi-heap-'));
  try {
    const file = path.join(dir, 'late');
    const run = small(2, 50, ['--from-move', '40', '--heap-snapshot', file]);
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout) as { runs: { fromMove: number; heapPerRoomKB: number }[] };
    expect(out.runs[0].fromMove).toBe(40);
    expect(out.runs[0].heapPerRoomKB).toBeGreaterThan(0);
    const snapshot = `${file}.djambi.heapsnapshot`;
    expect(existsSync(snapshot)).toBe(true);
    // A snapshot less itself: nothing; alone: every object of the process, the largest groups first.
    const diff = bench('tests/bench/heapSummary.ts', [snapshot, snapshot, '--per', '2', '--json']);
    expect(diff.status).toBe(0);
    expect((JSON.parse(diff.stdout) as { totalBytes: number }).totalBytes).toBe(0);
    const alone = bench('tests/bench/heapSummary.ts', [snapshot, '--json']);
    const groups = JSON.parse(alone.stdout) as { totalBytes: number; rows: { key: string; bytes: number }[] };
    expect(groups.totalBytes).toBeGreaterThan(1_000_000);
    expect(groups.rows[0].bytes).toBeGreaterThanOrEqual(groups.rows[1].bytes);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
