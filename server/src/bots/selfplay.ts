/**
 * Bot-only games for tests and the tournament (`npm run bench:bots`): every seat a level or a
 * random player, every decision seeded from the game seed, the ply and the seat, every turn
 * checked by the engine. In node-budget mode a game is reproducible from its seed.
 */
import {
  type Colour,
  colourIndex,
  DEFAULT_RULES,
  type GameResult,
  initialPosition,
  playTurn,
  type Position,
  randomTurn,
  type Rules,
  seatsOf,
  type Turn,
} from '@djambi/shared';
import { SEAT_COLOURS } from './board.js';
import { decisionSeed, seededRandom } from './rng.js';
import { chooseTurn, HARD, LEVEL_NODES, type BotLevel, type HardSettings } from './search.js';

/** Who sits in a seat: a bot level, or uniformly random play. */
export type Player = BotLevel | 'random';

/** How a self-play game is run. */
export interface SelfPlayOptions {
  readonly rules?: Rules;
  readonly seed: number;
  /** Turns before the game is stopped and counted as capped (a draw); default 400. */
  readonly maxPlies?: number;
  /** `nodes` (default): reproducible evaluation budgets; `time`: the levels' wall-clock budgets. */
  readonly mode?: 'nodes' | 'time';
  /** Evaluation budget per level in node mode (default `LEVEL_NODES`). */
  readonly nodes?: Partial<Record<BotLevel, number>>;
  /** Wall-clock budget per level in time mode (default: the level's own). */
  readonly timeMs?: Partial<Record<BotLevel, number>>;
  /** The clock for think times (default `performance.now`). */
  readonly now?: () => number;
  /** Hard-level settings to try instead of the shipped ones (`HARD`), for A/B tournaments. */
  readonly hard?: Partial<HardSettings>;
}

/** One decision's cost. */
export interface Think {
  readonly player: Player;
  readonly ms: number;
  readonly fallback: boolean;
}

/** A finished (or capped) self-play game. */
export interface SelfPlayGame {
  readonly seed: number;
  readonly seats: Partial<Record<Colour, Player>>;
  readonly turns: Turn[];
  readonly thinks: Think[];
  readonly result: GameResult | null;
  readonly capped: boolean;
  /** Turns the engine refused (always 0 unless a bot is broken); the game stops at the first. */
  readonly illegal: number;
  readonly final: Position;
}

/** Play one game; `seats` maps each seat of the rules to a player. */
export function playBotGame(seats: Partial<Record<Colour, Player>>, opts: SelfPlayOptions): SelfPlayGame {
  const rules = opts.rules ?? DEFAULT_RULES;
  const now = opts.now ?? (() => performance.now());
  const maxPlies = opts.maxPlies ?? 400;
  for (const c of seatsOf(rules)) if (!seats[c]) throw new Error(`seat ${c} has no player`);
  let pos = initialPosition(rules);
  const turns: Turn[] = [];
  const thinks: Think[] = [];
  let illegal = 0;
  const hard: HardSettings = { ...HARD, ...opts.hard };
  while (!pos.result && pos.toMove !== null && turns.length < maxPlies) {
    const mover = pos.toMove;
    const player = seats[mover]!;
    const seed = decisionSeed(opts.seed, pos.ply, colourIndex(mover));
    const t0 = now();
    let turn: Turn;
    let fallback = false;
    if (player === 'random') turn = randomTurn(pos, seededRandom(seed));
    else {
      const d =
        opts.mode === 'time'
          ? chooseTurn(pos, { level: player, seed, timeMs: opts.timeMs?.[player], now }, hard)
          : chooseTurn(pos, { level: player, seed, nodes: opts.nodes?.[player] ?? LEVEL_NODES[player] }, hard);
      turn = d.turn;
      fallback = d.fallback;
    }
    thinks.push({ player, ms: now() - t0, fallback });
    const r = playTurn(pos, turn);
    if (!r.ok) {
      illegal++;
      break;
    }
    turns.push(turn);
    pos = r.value.position;
  }
  return { seed: opts.seed, seats, turns, thinks, result: pos.result, capped: !pos.result && illegal === 0, illegal, final: pos };
}

/**
 * Share of the game won by the players in `side` (notes §5): 1 for a win, the survivors' split
 * of a draw or capped game (their share of the active players), 0 otherwise.
 */
export function sideShare(game: SelfPlayGame, side: readonly Colour[]): number {
  const r = game.result;
  if (r?.kind === 'win') return side.includes(r.winner) ? 1 : 0;
  const alive = SEAT_COLOURS.filter((c) => (game.final.activeMask >> colourIndex(c)) & 1);
  if (alive.length === 0) return 0;
  return alive.filter((c) => side.includes(c)).length / alive.length;
}
