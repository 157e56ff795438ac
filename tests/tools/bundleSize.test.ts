/** The bundle measure of the client benchmark and the CI budget, on a made-up built client. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipBytes, measureBundle, measureSources } from './bundleSize.js';

let dist: string;

function write(file: string, text: string): void {
  mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
  writeFileSync(path.join(dist, file), text);
}

beforeEach(() => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'djambi-bundle-'));
});

afterEach(() => {
  rmSync(dist, { recursive: true, force: true });
});

/** A build like Vite's: an entry with two routes, the game page with a shared chunk and renderers. */
function fakeBuild(): Record<string, string> {
  const files: Record<string, string> = {
    'assets/index-A1.js': 'import{a as e}from"./vendor-B2.js";const r=()=>import(`./gamePage-C3.js`),s=()=>import("./rulesPage-D4.js");e(r,s);',
    'assets/vendor-B2.js': 'export const a=(...x)=>x;',
    'assets/gamePage-C3.js': 'import{a}from"./vendor-B2.js";import"./pixi-E5.js";export const g=()=>import(`./WebGLRenderer-F6.js`);',
    'assets/pixi-E5.js': 'import{a as t}from"./vendor-B2.js";export const p=t(1);',
    'assets/WebGLRenderer-F6.js': 'export{p as WebGLRenderer}from"./pixi-E5.js";',
    'assets/rulesPage-D4.js': 'import{a}from"./vendor-B2.js";export const rules="the rules, not counted";',
    'assets/index-A1.css': 'body{margin:0}',
  };
  for (const [f, text] of Object.entries(files)) write(f, text);
  write(
    'index.html',
    '<!doctype html><html><head><script type="module" crossorigin src="/assets/index-A1.js"></script>' +
      '<link rel="modulepreload" crossorigin href="/assets/vendor-B2.js"><link rel="stylesheet" href="/assets/index-A1.css"></head><body></body></html>',
  );
  return files;
}

test("Pixi's default extension bundles, which the board skips, are not counted (NEVER_LOADED)", () => {
  fakeBuild();
  write('assets/pixi-E5.js', 'export const p=1;const l=()=>import("./browserAll-G7.js"),w=()=>import("./webworkerAll-H8.js");');
  write('assets/browserAll-G7.js', 'export const b="accessibility, filters";');
  write('assets/webworkerAll-H8.js', 'export const w="worker";');
  const files = measureBundle(dist).chunks.map((c) => c.file);
  expect(files).toContain('assets/pixi-E5.js');
  expect(files.filter((f) => /All-/.test(f))).toEqual([]);
});

test('counts the entry, its imports, the game page and everything below it, but not the other routes', () => {
  const files = fakeBuild();
  const size = measureBundle(dist);
  expect(size.chunks.map((c) => c.file)).toEqual([
    'assets/index-A1.js',
    'assets/vendor-B2.js',
    'assets/gamePage-C3.js',
    'assets/pixi-E5.js',
    'assets/WebGLRenderer-F6.js',
  ]);
  const expected = size.chunks.reduce((s, c) => s + gzipBytes(files[c.file]), 0);
  expect(size.gzipBytes).toBe(expected);
  expect(size.entryGzipBytes).toBe(gzipBytes(files['assets/index-A1.js']));
});

test('fails loudly when the build is missing, a chunk is missing, or there is no game page chunk', () => {
  expect(() => measureBundle(dist)).toThrow(/index\.html is missing/);
  fakeBuild();
  rmSync(path.join(dist, 'assets/pixi-E5.js'));
  expect(() => measureBundle(dist)).toThrow(/assets\/pixi-E5\.js is imported but missing/);
  write('assets/index-A1.js', 'import"./vendor-B2.js";');
  expect(() => measureBundle(dist)).toThrow(/no game page chunk/);
});

/** The game page chunk of `fakeBuild` as `vite build --sourcemap` writes it: two sources on line 1 (a run ends at the end of its line), the bundler's glue on line 2. */
const VALIBOT_CODE = 'export const v="valibot, a long enough piece of code";';
const GAME_CODE = 'export const g="the game page";';
const GLUE_CODE = 'export{v as V};';

function withSourceMap(files: Record<string, string>): void {
  const code = `${VALIBOT_CODE}${GAME_CODE}\n${GLUE_CODE}`;
  write('assets/gamePage-C3.js', `${code}\n//# sourceMappingURL=gamePage-C3.js.map`);
  files['assets/gamePage-C3.js'] = code;
  // Line 1: column 0 from source 0, column 54 (`2B`) from source 1 (`C`); line 2: column 0, no source.
  expect(VALIBOT_CODE.length).toBe(54);
  const map = { version: 3, sources: ['../../node_modules/valibot/dist/index.js', '../../client/src/ui/gamePage.ts'], mappings: 'AAAA,sDCAA;A' };
  write('assets/gamePage-C3.js.map', JSON.stringify(map));
}

test("--by-source: each source's bytes, alone and marginal gzip, from the source maps; the map comment is not counted", () => {
  const files = fakeBuild();
  withSourceMap(files);
  const shares = measureSources(dist);
  const counted = measureBundle(dist).chunks.map((c) => files[c.file]);
  const page = counted.reduce((s, code) => s + gzipBytes(code), 0);
  /** The page's gzip with `cut` taken out of the game page chunk. */
  const without = (cut: string): number => counted.reduce((s, code) => s + gzipBytes(code.replace(cut, '')), 0);
  const expected = [
    ['valibot', VALIBOT_CODE],
    ['client/src/ui/gamePage.ts', GAME_CODE],
    ['(unmapped)', GLUE_CODE],
  ].map(([source, code]) => ({ source, bytes: code.length, aloneGzipBytes: gzipBytes(code), marginalGzipBytes: page - without(code) }));
  expect(shares).toEqual(expect.arrayContaining(expected));
  expect(shares).toHaveLength(3);
  expect(shares.map((s) => s.marginalGzipBytes)).toEqual([...shares.map((s) => s.marginalGzipBytes)].sort((a, b) => b - a));
});

test('--by-source: a build without source maps has no shares', () => {
  fakeBuild();
  expect(measureSources(dist)).toEqual([]);
});
