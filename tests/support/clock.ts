/**
 * The one fake clock of the tests, for `ServerConfig.now` and anything else that takes a `now`:
 * it moves only when the test advances it, either on top of real time or frozen at a start.
 */
export class TestClock {
  private offset = 0;

  private constructor(private readonly base: () => number) {}

  /** Real time plus what the test advanced (the server's timers still run). */
  static following(): TestClock {
    return new TestClock(Date.now);
  }

  /** Frozen at `start` (default 2026-01-01): it moves only when the test advances it. */
  static frozenAt(start = Date.UTC(2026, 0, 1)): TestClock {
    return new TestClock(() => start);
  }

  /** The clock's time, in ms (a bound function: pass it as `now`). */
  readonly now = (): number => this.base() + this.offset;

  /** Moves the clock forward by `ms`. */
  advance(ms: number): void {
    this.offset += ms;
  }
}
