/** The count of room objects, kept by the room class and read by `/healthz` and the metrics. */

/**
 * Room objects of this process: every one Colyseus builds (one per create, before any option is
 * read) and every one closed (disposed, or its create refused in `onCreate`). `built - closed`
 * above the live rooms is a room Colyseus built and then dropped without a dispose: a leak made
 * visible (`/healthz` `roomObjects`, the metric `djambi_room_objects`).
 */
export const roomCensus = {
  built: 0,
  closed: 0,
  /** Rooms built and not closed. */
  get held(): number {
    return this.built - this.closed;
  },
};
