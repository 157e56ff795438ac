/**
 * The table's alarms as deadlines (epoch ms of its clock): when the running clock runs out, and
 * when an empty room expires. The table sets them; every publication carries the earliest
 * (`Publication.alarm`), and its host keeps one timer for it and calls `Table.tick` back when it
 * is reached. No timer lives in the table: tests and bots drive it by calling `tick`.
 */

/** What the alarms ask of their table. */
export interface AlarmHooks {
  /** The table's clock, epoch ms. */
  now(): number;
  /** Milliseconds until the running clock runs out, or null when no clock runs. */
  msToFlag(): number | null;
  /** Asks the match to check the clocks. */
  flag(): void;
  /** Whether nobody is connected or on the way back. */
  empty(): boolean;
  /** Seconds the room is kept once empty. */
  idleSeconds(): number;
  /** Closes the room (empty for its idle lifetime). */
  expire(): void;
}

/** How long after a flag check that did not settle the clock it is checked again, in ms. */
const FLAG_RETRY_MS = 1000;

/** The two deadlines of a table. */
export class Alarms {
  private flagAt: number | null = null;
  private idleAt: number | null = null;

  constructor(private readonly hooks: AlarmHooks) {}

  /** The earliest deadline, or null. */
  get next(): number | null {
    if (this.flagAt === null) return this.idleAt;
    return this.idleAt === null ? this.flagAt : Math.min(this.flagAt, this.idleAt);
  }

  /** The flag deadline from the running clock (after every accepted intent). */
  scheduleFlag(): void {
    const ms = this.hooks.msToFlag();
    this.flagAt = ms === null ? null : this.hooks.now() + Math.max(0, ms) + 1;
  }

  /** If the room is empty, it expires after its idle lifetime from now (a later call starts it again). */
  armIdle(): void {
    if (this.hooks.empty()) this.idleAt = this.hooks.now() + this.hooks.idleSeconds() * 1000;
  }

  /** Somebody joined or came back: no expiry. */
  clearIdle(): void {
    this.idleAt = null;
  }

  /**
   * Runs what is due by `reached` (the deadline the host's timer was set for: a timer that fired
   * has reached it, whatever the clock says) and returns the next deadline.
   */
  tick(reached: number): number | null {
    if (this.idleAt !== null && this.idleAt <= reached) {
      this.idleAt = null;
      if (this.hooks.empty()) this.hooks.expire();
    }
    if (this.flagAt !== null && this.flagAt <= reached) {
      // The check's publication sets the next flag deadline; until it comes, check again later.
      this.flagAt = this.hooks.now() + FLAG_RETRY_MS;
      this.hooks.flag();
    }
    return this.next;
  }

  /** No deadline any more (the room goes). */
  clearAll(): void {
    this.flagAt = null;
    this.idleAt = null;
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
