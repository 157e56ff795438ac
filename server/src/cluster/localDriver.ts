/**
 * The matchmaker's room listings when this process is alone: Colyseus's `LocalDriver` (0.16)
 * with an index by room id. Its `findOne` copies the whole list of rooms and tests every one with
 * a `for…in` over the conditions, and the matchmaker calls it for every join by room id and every
 * reconnection: at 2,000 rooms that scan was the largest single cost of opening a game (about
 * 0.4 ms of 3.2; docs/benchmarks.md, "Session 18" under Server). Here a lookup by room id alone
 * is a map lookup: a listing enters the map when it is saved into the list and leaves it when it
 * is removed from the list (or the list is cleared), so the map holds exactly the listed rooms and
 * answers what the scan would. Any other lookup is Colyseus's own.
 */
import { type IRoomCache, LocalDriver, type SortOptions } from '@colyseus/core';

type RoomCache = Awaited<ReturnType<LocalDriver['findOne']>>;

export class LeanLocalDriver extends LocalDriver {
  /** The listings of the list, by room id. */
  private readonly byId = new Map<string, RoomCache>();

  override createInstance(initialValues: Partial<IRoomCache> = {}): ReturnType<LocalDriver['createInstance']> {
    const listing = super.createInstance(initialValues);
    const driver = this;
    const byId = this.byId;
    const { save, remove } = listing;
    // Not enumerable: a listing's own fields are what the matchmaker's queries show.
    const own = (value: (this: typeof listing) => void) => ({ value, enumerable: false, writable: true, configurable: true });
    Object.defineProperties(listing, {
      save: own(function (this: typeof listing) {
        save.call(this);
        // A listing made before a `clear()` is saved into the old list, not this one.
        if ((this as unknown as { $rooms: unknown }).$rooms === driver.rooms) byId.set(this.roomId, this as unknown as RoomCache);
      }),
      remove: own(function (this: typeof listing) {
        if (byId.get(this.roomId) === (this as unknown)) byId.delete(this.roomId);
        remove.call(this);
      }),
    });
    return listing;
  }

  override findOne(conditions: Partial<IRoomCache>, sortOptions?: SortOptions): Promise<RoomCache> {
    const keys = Object.keys(conditions);
    if (sortOptions || keys.length !== 1 || keys[0] !== 'roomId' || typeof conditions.roomId !== 'string') return super.findOne(conditions, sortOptions);
    return Promise.resolve(this.byId.get(conditions.roomId) as RoomCache);
  }

  override clear(): void {
    super.clear();
    this.byId.clear();
  }
}
