/**
 * Plain Node timers owned by one room, all cleared at once when the room goes. The room's
 * Colyseus clock only ticks with the patch interval, which an empty room turns off, so timers
 * that must fire in an empty room (the idle timer, a player's flag falling while everyone is
 * away) use these.
 */

/** Cancels a timer (idempotent). */
export type Cancel = () => void;

/** The timers of one room. */
export class RoomTimers {
  private readonly handles = new Set<NodeJS.Timeout>();

  /** Calls `fn` once after `ms` milliseconds (clamped to what Node timers accept). */
  later(ms: number, fn: () => void): Cancel {
    const handle = setTimeout(
      () => {
        this.handles.delete(handle);
        fn();
      },
      Math.min(Math.max(0, ms), 2 ** 31 - 1),
    );
    this.handles.add(handle);
    return () => {
      clearTimeout(handle);
      this.handles.delete(handle);
    };
  }

  /** Clears every pending timer. */
  clearAll(): void {
    for (const handle of this.handles) clearTimeout(handle);
    this.handles.clear();
  }
}
