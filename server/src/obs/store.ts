/**
 * The game log with metrics: every append is timed (`djambi_store_append_seconds`), a failed one
 * is counted by kind, and the turns a successful append saved are the accepted turns (an intent
 * is accepted once its events are in the log). Every other method passes through.
 */
import type { MatchEvent } from '../match/match.js';
import { isStoreError, type GameStore } from '../store/types.js';
import type { Metrics } from './metrics.js';

/** Turn events among `events`. */
function turnsIn(events: readonly MatchEvent[]): number {
  let n = 0;
  for (const e of events) if (e.intent.type === 'turn') n++;
  return n;
}

/** `store`, counted and timed into `metrics`. */
export function observeStore(store: GameStore, metrics: Metrics): GameStore {
  const timed = async (events: readonly MatchEvent[], append: () => Promise<void>): Promise<void> => {
    const started = performance.now();
    try {
      await append();
    } catch (e) {
      metrics.appendFailed(isStoreError(e) ? e.kind : 'error');
      throw e;
    } finally {
      metrics.observeAppend(performance.now() - started);
    }
    const turns = turnsIn(events);
    if (turns > 0) metrics.turnAccepted(turns);
  };
  const append: GameStore['append'] = (code, seq, event) => timed([event], () => store.append(code, seq, event));
  const appendMany: GameStore['appendMany'] = (code, firstSeq, events) => timed(events, () => store.appendMany(code, firstSeq, events));
  // A synchronous store's append (SQLite: the journal saves and publishes in one tick), timed the same way.
  const sync = store.appendManySync?.bind(store);
  const appendManySync: GameStore['appendManySync'] = sync
    ? (code, firstSeq, events) => {
        const started = performance.now();
        try {
          sync(code, firstSeq, events);
        } catch (e) {
          metrics.appendFailed(isStoreError(e) ? e.kind : 'error');
          throw e;
        } finally {
          metrics.observeAppend(performance.now() - started);
        }
        const turns = turnsIn(events);
        if (turns > 0) metrics.turnAccepted(turns);
      }
    : undefined;
  // A proxy, so that every other method (today's and any added later) passes through unchanged.
  return new Proxy(store, {
    get(target, prop) {
      if (prop === 'append') return append;
      if (prop === 'appendMany') return appendMany;
      if (prop === 'appendManySync') return appendManySync;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
