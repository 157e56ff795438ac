import { ALL_COLOURS } from '../types.js';

/** Bit count of an active-player mask. */
export function popcount(mask: number): number {
  let n = 0;
  for (let m = mask; m; m &= m - 1) n++;
  return n;
}

/** Number of seats in the cycle: every colour (`ALL_COLOURS`); a board's missing seats are never active. */
const SEATS = ALL_COLOURS.length;

/**
 * First active seat after seat s in the cycle R, B, Y, G, P, W (s itself may be inactive); -1 if
 * none. Each board seats a prefix of that cycle in its own turn order (R-3.1; HEX.md §3.5, SX-12).
 */
export function nextActiveSeatAfter(mask: number, s: number): number {
  for (let i = 1; i <= SEATS; i++) {
    const c = (s + i) % SEATS;
    if ((mask >> c) & 1) return c;
  }
  return -1;
}

/** Who plays next and how (RULES.md ). */
export interface NextTurn {
  player: number;
  normal: boolean;
  cursor: number;
}

/**
 * R-3.5's reference algorithm. `p` just finished a turn (`wasNormal` tells its kind), `cursor`
 * is the seat of the last normal turn, `mask` the active players and `k` the ruler (or -1),
 * both read after the end-of-move procedure.
 */
export function nextTurn(p: number, wasNormal: boolean, cursor: number, mask: number, k: number): NextTurn {
  const count = popcount(mask);
  if (wasNormal && (mask >> p) & 1 && k >= 0 && k !== p) {
    if (count >= 3 && nextActiveSeatAfter(mask, p) === k) return { player: k, normal: true, cursor: k };
    return { player: k, normal: false, cursor };
  }
  let n = nextActiveSeatAfter(mask, cursor);
  if (n === p && !(count === 2 && k === p)) n = nextActiveSeatAfter(mask, n);
  return { player: n, normal: true, cursor: n };
}
