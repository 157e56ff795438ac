/**
 * `npm run bench:rules [-- --json]`: rules engine speed. Prints perft node counts (depths 1-3 from
 * the standard start) and nodes per second (depth 4), random-play turns per second, and the median
 * time of the next-choice query the client calls on each click. Medians of several runs.
 */
import { DEFAULT_RULES, initialPosition, nextChoice, perft, playTurn, randomTurn, type PartialTurn, type Position } from '@djambi/shared';
import { seeded } from '../support/random.js';

const json = process.argv.includes('--json');
const runs = 5;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const start = initialPosition(DEFAULT_RULES);
const counts = [1, 2, 3].map((d) => perft(start, d));

const perftRates: number[] = [];
let perft4 = 0;
for (let r = 0; r < runs; r++) {
  const t = process.hrtime.bigint();
  perft4 = perft(start, 4);
  const s = Number(process.hrtime.bigint() - t) / 1e9;
  perftRates.push(perft4 / s);
}

// Random play: complete games from the start, a random legal turn each time.
const turnRates: number[] = [];
const positions: Position[] = [];
for (let r = 0; r < runs; r++) {
  const random = seeded(1000 + r);
  let turns = 0;
  const t = process.hrtime.bigint();
  while (turns < 100_000) {
    let pos = start;
    while (!pos.result) {
      const res = playTurn(pos, randomTurn(pos, random));
      if (!res.ok) throw new Error(`random turn rejected: ${res.error.message}`);
      pos = res.value.position;
      turns++;
      if (r === 0 && turns % 50 === 0) positions.push(pos);
    }
  }
  turnRates.push(turns / (Number(process.hrtime.bigint() - t) / 1e9));
}

// Choice query: what a click asks — the piece's destinations, then the next choice of a full turn.
const samples: number[] = [];
const random = seeded(7);
const queries: [Position, PartialTurn][] = [];
for (const pos of positions.slice(0, 2000)) {
  const turn = randomTurn(pos, random);
  if ('pass' in turn) continue;
  queries.push([pos, { from: turn.from }], [pos, { from: turn.from, to: turn.to }]);
}
for (let r = 0; r < runs; r++) {
  const t = process.hrtime.bigint();
  for (const [pos, partial] of queries) nextChoice(pos, partial);
  samples.push(Number(process.hrtime.bigint() - t) / 1e3 / queries.length);
}

const result = {
  perft_counts: { depth1: counts[0], depth2: counts[1], depth3: counts[2], depth4: perft4 },
  perft_nodes_per_s: Math.round(median(perftRates)),
  random_turns_per_s: Math.round(median(turnRates)),
  choice_query_us: Number(median(samples).toFixed(2)),
  choice_queries: queries.length,
  runs,
  node: process.version,
};
if (json) console.log(JSON.stringify(result));
else {
  console.log(`perft from the start: ${counts.join(', ')} (depths 1-3), ${perft4} (depth 4)`);
  console.log(`perft nodes/s (depth 4, median of ${runs}): ${result.perft_nodes_per_s.toLocaleString('en')}   target >= 1,000,000`);
  console.log(`random-play turns/s (median of ${runs}): ${result.random_turns_per_s.toLocaleString('en')}   target >= 200,000`);
  console.log(`choice query (median of ${runs} runs over ${queries.length} queries): ${result.choice_query_us} us   target < 20 us`);
}
