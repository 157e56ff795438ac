/**
 * The single process's room listings (`server/src/cluster/localDriver.ts`): every lookup answers
 * what Colyseus's own `LocalDriver` answers, before and after listings are saved, removed and
 * cleared, though a lookup by room id is served from an index.
 */
import { LocalDriver } from '@colyseus/core';
import { LeanLocalDriver } from '../../server/src/cluster/localDriver.js';

type Driver = LocalDriver;

/** The same steps on both drivers; each lookup's room id (or undefined) on each. */
async function both(steps: (d: Driver) => Promise<unknown[]>): Promise<[unknown[], unknown[]]> {
  return [await steps(new LocalDriver()), await steps(new LeanLocalDriver())];
}

const idOf = (listing: unknown) => (listing as { roomId?: string } | undefined)?.roomId;

test('lookups by room id follow saves, removals and clears as the stock driver does', async () => {
  const [stock, lean] = await both(async (d) => {
    const out: unknown[] = [];
    const find = async (conditions: Record<string, unknown>) => out.push(idOf(await d.findOne(conditions)));
    const a = d.createInstance({ roomId: 'a', name: 'djambi', processId: 'p1' });
    const b = d.createInstance({ roomId: 'b', name: 'djambi', processId: 'p1' });
    await find({ roomId: 'a' }); // not saved yet: not listed
    a.save();
    b.save();
    await find({ roomId: 'a' });
    await find({ roomId: 'a' }); // the index's hit
    await find({ roomId: 'b' });
    await find({ roomId: 'zzz' });
    a.remove();
    await find({ roomId: 'a' });
    await find({ roomId: 'b' });
    // Another listing under a removed one's id is found (never the removed one).
    const a2 = d.createInstance({ roomId: 'a', name: 'djambi', processId: 'p2' });
    a2.save();
    out.push((await d.findOne({ roomId: 'a' }))?.processId);
    await find({ name: 'djambi', processId: 'p1' });
    await find({ name: 'other' });
    await find({ roomId: 'b', processId: 'p2' });
    await d.cleanup('p1');
    await find({ roomId: 'b' });
    const old = d.createInstance({ roomId: 'old', name: 'djambi', processId: 'p1' });
    d.clear();
    await find({ roomId: 'a' });
    old.save(); // into the list it was made for, which is no longer the driver's
    await find({ roomId: 'old' });
    const c = d.createInstance({ roomId: 'c', name: 'djambi', processId: 'p1' });
    c.save();
    await find({ roomId: 'c' });
    return out;
  });
  expect(lean).toEqual(stock);
  expect(lean).toEqual([undefined, 'a', 'a', 'b', undefined, undefined, 'b', 'p2', 'b', undefined, undefined, undefined, undefined, undefined, 'c']);
});

test('a removed listing leaves the index, and its own fields stay what a query shows', async () => {
  const d = new LeanLocalDriver();
  const listing = d.createInstance({ roomId: 'x', name: 'djambi', processId: 'p1' });
  listing.save();
  expect(idOf(await d.findOne({ roomId: 'x' }))).toBe('x');
  expect(Object.keys(listing)).not.toContain('remove');
  expect(JSON.parse(JSON.stringify(d.query({ name: 'djambi' })))[0]).toMatchObject({ roomId: 'x', name: 'djambi', processId: 'p1' });
  listing.remove();
  expect(await d.findOne({ roomId: 'x' })).toBeUndefined();
  expect((d as unknown as { byId: Map<string, unknown> }).byId.size).toBe(0);
});
