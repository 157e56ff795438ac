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

test('bench:room runs both rooms and reports their cost per turn', () => {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'tests/bench/roomCost.ts', '--rooms', '4', '--turns', '400', '--passes', '2', '--pairs', '1', '--json'],
    { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, TSX_TSCONFIG_PATH: 'tests/bench/server-tsconfig.json' } },
  );
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
  const env = { ...process.env, TSX_TSCONFIG_PATH: 'tests/bench/server-tsconfig.json' };
  const args = [
    '--import',
    'tsx',
    'tests/bench/roomCost.ts',
    '--target',
    'djambi',
    '--rooms',
    '3',
    '--turns',
    '200',
    '--passes',
    '1',
    '--pairs',
    '1',
    '--json',
  ];
  // The same build on both sides: what matters here is that both run and are compared.
  const run = spawnSync(process.execPath, [...args, '--against', 'server/dist'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env });
  expect(run.status).toBe(0);
  const out = JSON.parse(run.stdout) as { builds: { inTheRoom: number } | null; runs: { target: string }[] };
  expect(out.runs.map((r) => r.target)).toEqual(['djambi', 'against']);
  expect(out.builds?.inTheRoom).toBeGreaterThan(0);
  const outside = spawnSync(process.execPath, [...args, '--against', '/tmp'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env });
  expect(outside.status).not.toBe(0);
  expect(outside.stderr).toContain('--against takes a directory inside the repository');
});

test('bench:room --from-move plays that many turns per room before measuring, and --heap-snapshot writes what heapSummary reads', () => {
  const env = { ...process.env, TSX_TSCONFIG_PATH: 'tests/bench/server-tsconfig.json' };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'djambi-heap-'));
  try {
    const file = path.join(dir, 'late');
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'tests/bench/roomCost.ts',
        '--target',
        'djambi',
        '--rooms',
        '2',
        '--turns',
        '50',
        '--passes',
        '1',
        '--pairs',
        '1',
        '--from-move',
        '40',
        '--heap-snapshot',
        file,
        '--json',
      ],
      { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env },
    );
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout) as { runs: { fromMove: number; warmupNewGames: number; heapPerRoomKB: number }[] };
    expect(out.runs[0].fromMove).toBe(40);
    expect(out.runs[0].warmupNewGames).toBeGreaterThanOrEqual(0);
    const snapshot = `${file}.djambi.heapsnapshot`;
    expect(existsSync(snapshot)).toBe(true);
    const summary = spawnSync(process.execPath, ['--import', 'tsx', 'tests/bench/heapSummary.ts', snapshot, snapshot, '--per', '2', '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(summary.status).toBe(0);
    // A snapshot less itself: nothing.
    const diff = JSON.parse(summary.stdout) as { totalBytes: number; rows: { key: string; bytes: number }[] };
    expect(diff.totalBytes).toBe(0);
    const alone = spawnSync(process.execPath, ['--import', 'tsx', 'tests/bench/heapSummary.ts', snapshot, '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    const groups = JSON.parse(alone.stdout) as { totalBytes: number; rows: { key: string; bytes: number }[] };
    expect(groups.totalBytes).toBeGreaterThan(1_000_000);
    expect(groups.rows[0].bytes).toBeGreaterThan(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
