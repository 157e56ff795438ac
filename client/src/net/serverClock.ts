/**
 * The server's clock as seen from this device. Game clocks, presence times and the rematch
 * deadline come as server epoch ms; the device's own clock may be off by minutes or hours, so
 * remaining times are counted from `ServerClock.now()`. The offset comes from `time` round trips
 * (docs/PROTOCOL.md): offset = server time - the round trip's midpoint, the sample with the
 * smallest round trip kept (its error is at most half that round trip). Each connection probes
 * afresh: its first answer replaces the previous estimate, the device clock may have jumped.
 */

/** Round trips of one probe (one at a time: each asked once the previous one is answered). */
export const TIME_SAMPLES = 5;

/** An estimate of the server clock. */
export class ServerClock {
  private best: { readonly roundTrip: number; readonly offset: number } | null = null;
  /** The next sample replaces the estimate whatever its round trip (a new connection began). */
  private stale = false;

  /** `deviceNow`: the device's clock, epoch ms. */
  constructor(private readonly deviceNow: () => number = () => Date.now()) {}

  /** Whether a round trip was measured (before that, `now()` is the device's clock). */
  get known(): boolean {
    return this.best !== null;
  }

  /** Ms to add to the device clock to read the server's (0 before any sample). */
  get offset(): number {
    return this.best?.offset ?? 0;
  }

  /** The server's time now, epoch ms. */
  now(): number {
    return this.deviceNow() + this.offset;
  }

  /** One round trip: asked at device time `sent`, answered with `server`, received at device time `received`. Nonsense is ignored. */
  sample(sent: number, server: number, received: number): void {
    const roundTrip = received - sent;
    if (!Number.isFinite(sent) || !Number.isFinite(server) || !Number.isFinite(received) || roundTrip < 0) return;
    if (this.best && !this.stale && this.best.roundTrip <= roundTrip) return;
    this.best = { roundTrip, offset: server - (sent + received) / 2 };
    this.stale = false;
  }

  /**
   * Starts a probe of `samples` round trips through `send` (sends one `time` request; false when
   * it could not go out, which ends the probe). Call the returned function with the server time
   * of each `time` answer; an answer with no request outstanding is ignored.
   */
  probe(send: () => boolean, samples = TIME_SAMPLES): (server: number) => void {
    this.stale = this.best !== null;
    let left = samples;
    let sent: number | null = null;
    const ask = (): void => {
      sent = this.deviceNow();
      if (!send()) sent = null;
    };
    ask();
    return (server) => {
      if (sent === null) return;
      this.sample(sent, server, this.deviceNow());
      sent = null;
      if (--left > 0) ask();
    };
  }
}
