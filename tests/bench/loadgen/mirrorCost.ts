/**
 * Cost of `mirror` per accepted turn, without a server: a 4-player match plays seeded random
 * turns and the room model is mirrored into a schema after each, as the room does on commit.
 * Prints the median and mean µs per mirror (the median resists a busy machine) and the patch
 * bytes per turn.
 *
 *   TSX_TSCONFIG_PATH=tests/bench/server-tsconfig.json node --import tsx tests/bench/loadgen/mirrorCost.ts [--turns 2000] [--json]
 */
import { seeded } from '../../support/random.js';
import { benchGame } from './benchGame.js';

const args = process.argv.slice(2);
const turnsWanted = Number(args[args.indexOf('--turns') + 1]) || 2000;
const json = args.includes('--json');

/** Plays `n` turns and times the mirror after each; returns the median and mean µs and patch bytes per turn. */
function pass(n: number) {
  const random = seeded(7);
  let g = benchGame();
  const times: number[] = [];
  let patch = 0;
  while (times.length < n) {
    if (!g.step(random)) {
      g = benchGame();
      continue;
    }
    const t0 = process.hrtime.bigint();
    g.mirror();
    times.push(Number(process.hrtime.bigint() - t0) / 1000);
    patch += g.patchBytes();
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { median: sorted[Math.floor(n / 2)], mean: times.reduce((a, b) => a + b, 0) / n, patch: patch / n };
}

pass(Math.min(500, turnsWanted)); // warm-up
const timed = pass(turnsWanted);
const result = {
  turns: turnsWanted,
  mirrorMicrosPerTurn: { median: +timed.median.toFixed(2), mean: +timed.mean.toFixed(2) },
  patchBytesPerTurn: +timed.patch.toFixed(1),
};
if (json) console.log(JSON.stringify(result));
else
  console.log(
    `mirror: median ${result.mirrorMicrosPerTurn.median} µs per turn (mean ${result.mirrorMicrosPerTurn.mean}), patch ${result.patchBytesPerTurn} B per turn (${turnsWanted} turns)`,
  );
