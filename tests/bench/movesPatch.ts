/**
 * What one turn's change to the move list costs the schema, by the length of the list: a room's
 * state (`DjambiState`) gets its next `moves` entry, `ply` and `version`, is encoded as a patch
 * and its changes discarded, as `mirror` and `broadcastPatch` do after each turn. Bytes allocated
 * per turn (between forced collections, in a young generation large enough that none runs inside
 * a pass) and CPU µs per turn, median of the runs, at each starting length; once as
 * @colyseus/schema 3.0.76 does it, once with `patchSchemaCollections` (server/src/rooms/internals.ts),
 * and once as `mirror` writes it: appended (`append`) to the array behind its proxy, declared
 * append-only (`appendOnly`, internals.ts), which keeps no copy of its items and no record of
 * every change, and which no whole-list comparison follows after each patch.
 * The state is written directly rather than through `loadgen/benchGame.ts`'s match and `mirror`:
 * a random game may end before the lengths measured, and its turns' engine work would blur the
 * schema's figures (`loadgen/mirrorCost.ts` times the whole mirror).
 *
 *   npm run -s bench:moves [-- --rooms 500 --turns 30 --runs 5 --at 20,150,300,900 --json]
 */
import { spawnSync } from 'node:child_process';
import { Encoder } from '@colyseus/schema';
import { DjambiState } from '../../server/src/rooms/schema.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1]! : fallback);
const rooms = Number(option('--rooms', '500'));
const turns = Number(option('--turns', '30'));
const runs = Number(option('--runs', '5'));
const lengths = option('--at', '20,150,300,900').split(',').map(Number);
const json = args.includes('--json');
const mode = option('--mode', '');

interface Figures {
  readonly at: number;
  readonly bytes: number;
  readonly us: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

type Mode = 'original' | 'patched' | 'lean';

/** One measuring process: `--mode original|patched|lean`. */
async function measure(mode: Mode): Promise<Figures[]> {
  const internals = mode === 'original' ? null : await import('../../server/src/rooms/internals.js');
  internals?.patchSchemaCollections();
  const gc = (globalThis as { gc?: () => void }).gc!;
  const out: Figures[] = [];
  for (const at of lengths) {
    const bytes: number[] = [];
    const us: number[] = [];
    for (let run = 0; run < runs; run++) {
      const states = Array.from({ length: rooms }, () => {
        const state = new DjambiState();
        const encoder = new Encoder(state);
        encoder.encodeAll();
        const moves = mode === 'lean' && internals ? internals.appendOnly(state.moves) : state.moves;
        return { state, encoder, moves };
      });
      const play = (from: number, to: number) => {
        for (let i = from; i < to; i++) {
          for (const { state, encoder, moves } of states) {
            const move = `${'RBYG'[i % 4]} ${'abcdefghi'[i % 9]}${(i % 9) + 1}-${'abcdefghi'[(i * 7) % 9]}${((i * 5) % 9) + 1}`;
            if (mode === 'lean' && internals) internals.append(moves, move);
            else moves.push(move);
            state.ply = i + 1;
            state.version = i + 1;
            encoder.encode();
            encoder.discardChanges();
          }
        }
      };
      play(0, at);
      gc();
      const heap = process.memoryUsage().heapUsed;
      const cpu = process.cpuUsage();
      play(at, at + turns);
      const used = process.cpuUsage(cpu);
      bytes.push((process.memoryUsage().heapUsed - heap) / rooms / turns);
      us.push((used.user + used.system) / rooms / turns);
    }
    out.push({ at, bytes: Math.round(median(bytes)), us: Math.round(median(us) * 100) / 100 });
  }
  return out;
}

if (mode) {
  process.stdout.write(JSON.stringify(await measure(mode as Mode)));
} else {
  const result: Record<string, Figures[]> = {};
  for (const m of ['original', 'patched', 'lean'] as const) {
    const child = spawnSync(
      process.execPath,
      [...process.execArgv, '--expose-gc', '--max-semi-space-size=512', '--min-semi-space-size=512', process.argv[1]!, ...args, '--mode', m],
      {
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      },
    );
    if (child.status !== 0) throw new Error(`${m} run failed: ${child.stderr}`);
    result[m] = JSON.parse(child.stdout) as Figures[];
  }
  if (json) console.log(JSON.stringify({ rooms, turns, runs, ...result }));
  else {
    console.log(`${rooms} states × ${turns} turns from each length, median of ${runs} runs`);
    console.log('moves before   original B/turn  µs/turn  patched B/turn  µs/turn  lean B/turn  µs/turn');
    result.original!.forEach((o, i) => {
      const s = result.patched![i]!;
      const l = result.lean![i]!;
      console.log(
        `${String(o.at).padStart(12)} ${String(o.bytes).padStart(17)} ${o.us.toFixed(2).padStart(8)} ${String(s.bytes).padStart(15)} ${s.us.toFixed(2).padStart(8)} ${String(l.bytes).padStart(12)} ${l.us.toFixed(2).padStart(8)}`,
      );
    });
  }
}
