#!/usr/bin/env node
/**
 * `npm start` builds only when the build is not up to date: when a build output is missing, or a
 * source (shared/src, server/src, client/src), a package or TypeScript/Vite config, or the
 * package lock is newer than the stamp the last whole build left (`.build-stamp`, written by
 * `npm run build` when all three packages built). Plain Node, no dependency: it runs before
 * anything is built.
 *
 *   node tools/buildIfStale.mjs           build (`npm run build`) if stale, else say it is up to date
 *   node tools/buildIfStale.mjs --check   exit 0 when up to date, 1 when a build is needed (prints why)
 *   node tools/buildIfStale.mjs --stamp   record that the build is up to date (the end of `npm run build`)
 *
 * `--root DIR` checks another checkout (tests); by default the one this file is in.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const rootArg = args.indexOf('--root');
const root = rootArg >= 0 ? path.resolve(args[rootArg + 1]) : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What a build makes: any of them missing means a build is needed. */
const OUTPUTS = ['shared/dist/index.js', 'server/dist/index.js', 'client/dist/index.html'];
/** Source trees, walked whole. */
const SOURCE_DIRS = ['shared/src', 'server/src', 'client/src'];
/** Single files the build reads. */
const SOURCE_FILES = [
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  ...['shared', 'server', 'client'].flatMap((p) => [`${p}/package.json`, `${p}/tsconfig.json`]),
  'client/index.html',
  'client/vite.config.ts',
];
const STAMP = '.build-stamp';

/** The newest modification time under `dir` (0 if it does not exist), and the file that has it. */
function newest(dir) {
  let best = { mtime: 0, file: '' };
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return best;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    const found = e.isDirectory() ? newest(p) : e.isFile() ? { mtime: statSync(p).mtimeMs, file: p } : best;
    if (found.mtime > best.mtime) best = found;
  }
  return best;
}

/** Why a build is needed, or null when the build is up to date. */
export function staleReason(dir) {
  const missing = OUTPUTS.find((f) => !existsSync(path.join(dir, f)));
  if (missing) return `${missing} is missing`;
  const stamp = path.join(dir, STAMP);
  if (!existsSync(stamp)) return 'no build stamp (no complete build yet)';
  const built = statSync(stamp).mtimeMs;
  const candidates = [
    ...SOURCE_DIRS.map((d) => newest(path.join(dir, d))),
    ...SOURCE_FILES.filter((f) => existsSync(path.join(dir, f))).map((f) => ({ mtime: statSync(path.join(dir, f)).mtimeMs, file: path.join(dir, f) })),
  ];
  const latest = candidates.reduce((a, b) => (b.mtime > a.mtime ? b : a), { mtime: 0, file: '' });
  return latest.mtime > built ? `${path.relative(dir, latest.file)} is newer than the build` : null;
}

if (args.includes('--stamp')) {
  writeFileSync(path.join(root, STAMP), `${new Date().toISOString()}\n`);
} else {
  const reason = staleReason(root);
  if (args.includes('--check')) {
    console.log(reason ? `build needed: ${reason}` : 'build up to date');
    process.exit(reason ? 1 : 0);
  }
  if (reason) {
    console.log(`[start] building: ${reason}`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
    process.exit(r.status ?? 1);
  }
  console.log('[start] the build is up to date: serving it (npm run build rebuilds)');
}
