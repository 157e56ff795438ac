/**
 * The board's running animation, seen by the input: any input while a turn animates first
 * finishes the animation (skips it to its end), so that it acts on the position after it, the
 * one the controller already holds. Pure TypeScript, tested without a browser.
 */

/** At most one animation at a time; a new one takes over from the one before. */
export class AnimationGate {
  private current: { readonly finish: () => void } | null = null;

  /** `settled` runs after an animation was finished early (to redraw the board as it is now). */
  constructor(private readonly settled: () => void = () => undefined) {}

  /** True while an animation runs. */
  get running(): boolean {
    return this.current !== null;
  }

  /**
   * An animation starts; `finish` must skip it to its end at once. Returns the function to call
   * when it ends by itself, which answers true if it was still the running one (not finished
   * early, not taken over).
   */
  start(finish: () => void): () => boolean {
    const entry = { finish };
    this.current = entry;
    return () => {
      if (this.current !== entry) return false;
      this.current = null;
      return true;
    };
  }

  /** Finish the running animation now. Returns true if one was running. */
  settle(): boolean {
    const entry = this.current;
    if (!entry) return false;
    this.current = null;
    entry.finish();
    this.settled();
    return true;
  }

  /** `handler` made to finish any running animation before it runs. */
  guard<A extends unknown[], R>(handler: (...args: A) => R): (...args: A) => R {
    return (...args: A): R => {
      this.settle();
      return handler(...args);
    };
  }
}
