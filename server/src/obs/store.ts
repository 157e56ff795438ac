/**
 * The game log with metrics: every append is timed (`djambi_store_append_seconds`) and a failed
 * one is counted by kind. A quarantine (a game's log broke: `GameStore.quarantine`) is logged,
 * one error line an operator acts on. Every other method passes through. (Accepted turns are
 * counted where the table publishes them, `turnPublished` in `table/table.ts`, so a server
 * without a store counts them too.)
 */
import { isStoreError, type GameStore } from '../store/types.js';
import type { Logger } from './log.js';
import type { Metrics } from './metrics.js';

/** `store`, counted and timed into `metrics`, its quarantines logged to `log`. */
export function observeStore(store: GameStore, metrics: Metrics, log?: Logger): GameStore {
  /** Runs one append (sync or async), timing it and counting its failure. */
  const timed = <T>(append: () => T): T => {
    const started = performance.now();
    let pending = false;
    try {
      const out = append();
      if (out instanceof Promise) {
        pending = true;
        return out.then(
          (v) => {
            metrics.observeAppend(performance.now() - started);
            return v;
          },
          (e: unknown) => {
            metrics.appendFailed(isStoreError(e) ? e.kind : 'error');
            metrics.observeAppend(performance.now() - started);
            throw e;
          },
        ) as T;
      }
      return out;
    } catch (e) {
      metrics.appendFailed(isStoreError(e) ? e.kind : 'error');
      throw e;
    } finally {
      if (!pending) metrics.observeAppend(performance.now() - started);
    }
  };
  const wrapped: Partial<GameStore> = {
    append: (code, seq, event) => timed(() => store.append(code, seq, event)),
    appendMany: (code, firstSeq, events) => timed(() => store.appendMany(code, firstSeq, events)),
    quarantine: async (code, fromSeq, reason) => {
      const out = await store.quarantine(code, fromSeq, reason);
      metrics.quarantined(out.moved);
      // `game`, `seq` (the first bad one), `reason`, `moved`, `where`: docs/DEPLOYMENT.md, "A broken game log".
      log?.error(
        { game: code, seq: fromSeq, reason, moved: out.moved, where: out.where },
        `game log quarantined: ${code} broke at seq ${fromSeq} (${reason}); ${out.moved} event(s) from there moved to ${out.where}; the game goes on with its first ${fromSeq - 1} event(s)`,
      );
      return out;
    },
  };
  // Every other method (today's and any added later) passes through, bound once.
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, prop) {
      if (Object.hasOwn(wrapped, prop)) return wrapped[prop as keyof GameStore];
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      let fn = bound.get(prop);
      if (fn === undefined) bound.set(prop, (fn = value.bind(target)));
      return fn;
    },
  });
}
