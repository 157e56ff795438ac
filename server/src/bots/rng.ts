/** Seeded randomness for the bots: a bot's choices depend only on its seed (mulberry32). */

/** A deterministic generator of numbers in [0, 1). */
export type Random = () => number;

/** A generator seeded with `seed` (any integer). */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A per-decision seed from a game seed, a ply and a seat, so replays of a game repeat it. */
export function decisionSeed(gameSeed: number, ply: number, seat: number): number {
  let h = (gameSeed ^ 0x9e3779b9) >>> 0;
  h = Math.imul(h ^ ply, 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (seat + 1), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}
