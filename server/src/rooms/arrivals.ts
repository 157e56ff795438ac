/**
 * A connection joins: as a spectator, as a seat's holder coming back with its key (from this
 * device or another one, whose connection is then replaced), or as a newcomer taking a free seat.
 */
import type { Rejection } from '../errors.js';
import { hashSeatKey } from '../match/seats.js';
import { type AuthData, joinError } from './join.js';
import type { RoomPort } from './port.js';

/** Seats or adds the connection `sessionId` as its join options ask (checked by `authorise`). */
export async function arrive(room: RoomPort, sessionId: string, auth: AuthData): Promise<void> {
  const opts = auth.join;
  if (opts.spectate) {
    room.spectatorIds.add(sessionId);
    const intent = { type: 'spectate', id: sessionId, name: opts.name, limitKey: `addr:${auth.address}` } as const;
    const out = await room.pipeline.step(intent, undefined, 'join', joinFailure);
    if (!out) room.spectatorIds.delete(sessionId);
    return;
  }
  if (opts.seatKey !== undefined) {
    await room.journal.settled(); // the seat as every earlier intent left it
    const seat = room.journal.match.seats.byKey(opts.seatKey);
    if (!seat) throw joinError('bad_seat_key', 'no seat has this key');
    const replaced = room.links.connect(seat.colour, sessionId, opts.seatKey, room.now());
    if (replaced !== null) room.outbox.evict(replaced, seat.colour);
    room.outbox.sendSeat(seat.colour);
    if (opts.name && opts.name !== seat.name) await room.pipeline.step({ type: 'rename', colour: seat.colour, name: opts.name });
    room.commit(true);
    return;
  }
  // The host token itself is never kept: the seat it takes is the host's when its hash matches.
  const host = opts.hostToken === undefined ? {} : { hostTokenHash: hashSeatKey(opts.hostToken) };
  await room.pipeline.step({ type: 'take_seat', name: opts.name, colour: opts.colour, ...host }, undefined, 'join', joinFailure, (out) => {
    if (out.seat) room.links.connect(out.seat.colour, sessionId, out.seat.key, room.now());
  });
  const colour = room.links.colourOf(sessionId);
  if (colour) room.outbox.sendSeat(colour);
}

/** A join the match or the store refused: the SDK's promise rejects with the join error code. */
function joinFailure(rejection: Rejection): never {
  const code = rejection.code;
  throw joinError(
    code === 'no_free_seat' || code === 'storage_unavailable' ? code : code === 'already_started' ? 'game_started' : 'seat_taken',
    rejection.message,
  );
}
