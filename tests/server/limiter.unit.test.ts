/** The limiter of re-opens on demand (`games/directory.ts`): at most N at once, the rest in order. */
import { Limiter } from '../../server/src/games/directory.js';

/** A task that resolves (or throws) when told to, recording when it started. */
function gate(started: number[], id: number) {
  let open!: () => void;
  let fail!: (e: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  const task = async () => {
    started.push(id);
    await done;
    return id;
  };
  return { task, open: () => open(), fail: (e: Error) => fail(e) };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('runs at most max tasks at once; each finished one lets the next waiting one start, in order', async () => {
  const limiter = new Limiter(2);
  const started: number[] = [];
  const gates = [0, 1, 2, 3, 4].map((i) => gate(started, i));
  const results = gates.map((g) => limiter.run(g.task));
  await tick();
  expect(started).toEqual([0, 1]);
  gates[1].open();
  await tick();
  expect(started).toEqual([0, 1, 2]);
  gates[0].fail(new Error('refused'));
  await tick();
  expect(started).toEqual([0, 1, 2, 3]); // a failed task frees its slot too
  gates[2].open();
  gates[3].open();
  await tick();
  expect(started).toEqual([0, 1, 2, 3, 4]);
  gates[4].open();
  await expect(results[0]).rejects.toThrow('refused');
  expect(await Promise.all(results.slice(1))).toEqual([1, 2, 3, 4]);
  // All slots are free again: two new tasks start at once.
  const more = [5, 6].map((i) => gate(started, i));
  const again = more.map((g) => limiter.run(g.task));
  await tick();
  expect(started.slice(5)).toEqual([5, 6]);
  for (const g of more) g.open();
  expect(await Promise.all(again)).toEqual([5, 6]);
});
