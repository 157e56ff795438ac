/**
 * Per-player game clocks (total time plus increment). Pure: the time comes in as an argument.
 * Running out of time is a resignation; the room asks `flagged` and resigns for the player.
 */
import type { Colour } from '@djambi/shared';
import type { ClockConfig } from './config.js';

export class GameClock {
  readonly remaining = new Map<Colour, number>();
  /** The colour whose clock runs, or null. */
  running: Colour | null = null;
  /** Epoch ms when the running clock was (re)started. */
  startedAt = 0;

  constructor(
    readonly config: ClockConfig,
    colours: readonly Colour[],
  ) {
    for (const c of colours) this.remaining.set(c, config.initialMs);
  }

  /** Starts the clock of `colour` (stopping nothing: call `stop` first). */
  start(colour: Colour | null, now: number): void {
    this.running = colour;
    this.startedAt = now;
  }

  /** Stops the running clock, charging the elapsed time, plus the increment if `moved`. */
  stop(now: number, moved: boolean): void {
    const c = this.running;
    if (c === null) return;
    const left = Math.max(0, (this.remaining.get(c) ?? 0) - (now - this.startedAt));
    this.remaining.set(c, moved ? left + this.config.incrementMs : left);
    this.running = null;
    this.startedAt = now;
  }

  /** Time left to `colour` at `now`. */
  timeLeft(colour: Colour, now: number): number {
    const base = this.remaining.get(colour) ?? 0;
    return colour === this.running ? base - (now - this.startedAt) : base;
  }

  /** True when the running clock has run out at `now`. */
  flagged(now: number): boolean {
    return this.running !== null && this.timeLeft(this.running, now) <= 0;
  }

  /** Milliseconds from `now` until the running clock runs out, or null when none runs. */
  msToFlag(now: number): number | null {
    return this.running === null ? null : Math.max(0, this.timeLeft(this.running, now));
  }
}
