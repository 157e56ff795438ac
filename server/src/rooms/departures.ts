/**
 * A connection goes: a spectator leaves; a seat holder leaves on purpose (before the start its
 * seat is free again, after it the seat waits for its key), or drops and may come back through
 * `client.reconnect` within the grace period, after which its seat shows as away. A host that is
 * away for good before the start hands over to the next seated player (`pass_host`).
 */
import type { Client } from '@colyseus/core';
import type { Colour } from '@djambi/shared';
import type { RoomPort } from './port.js';

/** Handles the leave of `client` (`consented`: it left on purpose). */
export async function depart(room: RoomPort, client: Client, consented: boolean): Promise<void> {
  const sid = client.sessionId;
  if (room.spectatorIds.delete(sid)) {
    room.door.left(sid);
    room.pipeline.act({ type: 'unspectate', id: sid });
    room.alarms.armIdle();
    return;
  }
  const colour = room.links.colourOf(sid);
  if (colour === null) return room.alarms.armIdle(); // replaced by a reclaim, or a join that failed
  const graceSeconds = room.journal.match.config.graceSeconds;
  if (consented || graceSeconds <= 0) {
    if (consented && room.journal.match.phase === 'waiting') {
      room.links.free(colour, room.now());
      room.pipeline.act({ type: 'leave_seat', colour });
    } else {
      room.links.away(sid, room.now());
      room.commit(true);
      handOverHost(room, colour);
    }
    return room.alarms.armIdle();
  }
  // A network drop: the same connection may come back for a while.
  room.links.dropped(sid, room.now());
  room.commit(false);
  try {
    const reconnection = room.holdFor(client, graceSeconds);
    room.reconnecting.set(sid, reconnection);
    await reconnection;
    const again = room.links.reconnected(sid, room.now());
    if (again) room.outbox.sendSeat(again);
    room.alarms.clearIdle();
  } catch {
    room.links.away(sid, room.now()); // no-op if the seat was reclaimed meanwhile
    handOverHost(room, colour);
    room.alarms.armIdle();
  } finally {
    room.reconnecting.delete(sid);
  }
  room.commit(true);
}

/** Before the start, the host's seat `colour` that is away for good passes the host on. */
function handOverHost(room: RoomPort, colour: Colour): void {
  const match = room.journal.match;
  if (match.phase !== 'waiting' || match.seats.hostColour() !== colour || room.links.of(colour).presence !== 'away') return;
  room.pipeline.act({ type: 'pass_host', colour });
}
