/**
 * Room lifecycle logs, added around the room class (a subclass over its public lifecycle hooks,
 * so the room itself knows nothing of logging): created or re-opened, joined and left (with the
 * seat or the spectator in context), disposed. Join options, seat keys and messages are not logged.
 */
import type { Client } from '@colyseus/core';
import type { DjambiRoom } from '../rooms/DjambiRoom.js';
import { type Logger, roomLogger, seatFields } from './log.js';

/** The code of a Colyseus `ServerError` (join errors), if any. */
function errorCode(e: unknown): string | number | undefined {
  return (e as { code?: string | number } | null)?.code;
}

/** `Base` with its lifecycle logged to `log` (each room logs through its own child logger). */
export function loggedRoom(Base: typeof DjambiRoom, log: Logger): typeof DjambiRoom {
  return class LoggedRoom extends Base {
    private roomLog: Logger = log;

    override async onCreate(options: unknown): Promise<void> {
      const restoring = typeof options === 'object' && options !== null && 'restore' in options;
      try {
        await super.onCreate(options);
      } catch (e) {
        log.warn({ code: errorCode(e), restoring }, 'room not created');
        throw e;
      }
      this.roomLog = roomLogger(log, this.code);
      this.roomLog.info({ restored: restoring, players: this.match.seats.seats.size }, restoring ? 'room re-opened from the log' : 'room created');
    }

    override async onJoin(client: Client, options: unknown, auth: Parameters<DjambiRoom['onJoin']>[2]): Promise<void> {
      try {
        await super.onJoin(client, options, auth);
      } catch (e) {
        this.roomLog.info({ sessionId: client.sessionId, code: errorCode(e) }, 'join refused');
        throw e;
      }
      if (!this.roomLog.isLevelEnabled('info')) return;
      const seat = this.seatOf(client.sessionId);
      this.roomLog.info(
        { ...seatFields(seat, client.sessionId), reclaim: auth.join.seatKey !== undefined },
        seat === null ? 'spectator joined' : 'player joined',
      );
    }

    override async onLeave(client: Client, consented: boolean): Promise<void> {
      if (this.roomLog.isLevelEnabled('info')) {
        const seat = this.seatOf(client.sessionId);
        this.roomLog.info({ ...seatFields(seat, client.sessionId), consented }, seat === null ? 'spectator left' : 'player left');
      }
      await super.onLeave(client, consented);
    }

    /** The error with its stack and where it was thrown; never the message that caused it (it may be private). */
    protected override logFault(error: unknown, where: string): void {
      this.roomLog.error({ err: error, where }, 'internal error: the room closes and its game re-opens from the log');
    }

    override onBeforeShutdown(): void {
      this.roomLog.info({ clients: this.clients.length }, 'process stopping: clients told to come back');
      super.onBeforeShutdown();
    }

    override async onDispose(): Promise<void> {
      this.roomLog.info('room disposed');
      await super.onDispose();
    }
  };
}
