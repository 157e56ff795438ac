/**
 * `npm start` builds only when the build is out of date (issue 40, bug 7): tools/buildIfStale.mjs
 * run as a real process on a checkout laid out in a temporary directory. A fresh clone (no
 * outputs, no stamp) builds; a complete build serves at once; a source, config or lock file newer
 * than the build's stamp builds again.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const TOOL = path.join(ROOT, 'tools', 'buildIfStale.mjs');

function tool(dir: string, flag: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [TOOL, flag, '--root', dir], { encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** A checkout whose files are all an hour old (with its build outputs when `withBuild`). */
function checkout(withBuild: boolean): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'djambi-stale-'));
  const files = [
    'package.json',
    'package-lock.json',
    'tsconfig.base.json',
    'shared/src/index.ts',
    'server/src/rooms/room.ts',
    'client/src/main.ts',
    'client/vite.config.ts',
  ];
  if (withBuild) files.push('shared/dist/index.js', 'server/dist/index.js', 'client/dist/index.html');
  const old = Date.now() / 1000 - 3600;
  for (const f of files) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    writeFileSync(path.join(dir, f), '');
    utimesSync(path.join(dir, f), old, old);
  }
  return dir;
}

/** Set a file's modification time to `t` (seconds since the epoch). */
function touch(dir: string, file: string, t: number): void {
  utimesSync(path.join(dir, file), t, t);
}

test('a fresh clone (nothing built) needs a build', () => {
  const dir = checkout(false);
  expect(tool(dir, '--check')).toMatchObject({ status: 1, out: expect.stringMatching(/build needed: shared\/dist\/index\.js is missing/) });
});

test('outputs without the stamp of a complete build need a build', () => {
  const dir = checkout(true);
  expect(tool(dir, '--check')).toMatchObject({ status: 1, out: expect.stringMatching(/no build stamp/) });
});

test('after a complete build it is up to date, until a source, a config or the lock file is newer', () => {
  const dir = checkout(true);
  expect(tool(dir, '--stamp').status).toBe(0);
  expect(tool(dir, '--check')).toMatchObject({ status: 0, out: expect.stringMatching(/build up to date/) });
  let t = Date.now() / 1000;
  for (const file of ['client/src/main.ts', 'server/src/rooms/room.ts', 'shared/src/index.ts', 'client/vite.config.ts', 'package-lock.json']) {
    t += 60;
    touch(dir, file, t);
    expect(tool(dir, '--check')).toMatchObject({ status: 1, out: expect.stringContaining(`${file} is newer than the build`) });
    // Built again (the stamp after the edit): up to date.
    expect(tool(dir, '--stamp').status).toBe(0);
    touch(dir, '.build-stamp', t + 1);
    expect(tool(dir, '--check').status).toBe(0);
  }
});

test('npm start goes through the check; npm run build leaves the stamp', () => {
  const scripts = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
  expect(scripts.start).toMatch(/^node tools\/buildIfStale\.mjs && node .*server\/dist\/index\.js$/);
  expect(scripts.start).not.toMatch(/npm run build/);
  expect(scripts.build).toMatch(/&& node tools\/buildIfStale\.mjs --stamp$/);
});
