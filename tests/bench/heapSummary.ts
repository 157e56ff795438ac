/**
 * Summary of V8 heap snapshots (`.heapsnapshot`, as bench:room's `--heap-snapshot FILE` writes
 * them): objects grouped by kind and constructor (strings by kind only, arrays' backing stores as
 * V8 names them), with their count and self size. With two snapshots, the second less the first,
 * divided by `--per N` (say, the rooms: what a room holds more in the second), largest first.
 *
 *   npx tsx tests/bench/heapSummary.ts A.heapsnapshot [B.heapsnapshot] [--per 1000] [--top 40] [--json]
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  readonly snapshot: { readonly meta: { readonly node_fields: readonly string[]; readonly node_types: readonly [readonly string[], ...unknown[]] } };
  readonly nodes: readonly number[];
  readonly strings: readonly string[];
}

export interface Group {
  readonly key: string;
  count: number;
  bytes: number;
}

/** Count and self size per group of one snapshot. */
export function groups(file: string): Map<string, Group> {
  const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const out = new Map<string, Group>();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]];
    const name = snap.strings[snap.nodes[i + nameAt]];
    // Strings are named by their text: group them by kind only.
    const key =
      type === 'string' || type === 'concatenated string' || type === 'sliced string' ? type : `${type} ${name.length > 60 ? `${name.slice(0, 57)}...` : name}`;
    let g = out.get(key);
    if (!g) out.set(key, (g = { key, count: 0, bytes: 0 }));
    g.count++;
    g.bytes += snap.nodes[i + sizeAt];
  }
  return out;
}

function main(): void {
  const args = process.argv.slice(2);
  const files = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
  const option = (name: string, fallback: number) => {
    const i = args.indexOf(name);
    return i >= 0 ? Number(args[i + 1]) : fallback;
  };
  const per = option('--per', 1);
  const top = option('--top', 40);
  if (files.length < 1 || files.length > 2 || !(per > 0)) throw new Error('usage: heapSummary.ts A.heapsnapshot [B.heapsnapshot] [--per N] [--top N] [--json]');
  const a = groups(files[0]);
  const b = files[1] ? groups(files[1]) : null;
  const rows: Group[] = [];
  if (!b) rows.push(...[...a.values()].map((g) => ({ key: g.key, count: g.count / per, bytes: g.bytes / per })));
  else
    for (const key of new Set([...a.keys(), ...b.keys()])) {
      const x = a.get(key);
      const y = b.get(key);
      rows.push({ key, count: ((y?.count ?? 0) - (x?.count ?? 0)) / per, bytes: ((y?.bytes ?? 0) - (x?.bytes ?? 0)) / per });
    }
  rows.sort((p, q) => Math.abs(q.bytes) - Math.abs(p.bytes));
  const total = rows.reduce((n, r) => n + r.bytes, 0);
  if (args.includes('--json')) {
    console.log(JSON.stringify({ per, totalBytes: total, rows: rows.slice(0, top) }, null, 2));
    return;
  }
  console.log(`${b ? 'second less first' : 'snapshot'}, per ${per}: ${total.toFixed(0)} bytes in all`);
  for (const r of rows.slice(0, top)) console.log(`${r.bytes.toFixed(0).padStart(10)} B ${r.count.toFixed(1).padStart(9)} objects  ${r.key}`);
}

main();
