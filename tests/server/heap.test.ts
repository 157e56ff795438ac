/**
 * The server's young-generation flags (server/src/obs/heap.ts) are the same wherever a production
 * server process starts (`npm start`, the Dockerfile), and a process started without them says so.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { heapWarning, SEMI_SPACE_MB, SERVER_NODE_FLAGS, semiSpaceFlagMB } from '../../server/src/obs/heap.js';

const ROOT = path.resolve(__dirname, '../..');
const flags = SERVER_NODE_FLAGS.join(' ');

test('npm start runs the server with the production flags', () => {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  expect(pkg.scripts.start).toContain(`node ${flags} server/dist/index.js`);
});

test("the Dockerfile's CMD runs the server with the production flags", () => {
  const cmd = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('CMD '))
    .at(-1);
  expect(cmd).toBe(`CMD ${JSON.stringify(['node', ...SERVER_NODE_FLAGS, 'server/dist/index.js'])}`.replaceAll('","', '", "'));
});

test('the flags are read from execArgv and NODE_OPTIONS, the last one winning', () => {
  expect(semiSpaceFlagMB([], '')).toBeNull();
  expect(semiSpaceFlagMB(['--max-semi-space-size=64'], '')).toBe(64);
  expect(semiSpaceFlagMB([], '--max_semi_space_size=8 --enable-source-maps')).toBe(8);
  expect(semiSpaceFlagMB(['--max-semi-space-size=32'], '--max-semi-space-size=8')).toBe(32);
  expect(semiSpaceFlagMB(['--max-semi-space-size'], '')).toBeNull();
  expect(semiSpaceFlagMB(SERVER_NODE_FLAGS, '', 'min')).toBe(SEMI_SPACE_MB);
  expect(semiSpaceFlagMB(['--max-semi-space-size=64'], '', 'min')).toBeNull();
});

test('a smaller young generation than production, or one without its floor, is reported at boot; not the production one', () => {
  expect(heapWarning(SEMI_SPACE_MB, SEMI_SPACE_MB)).toBeNull();
  expect(heapWarning(SEMI_SPACE_MB * 2, SEMI_SPACE_MB * 2)).toBeNull();
  expect(heapWarning(null, null)).toContain(flags);
  expect(heapWarning(16, 16)).toContain('16 MB');
  // Production's size without its floor: V8 may shrink it in a quiet spell.
  expect(heapWarning(SEMI_SPACE_MB, null)).toContain('which V8 may shrink');
  expect(heapWarning(SEMI_SPACE_MB, 8)).toContain('shrink to 8 MB');
});

test('Node itself accepts the flags', () => {
  const run = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, '-e', 'process.exit(0)'], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
});
