/**
 * The web client's JavaScript as the game page loads it, gzipped: the one measure behind the
 * client benchmark (`npm run bench:client`) and the CI budget (`npm run budget`).
 *
 * Read from the built client (`client/dist`), no browser needed: the entry script of
 * `index.html` (and its modulepreloads), then every chunk it imports, following static imports
 * everywhere; of the entry's dynamic imports (one per route) only the game page's chunk
 * (`gamePage-*.js`, from `client/src/ui/gamePage.ts`), and below that every dynamic import too.
 * Pixi picks one renderer at run time and the figure counts all of them (its renderer chunks are
 * a few hundred bytes), so it is an upper bound of what a browser fetches for `/g/CODE`. Not
 * counted: Pixi's default extension bundles (`NEVER_LOADED`), which the board turns off with
 * Pixi's public `skipExtensionImports` option; `npm run bench:client` fails if a browser ever
 * fetches one.
 *
 * Sizes are `gzipSync` (level 6) of each file, added up; KB here means 1024 bytes.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** The game page's budget: 250 KB of gzipped JavaScript. */
export const GAME_PAGE_BUDGET_KB = 250;
export const GAME_PAGE_BUDGET_BYTES = GAME_PAGE_BUDGET_KB * 1024;

/** The chunk of the game route, as Vite names it after `client/src/ui/gamePage.ts`. */
const GAME_PAGE_CHUNK = /^gamePage-[^/]*\.js$/;

/**
 * Chunks the game page imports but never loads: Pixi's default browser and web worker extension
 * bundles (accessibility, DOM containers, filters, spritesheets), skipped by the board's
 * `skipExtensionImports: true` (client/src/render/board.ts), which imports the one extension it
 * uses (pointer events) itself.
 */
export const NEVER_LOADED = /^(?:browserAll|webworkerAll)-[^/]*\.js$/;

/** Gzipped size in bytes, as counted everywhere here. */
export function gzipBytes(data: Buffer | string): number {
  return gzipSync(data).length;
}

/** Bytes to KB (1024), one decimal. */
export function toKB(bytes: number): number {
  return Math.round((bytes / 1024) * 10) / 10;
}

export interface ChunkSize {
  /** Path under the dist folder, e.g. `assets/index-abc.js`. */
  readonly file: string;
  readonly bytes: number;
  readonly gzipBytes: number;
}

export interface BundleSize {
  /** Gzipped JavaScript of the game page: the entry and every chunk it loads. */
  readonly gzipBytes: number;
  /** The entry script alone (all that the home page needs). */
  readonly entryGzipBytes: number;
  /** Every counted file, entry first. */
  readonly chunks: readonly ChunkSize[];
}

interface Imports {
  readonly static: string[];
  readonly dynamic: string[];
}

/**
 * Relative `.js` specifiers of a built chunk: `from"./x.js"`, `import"./x.js"` and
 * `import("./x.js")` (any quote), resolved against the chunk's folder.
 */
function importsOf(code: string, dir: string): Imports {
  const out: Imports = { static: [], dynamic: [] };
  const re = /\b(from|import)\s*(\(\s*)?(["'`])(\.{1,2}\/[^"'`\s]+?\.js)\3/g;
  for (let m = re.exec(code); m; m = re.exec(code)) {
    const target = path.posix.normalize(path.posix.join(dir, m[4]));
    (m[1] === 'import' && m[2] ? out.dynamic : out.static).push(target);
  }
  return out;
}

/** Module scripts and modulepreloads of the built `index.html`, as paths under the dist folder. */
function entriesOf(html: string): string[] {
  const out: string[] = [];
  const tag = /<(script|link)\b[^>]*>/gi;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    const t = m[0];
    const isModule = m[1].toLowerCase() === 'script' ? /\btype=["']?module/i.test(t) : /\brel=["']?modulepreload/i.test(t);
    const src = /\b(?:src|href)=["']?([^"'\s>]+)/i.exec(t)?.[1];
    if (isModule && src && !/^[a-z]+:|^\/\//i.test(src)) out.push(src.replace(/^\.?\//, ''));
  }
  return out;
}

/** The trailing source map comment, left out of every figure (a production build has none). */
const MAP_COMMENT = /\n?\/\/# sourceMappingURL=\S+\s*$/;

/** Gzipped JavaScript of the game page of the client built in `distDir` (see the file comment). */
export function measureBundle(distDir: string): BundleSize {
  const html = path.join(distDir, 'index.html');
  if (!existsSync(html)) throw new Error(`${html} is missing: build the client first (npm run build)`);
  const entries = entriesOf(readFileSync(html, 'utf8'));
  if (entries.length === 0) throw new Error(`${html} has no module script`);
  const seen = new Set<string>();
  const chunks: ChunkSize[] = [];
  let gamePage = false;
  const visit = (file: string, isEntry: boolean): void => {
    if (seen.has(file) || NEVER_LOADED.test(path.posix.basename(file))) return;
    seen.add(file);
    const abs = path.join(distDir, file);
    if (!existsSync(abs)) throw new Error(`${file} is imported but missing from ${distDir}`);
    // Without a source map comment, so that a `--sourcemap` build measures as a production one.
    const code = readFileSync(abs, 'utf8').replace(MAP_COMMENT, '');
    chunks.push({ file, bytes: Buffer.byteLength(code), gzipBytes: gzipBytes(code) });
    const { static: imports, dynamic } = importsOf(code, path.posix.dirname(file));
    for (const f of imports) visit(f, false);
    for (const f of dynamic) {
      const isGame = GAME_PAGE_CHUNK.test(path.posix.basename(f));
      gamePage ||= isGame;
      if (!isEntry || isGame) visit(f, false);
    }
  };
  for (const e of entries) visit(e, true);
  if (!gamePage) throw new Error(`no game page chunk (gamePage-*.js) is imported from ${entries.join(', ')}`);
  const entryGzipBytes = chunks.find((c) => c.file === entries[0])?.gzipBytes ?? 0;
  return { gzipBytes: chunks.reduce((s, c) => s + c.gzipBytes, 0), entryGzipBytes, chunks };
}

/** One source's share of the game page's gzipped JavaScript (`measureSources`). */
export interface SourceShare {
  /** A dependency's package name (`valibot`, `pixi.js`) or a project file (`shared/src/protocol.ts`). */
  readonly source: string;
  /** Minified bytes the source maps attribute to it. */
  readonly bytes: number;
  /** Those bytes gzipped on their own. */
  readonly aloneGzipBytes: number;
  /** What it costs the page: the page's gzip minus the page's gzip with its bytes cut out. */
  readonly marginalGzipBytes: number;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Per generated line of a source map's `mappings`, each segment's [column, source index] (absolute). */
function decodeMappings(mappings: string): [number, number][][] {
  const lines: [number, number][][] = [];
  let source = 0;
  for (const line of mappings.split(';')) {
    const segs: [number, number][] = [];
    let column = 0;
    for (const seg of line.split(',')) {
      if (seg === '') continue;
      const fields: number[] = [];
      let value = 0;
      let shift = 0;
      for (const ch of seg) {
        const digit = BASE64.indexOf(ch);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += fields[0];
      if (fields.length > 1) source += fields[1];
      segs.push([column, fields.length > 1 ? source : -1]);
    }
    lines.push(segs);
  }
  return lines;
}

/** A source map path as a share's name: the package of a dependency, else the workspace path (`client/src/…`). */
function sourceName(source: string): string {
  const dep = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  return dep ? dep[1] : source.replace(/^(?:.*\/)?(client|shared)\/src\//, '$1/src/').replace(/^(\.\.\/)+/, '');
}

/**
 * The game page's gzipped JavaScript (`measureBundle`'s files) by source, from the source maps
 * of a client built with `vite build --sourcemap`: each minified byte belongs to the source its
 * mapping segment names (`(unmapped)` for the bundler's glue). Sorted by marginal cost.
 */
export function measureSources(distDir: string): SourceShare[] {
  const files = measureBundle(distDir).chunks.map(({ file }) => {
    const code = readFileSync(path.join(distDir, file), 'utf8').replace(MAP_COMMENT, '');
    const mapFile = path.join(distDir, `${file}.map`);
    // Runs of code owned by one source: [start, end, name].
    const runs: [number, number, string][] = [];
    if (existsSync(mapFile)) {
      const map = JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[]; mappings: string };
      const names = map.sources.map(sourceName);
      let offset = 0;
      const codeLines = code.split('\n');
      decodeMappings(map.mappings).forEach((segs, i) => {
        const length = codeLines[i]?.length ?? 0;
        segs.forEach(([column, source], k) => {
          const end = k + 1 < segs.length ? segs[k + 1][0] : length;
          runs.push([offset + column, offset + end, source < 0 ? '(unmapped)' : names[source]]);
        });
        offset += length + 1;
      });
    }
    return { code, runs };
  });
  const pageGzip = files.reduce((sum, f) => sum + gzipBytes(f.code), 0);
  const sources = [...new Set(files.flatMap((f) => f.runs.map((r) => r[2])))];
  return sources
    .map((source) => {
      let alone = '';
      let without = 0;
      for (const { code, runs } of files) {
        let kept = '';
        let at = 0;
        for (const [start, end, name] of runs) {
          if (name !== source) continue;
          kept += code.slice(at, start);
          alone += code.slice(start, end);
          at = end;
        }
        without += gzipBytes(kept + code.slice(at));
      }
      return { source, bytes: alone.length, aloneGzipBytes: gzipBytes(alone), marginalGzipBytes: pageGzip - without };
    })
    .sort((a, b) => b.marginalGzipBytes - a.marginalGzipBytes);
}
