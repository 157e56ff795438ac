/**
 * The one "start a process and wait until it is ready" of the tests and benchmarks: a game
 * server (`listening on`), a redis-server (`Ready to accept connections`), waited for on what the
 * process itself writes, never on a fixed delay.
 */
import type { ChildProcess } from 'node:child_process';

/** How `started` waits. */
export interface StartedOptions {
  /** Named in the errors ("server", "redis-server"): `server exited with 1 before listening`. */
  readonly what: string;
  /** Only a hang reaches it: the process is ready once it says so, however long that takes. */
  readonly timeoutMs?: number;
}

/**
 * Resolves with everything `child` wrote (stdout and stderr) once that output matches `ready`;
 * rejects with that output when the process exits first, or after `timeoutMs`.
 */
export function started(child: ChildProcess, ready: string | RegExp, { what, timeoutMs = 20_000 }: StartedOptions): Promise<string> {
  const isReady = (text: string) => (typeof ready === 'string' ? text.includes(ready) : ready.test(text));
  return new Promise((resolve, reject) => {
    let output = '';
    const finish = (err: Error | null) => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(output);
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (isReady(output)) finish(null);
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      finish(new Error(`${what} exited with ${code ?? signal} before listening:\n${output}`));
    const timer = setTimeout(() => finish(new Error(`${what} did not listen within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}
