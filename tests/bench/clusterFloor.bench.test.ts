/**
 * `npm run bench:cluster -- --baseline --floor-log store` still runs both sides: a small pair in
 * which the bare room (tests/bench/baseline/clusterServer.ts, each turn appended to the server's
 * PostgreSQL store before its patch) and the Djambi server each serve rooms through the same
 * deployment (redis-server, nginx, PostgreSQL) and every turn reaches every client. Its
 * figures are checked for shape only: timing belongs to the benchmark, not to a test.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { NGINX_BIN } from '../support/nginx.js';
import { clusterAvailable } from '../cluster/support.js';

const ROOT = path.resolve(__dirname, '../..');
const NGINX = existsSync(NGINX_BIN);
if (!NGINX) {
  if (process.env.CI === 'true') throw new Error(`clusterFloor.bench.test.ts: nginx (${NGINX_BIN}) required under CI=true`);
  console.warn(`clusterFloor.bench.test.ts: no ${NGINX_BIN}: skipped (it fails under CI=true)`);
}
const AVAILABLE = clusterAvailable('clusterFloor.bench.test.ts') && NGINX;

interface Summary {
  readonly runs: number;
  readonly latencyMs: { p50: number; p99: number };
}

(AVAILABLE ? test : test.skip)(
  'bench:cluster --baseline measures the bare room and the Djambi server through the same deployment',
  () => {
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'tests/bench/cluster.ts',
        '--baseline',
        '--floor-log',
        'store',
        '--pairs',
        '1',
        '--rooms',
        '6',
        '--seconds',
        '3',
        '--warmup',
        '1',
        '--interval',
        '500',
        '--json',
      ],
      { cwd: ROOT, encoding: 'utf8', timeout: 150_000 },
    );
    if (run.status !== 0) throw new Error(`bench:cluster exited with ${run.status}:\n${run.stderr.slice(-3000)}`);
    const out = JSON.parse(run.stdout) as {
      runs: { target: string; floorLog: string; turns: number; checks: { ok: number; failed: number }; perProcess: { rooms: number }[] }[];
      summary: { djambi: Summary; baseline: Summary; ratios: { p99: number } };
    };
    expect(out.runs.map((r) => `${r.target}:${r.floorLog}`).sort()).toEqual(['baseline:store', 'djambi:']);
    for (const r of out.runs) {
      expect(r.turns).toBeGreaterThan(0);
      expect(r.checks.failed).toBe(0);
      expect(r.perProcess.reduce((n, p) => n + p.rooms, 0)).toBe(6);
    }
    expect(out.summary.djambi.runs).toBe(1);
    expect(out.summary.baseline.runs).toBe(1);
    expect(out.summary.baseline.latencyMs.p99).toBeGreaterThan(0);
    expect(out.summary.ratios.p99).toBeGreaterThan(0);
  },
  180_000,
);
