/**
 * Plain Node timers owned by one room, all cleared at once when the room goes. The room's
 * Colyseus clock only ticks with the patch interval, which no room runs (a patch follows every
 * commit), so every timer of a room (the idle timer, a player's flag falling) is one of these.
 */

/** Cancels a timer (idempotent). */
export type Cancel = () => void;

/** The timers of one room. */
export class RoomTimers {
  private readonly handles = new Set<NodeJS.Timeout>();
  /** Cleared for good (the room went): no timer is set any more. */
  private closed = false;

  /** `fault`: where a timer's throw goes (the room's fault handler), never to the process. */
  constructor(private readonly fault: (error: unknown) => void) {}

  /** Calls `fn` once after `ms` milliseconds (clamped to what Node timers accept). */
  later(ms: number, fn: () => void): Cancel {
    if (this.closed) return () => undefined;
    const handle = setTimeout(
      () => {
        this.handles.delete(handle);
        try {
          fn();
        } catch (e) {
          this.fault(e);
        }
      },
      Math.min(Math.max(0, ms), 2 ** 31 - 1),
    );
    this.handles.add(handle);
    return () => {
      clearTimeout(handle);
      this.handles.delete(handle);
    };
  }

  /** Clears every pending timer, and sets none from now on (an intent saved after the room went must not keep the process alive). */
  clearAll(): void {
    this.closed = true;
    for (const handle of this.handles) clearTimeout(handle);
    this.handles.clear();
  }
}

/** One pending timer at most: each `set` replaces the one before (the flag timer, the idle timer). */
export class TimerSlot {
  private cancel: Cancel | null = null;

  constructor(private readonly timers: RoomTimers) {}

  /** Whether a timer is pending (false again as soon as it fires). */
  get pending(): boolean {
    return this.cancel !== null;
  }

  /** Calls `fn` once after `ms` milliseconds, cancelling the pending timer, if any. */
  set(ms: number, fn: () => void): void {
    this.clear();
    this.cancel = this.timers.later(ms, () => {
      this.cancel = null;
      fn();
    });
  }

  /** Cancels the pending timer, if any. */
  clear(): void {
    this.cancel?.();
    this.cancel = null;
  }
}

/** What the alarms of a room ask of it. */
export interface AlarmHooks {
  /** Asks the match to check the clocks. */
  flag(): void;
  /** Whether nobody is connected or on the way back. */
  empty(): boolean;
  /** Seconds the room is kept once empty. */
  idleSeconds(): number;
  /** Closes the room (empty for its idle lifetime). */
  expire(): void;
  /** A timer threw (see `DjambiRoom.fault`). */
  fault(error: unknown): void;
}

/** The two timers of a room that call back into it: the flag timer and the idle timer. */
export class Alarms {
  private readonly timers: RoomTimers;
  private readonly flagTimer: TimerSlot;
  private readonly idleTimer: TimerSlot;

  /** Milliseconds until the running clock runs out (null: no clock is running); none before `readFlagFrom`. */
  private msToFlag: () => number | null = () => null;

  constructor(private readonly hooks: AlarmHooks) {
    this.timers = new RoomTimers(hooks.fault);
    this.flagTimer = new TimerSlot(this.timers);
    this.idleTimer = new TimerSlot(this.timers);
  }

  /** Where the flag timer reads the clock from, given once the game is open (read after every accepted intent). */
  readFlagFrom(msToFlag: () => number | null): void {
    this.msToFlag = msToFlag;
  }

  /** (Re)schedules the flag timer: it fires when the running clock runs out and asks the match to check. */
  scheduleFlag(): void {
    const ms = this.msToFlag();
    if (ms === null) return this.flagTimer.clear();
    this.flagTimer.set(ms + 1, () => {
      this.hooks.flag();
      if (!this.flagTimer.pending) this.scheduleFlag();
    });
  }

  /** Starts the idle timer if the room is empty: it closes the room if it is still empty then. */
  armIdle(): void {
    if (!this.hooks.empty()) return;
    this.idleTimer.set(this.hooks.idleSeconds() * 1000, () => {
      if (this.hooks.empty()) this.hooks.expire();
    });
  }

  /** Stops the idle timer (somebody joined or came back). */
  clearIdle(): void {
    this.idleTimer.clear();
  }

  /** Clears every timer (the room goes). */
  clearAll(): void {
    this.timers.clearAll();
  }
}

/**
 * Seconds an empty room is kept: its `idleSeconds`, no more than `unjoinedSeconds` if nobody ever
 * joined it, and no more than a minute once its game is over.
 */
export function idleLifetime(idleSeconds: number, unjoinedSeconds: number, everJoined: boolean, over: boolean): number {
  const idle = everJoined ? idleSeconds : Math.min(unjoinedSeconds, idleSeconds);
  return over ? Math.min(60, idle) : idle;
}
