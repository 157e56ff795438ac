/**
 * The package boundaries, checked on the import lines of every source file: server/ and
 * client/ import shared/ and never each other; shared/ imports no I/O, framework or DOM
 * package; the match imports nothing of Colyseus; only client/src/net imports colyseus.js.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(rel));
    else if (/\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** The module specifiers a file imports (static imports, re-exports and dynamic imports). */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const specs: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"`;]*?from\s+['"]([^'"]+)['"]/g)) specs.push(m[1]);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)) specs.push(m[1]);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1]);
  return specs;
}

/** Where a relative import lands, relative to the repository root. */
function target(file: string, spec: string): string {
  return spec.startsWith('.') ? path.relative(ROOT, path.resolve(ROOT, path.dirname(file), spec)) : spec;
}

function violations(dir: string, bad: (spec: string, to: string, file: string) => boolean): string[] {
  const out: string[] = [];
  for (const file of sources(dir)) for (const spec of importsOf(file)) if (bad(spec, target(file, spec), file)) out.push(`${file}: ${spec}`);
  return out;
}

test('every source tree has files and imports to check', () => {
  for (const dir of ['shared/src', 'server/src', 'client/src']) expect(sources(dir).length).toBeGreaterThan(5);
  expect(importsOf('server/src/rooms/DjambiRoom.ts').length).toBeGreaterThan(5);
});

test('server/ imports shared/ and never client/', () => {
  expect(violations('server/src', (_spec, to) => to.startsWith('client/') || to.startsWith('shared/src'))).toEqual([]);
});

test('client/ imports shared/ and never server/', () => {
  expect(violations('client/src', (spec, to) => to.startsWith('server/') || to.startsWith('shared/src') || spec.startsWith('@colyseus/core'))).toEqual([]);
});

test('shared/ is pure: no Node, framework or DOM package, nothing outside itself', () => {
  const allowed = new Set(['valibot']);
  expect(violations('shared/src', (spec, to) => (!spec.startsWith('.') ? !allowed.has(spec) : !to.startsWith('shared/src')))).toEqual([]);
});

test('the match imports nothing of Colyseus (nor the rooms, apart from the room config type)', () => {
  expect(
    violations(
      'server/src/match',
      (spec, to) => spec.startsWith('@colyseus/') || spec === 'colyseus.js' || (to.startsWith('server/src/rooms/') && to !== 'server/src/rooms/options.js'),
    ),
  ).toEqual([]);
});

test('only client/src/net talks to colyseus.js', () => {
  expect(violations('client/src', (spec, _to, file) => spec.startsWith('colyseus.js') && !file.startsWith('client/src/net/'))).toEqual([]);
});
