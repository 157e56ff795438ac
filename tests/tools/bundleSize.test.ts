/** The bundle measure of the client benchmark and the CI budget, on a made-up built client. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipBytes, measureBundle } from './bundleSize.js';

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
