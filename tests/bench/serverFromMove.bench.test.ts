/**
 * `npm run bench:server -- --from-move N` (tests/bench/server.ts, 20 by default) still does what
 * it says: after set-up every room plays N turns back to back, and the run reports how many games
 * got that far before the measured window. Small runs; their figures are checked for shape only,
 * and the server's own turn → patch histogram (read from its registry in its process) for the
 * window's turns.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** A small bench:server run (4 rooms, 1 s, no waits) with `args` besides; its JSON once it exited 0. */
function benchServer(args: readonly string[]): { stdout: unknown; stderr: string } {
  const small = ['--rooms', '4', '--seconds', '1', '--warmup', '0', '--settle', '0', '--idle', '0', '--interval', '200', '--json'];
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'tests/bench/server.ts', ...small, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, TSX_TSCONFIG_PATH: 'tests/bench/server-tsconfig.json' },
  });
  expect(run.status).toBe(0);
  return { stdout: JSON.parse(run.stdout), stderr: run.stderr };
}

test('bench:server --from-move plays every room that far on before the window', () => {
  const out = benchServer(['--from-move', '30']).stdout as {
    runs: { advanced: { rooms: number; reached: number; seconds: number } | null; turns: number; server: { own: { turnToPatch: { count: number } | null } } }[];
  };
  const advanced = out.runs[0]?.advanced;
  expect(advanced?.rooms).toBe(4);
  // A random game may end before move 30 (it is then replaced by a new one): most do not.
  expect(advanced?.reached).toBeGreaterThanOrEqual(1);
  expect(advanced?.reached).toBeLessThanOrEqual(4);
  expect(out.runs[0]?.turns).toBeGreaterThan(0);
  expect(out.runs[0]?.server.own.turnToPatch?.count).toBeGreaterThan(0);
});

test("bench:server --baseline reports the ratios, CPU per turn also over each run's generator", () => {
  const run = benchServer(['--baseline']);
  const out = run.stdout as {
    options: { fromMove: number };
    runs: { target: string; advanced: { rooms: number } | null }[];
    ratios: { cpuPerTurn: number; cpuAgainstGenerator: number } | null;
  };
  // Both servers' rooms play 20 turns before the window unless told otherwise.
  expect(out.options.fromMove).toBe(20);
  expect(out.runs.map((r) => [r.target, r.advanced?.rooms])).toEqual([
    ['djambi', 4],
    ['baseline', 4],
  ]);
  expect(out.ratios?.cpuPerTurn).toBeGreaterThan(0);
  expect(out.ratios?.cpuAgainstGenerator).toBeGreaterThan(0);
  expect(run.stderr).toContain("the server's over it");
});
