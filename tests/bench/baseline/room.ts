/**
 * The floor the server is measured against: a bare Colyseus 0.16 room of the same shape as a
 * Djambi room (4 seats + spectators, a small schema, a patch right after each turn, a 1 s
 * patchRate heartbeat, a `turn` message that changes a few fields), and nothing else: no rules,
 * no log, no limits. The load generator drives it exactly as it drives the Djambi room. (A
 * subclass may set `log` to write each turn before its patch: bench:cluster's `--floor-log`.)
 */
import { type Client, Room } from '@colyseus/core';
import { MapSchema, Schema, type } from '@colyseus/schema';

const SEAT_ORDER = ['R', 'B', 'Y', 'G'] as const;

export class BaselineSeat extends Schema {
  @type('string') colour = '';
  @type('string') name = '';
  @type('boolean') taken = false;
  @type('string') presence = 'empty';
}

export class BaselineState extends Schema {
  @type('string') phase = 'waiting';
  @type({ map: BaselineSeat }) seats = new MapSchema<BaselineSeat>();
  @type('uint16') spectators = 0;
  @type('string') toMove = '';
  /** Accepted turns. */
  @type('uint32') version = 0;
  /** The last turn, `from-to`. */
  @type('string') last = '';
}

interface JoinOptions {
  colour?: string;
  name?: string;
  spectate?: boolean;
}

/** The bare room (`baseline`). */
export class BaselineRoom extends Room<BaselineState> {
  /** Where a subclass writes each accepted turn before its patch (`clusterServer.ts` with `BASELINE_LOG`); none by default. */
  static log: ((room: string, seq: number, turn: string) => Promise<void>) | null = null;

  override maxClients = 16;
  override state = new BaselineState();
  private readonly seatOf = new Map<string, string>();

  override onCreate(): void {
    this.setPatchRate(1000);
    for (const c of SEAT_ORDER) this.state.seats.set(c, new BaselineSeat().assign({ colour: c }));
    this.onMessage('start', (client) => {
      const taken = [...this.state.seats.values()].every((s) => s.taken);
      if (!taken || this.state.phase !== 'waiting') return client.send('rejected', { type: 'start', code: 'cannot_start' });
      this.state.phase = 'playing';
      this.state.toMove = SEAT_ORDER[0];
      this.broadcastPatch();
    });
    this.onMessage('turn', (client, message: { from?: unknown; to?: unknown; version?: unknown }) => {
      const s = this.state;
      if (s.phase !== 'playing' || this.seatOf.get(client.sessionId) !== s.toMove) return client.send('rejected', { type: 'turn', code: 'not_your_turn' });
      if (typeof message?.version === 'number' && message.version !== s.version) return client.send('rejected', { type: 'turn', code: 'stale' });
      s.last = `${String(message?.from)}-${String(message?.to)}`;
      s.version++;
      s.toMove = SEAT_ORDER[s.version % 4];
      const log = (this.constructor as typeof BaselineRoom).log;
      if (!log) return this.broadcastPatch();
      // The floor with a log: the turn is written (and committed) before anybody sees it.
      void log(this.roomId, s.version, s.last).then(
        () => this.broadcastPatch(),
        (e: unknown) => console.error(`[baseline] log: ${String(e)}`),
      );
    });
  }

  override onJoin(client: Client, options: JoinOptions = {}): void {
    if (options.spectate) {
      this.state.spectators++;
      return;
    }
    const seat = this.state.seats.get(options.colour ?? '') ?? [...this.state.seats.values()].find((x) => !x.taken);
    if (!seat || seat.taken) throw new Error('no free seat');
    seat.taken = true;
    seat.name = options.name ?? seat.colour;
    seat.presence = 'connected';
    this.seatOf.set(client.sessionId, seat.colour);
    this.broadcastPatch();
  }

  override onLeave(client: Client): void {
    const colour = this.seatOf.get(client.sessionId);
    if (colour === undefined) this.state.spectators--;
    else {
      const seat = this.state.seats.get(colour);
      if (seat) seat.presence = 'away';
      this.seatOf.delete(client.sessionId);
    }
  }
}
