/**
 * Waiting for something a test cannot subscribe to (a metric, the matchmaker's rooms, a process's
 * output): poll until it holds, with a generous bound. The bound only turns a hang into a failure
 * with a message; on a loaded machine the wait simply takes longer, so it is not what decides.
 */

/** A bound for waits on a loaded machine: long enough never to decide a passing test. */
export const PATIENCE_MS = 30_000;

/** A promise that resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Calls `probe` every `intervalMs` until `done` holds of its value; returns that value. After
 * `timeoutMs` it throws, naming `what` and the last value seen.
 */
export async function eventually<T>(
  probe: () => T | Promise<T>,
  done: (value: T) => boolean,
  what: string,
  { timeoutMs = PATIENCE_MS, intervalMs = 20 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      const shown = typeof value === 'string' ? value : JSON.stringify(value);
      throw new Error(`${what}: not within ${timeoutMs} ms (last: ${shown?.slice(0, 2000)})`);
    }
    await sleep(intervalMs);
  }
}
