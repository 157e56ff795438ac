/**
 * The server's one V8 setting: a larger young generation, of a fixed size. A room replaces its
 * position, the last turn and a few schema arrays on every turn, and each lives until the room's next turn (about a
 * second at one turn per room per second). With V8's default semi-space (16 MB on 64-bit) a
 * busy process scavenges several times a second, so those objects survive two scavenges and are
 * promoted: the old generation then fills with them, and each full collection's marking slows
 * every room for a few hundred milliseconds (the benchmarks log at 1d9c9ed, "The stall found"). With 64 MB,
 * most die young: at 1,000 rooms the benchmark promoted a quarter as much per turn, and at 2,000
 * rooms p99 fell from 325 to 56 ms. It costs up to 96 MB more resident memory per process (two
 * semi-spaces of 64 MB instead of 16; measured: 35-75 MB more than with 32 MB at 1,000-2,000
 * rooms), not per room.
 *
 * The size is also the smallest (`--min-semi-space-size`): otherwise V8 shrinks the young
 * generation after a quiet spell (its memory reducer, or a scavenge that finds the allocation
 * rate low) and grows it back only step by step once the rooms play again. Measured in the
 * benchmark's window after 15 s without turns: a young generation of a few MB for the first ten
 * seconds of play, and 33 collections in 20 s instead of 6, two of them full ones
 * (the benchmarks log at 1d9c9ed, "Session 21"). It keeps up to 128 MB resident in a process that
 * was busy and no longer is; an idle process that never was holds 14 MB more.
 *
 * Node reads the setting only at start-up, so it is a command-line flag: `npm start`, the
 * Dockerfile's CMD and the benchmarks' server processes pass `SERVER_NODE_FLAGS` (a test checks
 * that they agree), and the server logs at boot when it was started without either.
 */

/** Megabytes of each of the young generation's two semi-spaces. */
export const SEMI_SPACE_MB = 64;

/** The Node flags a production server process starts with. */
export const SERVER_NODE_FLAGS: readonly string[] = [`--max-semi-space-size=${SEMI_SPACE_MB}`, `--min-semi-space-size=${SEMI_SPACE_MB}`];

const SEMI_SPACE_FLAG = /^--(max|min)[-_]semi[-_]space[-_]size=(\d+)$/;

/**
 * The largest (`max`) or smallest (`min`) semi-space size (MB) set by this process's flags
 * (`execArgv`, then `NODE_OPTIONS`, the last one winning as in Node), or null when neither sets it
 * (V8's default).
 */
export function semiSpaceFlagMB(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? '',
  bound: 'max' | 'min' = 'max',
): number | null {
  let mb: number | null = null;
  for (const arg of [...nodeOptions.split(/\s+/), ...execArgv]) {
    const m = SEMI_SPACE_FLAG.exec(arg);
    if (m && m[1] === bound) mb = Number(m[2]);
  }
  return mb;
}

/**
 * A boot warning when the process runs with a smaller young generation than production's, or one
 * V8 may shrink below it, else null.
 */
export function heapWarning(max = semiSpaceFlagMB(), min = semiSpaceFlagMB(undefined, undefined, 'min')): string | null {
  if (max !== null && max >= SEMI_SPACE_MB && min !== null && min >= SEMI_SPACE_MB) return null;
  const size = max === null ? "V8's default semi-space" : `a ${max} MB semi-space`;
  const floor = min === null ? ', which V8 may shrink' : min < SEMI_SPACE_MB ? `, which V8 may shrink to ${min} MB` : '';
  return `started with ${size}${floor}; production runs node ${SERVER_NODE_FLAGS.join(' ')} (fewer promotions, shorter full collections: docs/DEPLOYMENT.md)`;
}
