/**
 * `npm run bench:bots -- --games N [--json]`: the bot tournament of the research notes (§5).
 * Seat-rotated matches, reproducible from `--seed` in node-budget mode (the default):
 * - F1, 1 vs the rest: one candidate against copies of a baseline, its seat rotated over every seat;
 * - F2, 2 vs 2 (four players only): two copies of each over the six seat arrangements.
 * Prints, per pairing, the candidate side's share with a 95 % confidence interval, wins, games
 * drawn or capped, illegal turns and fallbacks, then decision time p50/p95/p99/max per level,
 * and how long the full tournament (`--games 160`) would take at the measured speed.
 *
 * Options: --games N (per pairing, rounded up to the rotation), --players 4[,3,2], --board hex3|hex5|hex6
 * (a hex board's seats; --players is then ignored), --seed S, --offset K,
 * --cap PLIES (400), --mode nodes|time, --nodes easy=N,normal=N,hard=N, --pairings
 * F1:normal/easy,F2:hard/normal,..., --hard JSON (hard-level settings to try, e.g. '{"quiesce":false}').
 */
import { seatsOf, DEFAULT_RULES, parseRules, type Colour, type Rules } from '@djambi/shared';
import { playBotGame, sideShare, type Player, type SelfPlayGame } from '../../server/src/bots/selfplay.js';
import { HARD, LEVEL_NODES, type BotLevel, type HardSettings } from '../../server/src/bots/search.js';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const json = args.includes('--json');
const games = Number(flag('games') ?? 8);
const seed = Number(flag('seed') ?? 1);
/** `--offset K`: start at game K of the seeded sequence (a multiple of the rotation), to split a run over processes. */
const offset = Number(flag('offset') ?? 0);
const cap = Number(flag('cap') ?? 400);
const mode = flag('mode') === 'time' ? 'time' : 'nodes';
const board = flag('board');
/** The rules of each player count (`--players`), or the one game of `--board`. */
const rulesList: Rules[] = board
  ? [
      (() => {
        const r = parseRules({ board });
        if (!r.ok) throw new Error(r.error.message);
        return r.value;
      })(),
    ]
  : (flag('players') ?? '4').split(',').map((n) => ({ ...DEFAULT_RULES, players: Number(n) as 2 | 3 | 4 }));
const nodes: Record<BotLevel, number> = { ...LEVEL_NODES };
for (const kv of (flag('nodes') ?? '').split(',').filter(Boolean)) {
  const [k, v] = kv.split('=');
  if (k in nodes) nodes[k as BotLevel] = Number(v);
}
/** `--hard '{"widths":[0,12,6]}'`: hard-level settings to try instead of the shipped ones (A/B runs). */
const hardOverride = JSON.parse(flag('hard') ?? '{}') as Partial<HardSettings>;
const hard: HardSettings = { ...HARD, ...hardOverride };
/** Full tournament size per pairing (notes §5: 157 games detect 25 % → 35 % in F1, 194 detect 50 % → 60 % in F2). */
const FULL_GAMES = { F1: 160, F2: 198 };

interface Pairing {
  readonly format: 'F1' | 'F2';
  readonly candidate: Player;
  readonly baseline: Player;
}
const DEFAULT_PAIRINGS = 'F1:easy/random,F1:normal/easy,F1:hard/normal,F2:normal/easy,F2:hard/normal';
const pairings: Pairing[] = (flag('pairings') ?? DEFAULT_PAIRINGS).split(',').map((s) => {
  const [format, rest] = s.split(':');
  const [candidate, baseline] = rest.split('/');
  return { format: format as 'F1' | 'F2', candidate: candidate as Player, baseline: baseline as Player };
});

/** Seat arrangements of a pairing: the candidate side's seats per game, rotated. */
function arrangements(format: 'F1' | 'F2', seats: readonly Colour[]): Colour[][] {
  if (format === 'F1') return seats.map((c) => [c]);
  const out: Colour[][] = [];
  for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) out.push([seats[i], seats[j]]);
  return out; // XXYY, XYXY, XYYX, YXXY, YXYX, YYXX
}

function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/**
 * Mean share and its 95 % Wilson score interval (shares are in [0, 1], so p(1 − p) bounds their
 * variance; the interval stays honest at 0 % and 100 %).
 */
function interval(xs: number[]): { mean: number; low: number; high: number } {
  const n = Math.max(1, xs.length);
  const p = xs.reduce((a, b) => a + b, 0) / n;
  const z = 1.96;
  const denom = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denom;
  return { mean: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

const round = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d;
const thinkMs: Record<string, number[]> = {};
const results: Record<string, unknown>[] = [];
const started = performance.now();
let estimateS = 0;

for (const rules of rulesList) {
  const seats = seatsOf(rules);
  const players = seats.length;
  for (const pairing of pairings) {
    if (pairing.format === 'F2' && players !== 4) continue;
    const layouts = arrangements(pairing.format, seats);
    const n = Math.ceil(games / layouts.length) * layouts.length;
    const shares: number[] = [];
    let wins = 0;
    let capped = 0;
    let drawn = 0;
    let illegal = 0;
    let fallbacks = 0;
    let plies = 0;
    const t0 = performance.now();
    for (let g = offset; g < offset + n; g++) {
      const side = layouts[g % layouts.length];
      const seatPlayers: Partial<Record<Colour, Player>> = {};
      for (const c of seats) seatPlayers[c] = side.includes(c) ? pairing.candidate : pairing.baseline;
      const game: SelfPlayGame = playBotGame(seatPlayers, { rules, seed: seed * 100_003 + g, maxPlies: cap, mode, nodes, hard });
      const share = sideShare(game, side);
      shares.push(share);
      if (game.result?.kind === 'win' && side.includes(game.result.winner)) wins++;
      if (game.capped) capped++;
      else if (game.result?.kind === 'draw') drawn++;
      illegal += game.illegal;
      plies += game.turns.length;
      for (const t of game.thinks) {
        if (t.player === 'random') continue;
        (thinkMs[t.player] ??= []).push(t.ms);
        if (t.fallback) fallbacks++;
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    estimateS += (seconds / n) * FULL_GAMES[pairing.format];
    const ci = interval(shares);
    const fair = pairing.format === 'F1' ? 1 / players : 0.5;
    results.push({
      players,
      format: pairing.format,
      candidate: pairing.candidate,
      baseline: pairing.baseline,
      games: n,
      share: round(ci.mean),
      ci95: [round(ci.low), round(ci.high)],
      fair: round(fair),
      wins,
      drawn,
      capped,
      illegal,
      fallbacks,
      mean_plies: Math.round(plies / n),
      seconds: round(seconds, 1),
    });
  }
}

const timing = Object.fromEntries(
  Object.entries(thinkMs).map(([level, xs]) => [
    level,
    {
      decisions: xs.length,
      p50: round(quantile(xs, 0.5), 1),
      p95: round(quantile(xs, 0.95), 1),
      p99: round(quantile(xs, 0.99), 1),
      max: round(quantile(xs, 1), 1),
    },
  ]),
);
const summary = {
  mode,
  nodes: mode === 'nodes' ? nodes : null,
  hard,
  seed,
  offset,
  cap,
  games_per_pairing: games,
  results,
  think_ms: timing,
  seconds: round((performance.now() - started) / 1000, 1),
  full_run_estimate_s: Math.round(estimateS),
  full_run_games: FULL_GAMES,
  node: process.version,
};

if (json) console.log(JSON.stringify(summary));
else {
  console.log(
    `bots tournament: ${mode} mode${
      mode === 'nodes'
        ? ` (${Object.entries(nodes)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')} evaluations)`
        : ''
    }, seed ${seed}, cap ${cap} plies, hard ${JSON.stringify(hard)}`,
  );
  console.log('players format candidate/baseline  games  share  [95% CI]        fair  wins drawn capped illegal fallbacks plies  s');
  for (const r of results) {
    const ci = r.ci95 as number[];
    console.log(
      `${String(r.players).padEnd(7)} ${String(r.format).padEnd(6)} ${`${r.candidate}/${r.baseline}`.padEnd(19)} ${String(r.games).padStart(5)}  ${(r.share as number).toFixed(3)}  [${ci[0].toFixed(3)}, ${ci[1].toFixed(3)}]  ${(r.fair as number).toFixed(2)}  ${String(r.wins).padStart(4)} ${String(r.drawn).padStart(5)} ${String(r.capped).padStart(6)} ${String(r.illegal).padStart(7)} ${String(r.fallbacks).padStart(9)} ${String(r.mean_plies).padStart(5)} ${r.seconds}`,
    );
  }
  console.log('decision time (ms): level decisions p50 p95 p99 max');
  for (const [level, t] of Object.entries(timing)) console.log(`  ${level.padEnd(7)} ${t.decisions} ${t.p50} ${t.p95} ${t.p99} ${t.max}`);
  console.log(
    `took ${summary.seconds} s; the full tournament (${FULL_GAMES.F1} games per F1 pairing, ${FULL_GAMES.F2} per F2, these player counts) would take about ${Math.round(estimateS / 60)} min on this machine`,
  );
}
