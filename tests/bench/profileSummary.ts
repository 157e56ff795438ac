/**
 * Summary of a V8 CPU profile (`.cpuprofile`, as `BENCH_CPU_PROF=DIR` writes them): self time by
 * package (or our `server` / `shared` code, Node's internals, native code), the functions with
 * the most self time, and the inclusive time of the functions whose name or file matches
 * `--match` (a regular expression). Samples and milliseconds; with `--turns N`, µs per turn.
 *
 *   npx tsx tests/bench/profileSummary.ts FILE.cpuprofile [--top 30] [--match 'rooms/|match/'] [--turns 15000]
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}
interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly startTime: number;
  readonly endTime: number;
}

/** Where a frame's code comes from: a package, our server or engine, Node, or native code. */
function origin(f: CallFrame): string {
  if (!f.url) return f.functionName.startsWith('(') ? f.functionName : `native ${f.functionName}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f.url);
  if (pkg) return pkg[1]!;
  if (f.url.includes('/server/')) return 'server';
  if (f.url.includes('/shared/')) return 'shared';
  if (f.url.startsWith('node:')) return `node:${f.url.slice(5).split('/')[0]}`;
  return f.url;
}

function label(f: CallFrame): string {
  return `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
}

function main(argv: string[]): void {
  let file: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i]!.startsWith('--')) i++;
    else file ??= argv[i];
  }
  if (!file) throw new Error('usage: profileSummary.ts FILE.cpuprofile [--top N] [--match REGEX] [--turns N]');
  const opt = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const top = Number(opt('--top') ?? 30);
  const match = opt('--match');
  const turns = Number(opt('--turns') ?? 0);
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const msPerSample = (p.endTime - p.startTime) / 1000 / p.samples.length;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  for (const s of p.samples) self.set(s, (self.get(s) ?? 0) + 1);

  const add = (m: Map<string, number>, k: string, n: number) => m.set(k, (m.get(k) ?? 0) + n);
  const byOrigin = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, n] of self) {
    const f = byId.get(id)!.callFrame;
    add(byOrigin, origin(f), n);
    add(byFunction, label(f), n);
    // Each function once per sample, however deep it recurses.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = label(byId.get(cur)!.callFrame);
      if (!seen.has(k)) {
        seen.add(k);
        add(inclusive, k, n);
      }
    }
  }
  const show = (n: number) =>
    `${String(n).padStart(8)} ${(n * msPerSample).toFixed(0).padStart(7)} ms${turns > 0 ? `${((n * msPerSample * 1000) / turns).toFixed(1).padStart(8)} µs/turn` : ''}`;
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  console.log(`${p.samples.length} samples over ${((p.endTime - p.startTime) / 1e6).toFixed(1)} s (${(msPerSample * 1000).toFixed(0)} µs each)`);
  console.log('\nself time by origin');
  for (const [k, n] of sorted(byOrigin).slice(0, top)) console.log(`${show(n)}  ${k}`);
  console.log('\nself time by function');
  for (const [k, n] of sorted(byFunction).slice(0, top)) console.log(`${show(n)}  ${k}`);
  if (match) {
    const re = new RegExp(match);
    console.log(`\ninclusive time of /${match}/`);
    for (const [k, n] of sorted(inclusive)
      .filter(([k]) => re.test(k))
      .slice(0, top))
      console.log(`${show(n)}  ${k}`);
  }
}

main(process.argv.slice(2));
