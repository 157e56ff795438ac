/**
 * What one system call on a turn's path costs, the call itself and the work after it, without a
 * server: a 4-player match plays seeded random turns; after each turn's `apply` comes one of
 * `none`, `json` (the event's JSON only), `fstat` (a system call that does no I/O) or `pwrite`
 * (a line of JSON written with one positioned write), then the room's
 * `mirror` and the patch's encoding, timed apart. 3 MB of memory are touched between turns, as
 * a busy server's other rooms would. Prints the median µs of five passes of 1,500 turns each.
 *
 *   TSX_TSCONFIG_PATH=tests/bench/server-tsconfig.json node --import tsx tests/bench/syscallCost.ts [--file PATH]
 */
import { fstatSync, ftruncateSync, openSync, rmSync, writeSync } from 'node:fs';
import { seeded } from '../support/random.js';
import { benchGame } from './loadgen/benchGame.js';

const fileArg = process.argv.indexOf('--file');
const file = fileArg >= 0 ? process.argv[fileArg + 1]! : 'syscall-cost.pending';
const fd = openSync(file, 'w');
let size = 0;
const junk = new Float64Array((3 * 1024 * 1024) / 8);
const variants: Record<string, (ev: unknown) => void> = {
  none: () => {},
  json: (ev) => {
    JSON.stringify(ev);
  },
  fstat: () => {
    fstatSync(fd);
  },
  pwrite: (ev) => {
    const b = Buffer.from(`["BENCH1",1,2,${JSON.stringify(ev)}]\n`);
    writeSync(fd, b, 0, b.length, size);
    size += b.length;
    if (size > 1 << 20) {
      ftruncateSync(fd, 0);
      size = 0;
    }
  },
};
function pass(name: string, n: number) {
  const random = seeded(7);
  let g = benchGame();
  const after: number[] = [],
    whole: number[] = [];
  while (after.length < n) {
    for (let i = 0; i < junk.length; i += 8) junk[i] += 1; // cold caches between turns, as in a busy server
    const t0 = process.hrtime.bigint();
    const out = g.step(random);
    if (!out) {
      g = benchGame();
      continue;
    }
    variants[name]!(out.event);
    const t1 = process.hrtime.bigint();
    g.mirror();
    g.patchBytes();
    const t2 = process.hrtime.bigint();
    after.push(Number(t2 - t1) / 1000);
    whole.push(Number(t2 - t0) / 1000);
  }
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
  return { after: med(after), whole: med(whole) };
}
const names = Object.keys(variants);
for (const v of names) pass(v, 300);
const res: Record<string, { after: number[]; whole: number[] }> = {};
for (let r = 0; r < 5; r++)
  for (const v of names) {
    const x = pass(v, 1500);
    (res[v] ??= { after: [], whole: [] }).after.push(x.after);
    res[v].whole.push(x.whole);
  }
rmSync(file, { force: true });
for (const v of names)
  console.log(
    v.padEnd(7),
    'mirror+encode after',
    res[v]!.after.map((x) => x.toFixed(1)).join(' '),
    '| whole',
    res[v]!.whole.map((x) => x.toFixed(1)).join(' '),
  );
