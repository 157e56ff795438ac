/**
 * The package boundaries, checked on the import lines of every source file: server/ and
 * client/ import shared/ and never each other; shared/ imports no I/O, framework or DOM
 * package; the match, the table and the store import nothing of Colyseus or the rooms; no
 * import cycles; only rooms/vendor.ts reads a library's private members; only client/src/net
 * imports colyseus.js.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

test.each(['server/src/match', 'server/src/table', 'server/src/store'])('%s imports nothing of Colyseus or the rooms', (dir) => {
  if (!existsSync(path.join(ROOT, dir))) return;
  expect(violations(dir, (spec, to) => spec.startsWith('@colyseus/') || spec === 'colyseus.js' || to.startsWith('server/src/rooms/'))).toEqual([]);
});

test('no import cycles in server/, shared/ or client/ (type-only imports count)', () => {
  const cycles: string[] = [];
  for (const dir of ['server/src', 'shared/src', 'client/src']) {
    const graph = new Map<string, string[]>();
    for (const file of sources(dir)) {
      const deps = importsOf(file)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => target(file, spec).replace(/\.js$/, '.ts'))
        .map((to) => (existsSync(path.join(ROOT, to)) ? to : path.join(to.replace(/\.ts$/, ''), 'index.ts')));
      graph.set(file, deps);
    }
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string) => {
      state.set(file, 'open');
      stack.push(file);
      for (const dep of graph.get(file) ?? []) {
        if (state.get(dep) === 'open') cycles.push([...stack.slice(stack.indexOf(dep)), dep].join(' -> '));
        else if (!state.has(dep)) visit(dep);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file);
  }
  expect(cycles).toEqual([]);
});

test("only server/src/rooms/vendor.ts touches a library's private members", () => {
  const out: string[] = [];
  for (const file of sources('server/src')) {
    if (file === 'server/src/rooms/vendor.ts') continue;
    const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    // `._x` or `['_x']` / `['~x']` member access, and the schema library's symbols ($changes, ...).
    for (const m of text.matchAll(/(?:\??\.|\[\s*['"`])[_~][A-Za-z]\w*|\$(?:changes|childType|track|refId|getByIndex|onEncodeEnd)\b/g))
      out.push(`${file}: ${m[0]}`);
  }
  expect(out).toEqual([]);
});

test('only client/src/net talks to colyseus.js', () => {
  expect(violations('client/src', (spec, _to, file) => spec.startsWith('colyseus.js') && !file.startsWith('client/src/net/'))).toEqual([]);
});
