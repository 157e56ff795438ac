/**
 * `patchSchemaCollections` (server/src/rooms/internals.ts): after each patch a collection's
 * pending changes are dictionaries, so a change at a high index (the move list's next entry)
 * allocates no array as long as the list, and an array that only grew brings its copy of the
 * items up to date in place; the patches say exactly what they said before.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ArraySchema, ChangeTree, Decoder, Encoder, MapSchema, Schema, type } from '@colyseus/schema';
import { append, appendOnly, patchSchemaCollections, unproxied } from '../../server/src/rooms/internals.js';

const ROOT = path.resolve(__dirname, '../..');

// A late joiner's full state of a 1,500-entry list is larger than the default 8 KB buffer.
Encoder.BUFFER_SIZE = 64 * 1024;

class Item extends Schema {
  @type('string') label = '';
}

class Table extends Schema {
  @type(['string']) moves = new ArraySchema<string>();
  @type({ map: 'string' }) control = new MapSchema<string>();
  @type([Item]) items = new ArraySchema<Item>();
  @type('uint32') version = 0;
}

function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
}

test('patches over a long game decode to the same state, for a client from the start and for one joining late', () => {
  patchSchemaCollections();
  const state = new Table();
  const encoder = new Encoder(state);
  const client = new Decoder(new Table());
  client.decode(encoder.encodeAll());
  const random = seeded(7);
  for (let i = 0; i < 1500; i++) {
    const r = random();
    if (r < 0.8 || state.moves.length === 0) state.moves.push(`R m${i}`);
    else if (r < 0.85) state.moves[Math.floor(random() * state.moves.length)] = `B x${i}`;
    else if (r < 0.88) state.moves.pop();
    else if (r < 0.93) state.control.set('RBYG'[i % 4]!, `c${i}`);
    else if (r < 0.95) state.control.delete('RBYG'[i % 4]!);
    else if (r < 0.98 || state.items.length === 0) state.items.push(new Item().assign({ label: `i${i}` }));
    else state.items.splice(Math.floor(random() * state.items.length), 1);
    state.version = i;
    client.decode(encoder.encode());
    encoder.discardChanges();
    if (i % 250 === 249) {
      const late = new Decoder(new Table());
      late.decode(encoder.encodeAll());
      expect(late.state.toJSON()).toEqual(state.toJSON());
    }
  }
  expect(state.moves.length).toBeGreaterThan(1000);
  expect(client.state.toJSON()).toEqual(state.toJSON());
});

/** One patch of each encoder: the same bytes, decoded by `client`; both encoders' changes then discarded. */
function patchBoth(a: Encoder, b: Encoder, client: Decoder): void {
  const patch = b.encode();
  expect(Buffer.compare(a.encode(), patch)).toBe(0);
  client.decode(patch);
  a.discardChanges();
  b.discardChanges();
}

test('an array pushed through `unproxied` (its change tree on the array itself) sends the same bytes as through its proxy', () => {
  patchSchemaCollections();
  const plain = new Table();
  const lean = new Table();
  const leanMoves = unproxied(lean.moves);
  const a = new Encoder(plain);
  const b = new Encoder(lean);
  expect(Buffer.compare(a.encodeAll(), b.encodeAll())).toBe(0);
  const client = new Decoder(new Table());
  const random = seeded(11);
  for (let i = 0; i < 1200; i++) {
    const r = random();
    const at = plain.moves.length === 0 ? 0 : Math.floor(random() * plain.moves.length);
    for (const [state, push] of [
      [plain, (m: string) => plain.moves.push(m)],
      [lean, (m: string) => leanMoves.push(m)],
    ] as const) {
      if (r < 0.85 || state.moves.length === 0) push(`R m${i}`);
      else if (r < 0.9) state.moves[at] = `B x${i}`;
      else if (r < 0.93) state.moves.pop();
      else state.control.set('RBYG'[i % 4]!, `c${i}`);
      state.version = i;
    }
    patchBoth(a, b, client);
    if (i % 300 === 299) expect(Buffer.compare(a.encodeAll(), b.encodeAll())).toBe(0);
  }
  expect(lean.moves.length).toBeGreaterThan(800);
  expect(client.state.toJSON()).toEqual(plain.toJSON());
  expect(lean.toJSON()).toEqual(plain.toJSON());
});

test('an append-only move list (`appendOnly`, `append`) sends the same bytes as a plain one, to clients from the start and joining late', () => {
  patchSchemaCollections();
  const plain = new Table();
  const lean = new Table();
  const leanMoves = appendOnly(lean.moves);
  const a = new Encoder(plain);
  const b = new Encoder(lean);
  const client = new Decoder(new Table());
  client.decode(b.encodeAll());
  for (let i = 0; i < 700; i++) {
    const n = i % 7 === 0 ? 2 : 1;
    for (let k = 0; k < n; k++) {
      plain.moves.push(`R m${i}.${k}`);
      append(leanMoves, `R m${i}.${k}`);
    }
    plain.version = lean.version = i;
    patchBoth(a, b, client);
    if (i % 200 === 199) {
      const late = new Decoder(new Table());
      late.decode(b.encodeAll());
      expect(late.state.toJSON()).toEqual(plain.toJSON());
    }
  }
  expect(client.state.toJSON()).toEqual(plain.toJSON());
});

test("after a patch a collection's pending changes are dictionaries, a Schema's untouched; an array that only grew updates its copy in place", () => {
  const script = `
    import('./server/src/rooms/internals.ts').then(async () => {
      const { $changes, ArraySchema, Encoder, Schema, defineTypes } = await import('@colyseus/schema');
      class S extends Schema {}
      defineTypes(S, { moves: ['string'], n: 'uint8' });
      const s = new S();
      s.moves = new ArraySchema();
      const encoder = new Encoder(s);
      for (let i = 0; i < 50; i++) { s.moves.push('m' + i); s.n = i % 200; encoder.encode(); encoder.discardChanges(); }
      const tree = s.moves[$changes];
      const own = s[$changes];
      const copy = s.moves.tmpItems;
      s.moves.push('last');
      encoder.encode();
      encoder.discardChanges();
      const inPlace = s.moves.tmpItems === copy && copy.length === 51 && copy[50] === 'last';
      s.moves.pop();
      encoder.encode();
      encoder.discardChanges();
      const copied = s.moves.tmpItems !== copy && s.moves.tmpItems.length === 50;
      console.log(JSON.stringify({
        operations: %HasDictionaryElements(tree.indexedOperations),
        indexes: %HasDictionaryElements(tree.changes.indexes),
        schema: %HasDictionaryElements(own.indexedOperations),
        inPlace,
        copied,
      }));
    });`;
  const run = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout.trim())).toEqual({ operations: true, indexes: true, schema: false, inPlace: true, copied: true });
});

test('the patched library sends the very bytes of @colyseus/schema 3.0.76 itself, for every patch and every late joiner', () => {
  // The same seeded changes, encoded in a process without the patches and in one with them (and
  // with an append-only list written through \`append\`): the digests of all bytes must match.
  const script = (patched: boolean) => `
    (async () => {
      const internals = ${patched} ? await import('./server/src/rooms/internals.ts') : null;
      const { createHash } = await import('node:crypto');
      const { ArraySchema, MapSchema, Encoder, Schema, defineTypes } = await import('@colyseus/schema');
      Encoder.BUFFER_SIZE = 64 * 1024;
      class Item extends Schema {}
      defineTypes(Item, { label: 'string' });
      class Seat extends Schema {}
      defineTypes(Seat, { name: 'string', clock: 'float64', on: 'boolean' });
      class T extends Schema {}
      defineTypes(T, { a: 'string', b: 'uint16', moves: ['string'], log: ['string'], control: { map: 'string' }, seats: { map: Seat }, items: [Item], pick: Item, version: 'uint32' });
      const s = new T();
      s.moves = new ArraySchema(); s.log = new ArraySchema(); s.control = new MapSchema(); s.seats = new MapSchema(); s.items = new ArraySchema();
      for (const c of 'RBYG') { const seat = new Seat(); seat.name = c; s.seats.set(c, seat); }
      const log = internals ? internals.appendOnly(s.log) : s.log;
      const encoder = new Encoder(s);
      const hash = createHash('sha256');
      hash.update(encoder.encodeAll());
      let seed = 5;
      const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
      for (let i = 0; i < 1500; i++) {
        const r = random();
        if (internals) internals.append(log, 'e' + i);
        else log.push('e' + i);
        if (r < 0.5) s.moves.push('m' + i);
        else if (r < 0.55 && s.moves.length > 0) s.moves[Math.floor(random() * s.moves.length)] = 'x' + i;
        else if (r < 0.6) s.moves.pop();
        else if (r < 0.7) s.control.set('RBYG'[i % 4], 'c' + (i % 3));
        else if (r < 0.75) s.control.delete('RBYG'[i % 4]);
        else if (r < 0.85) s.seats.get('RBYG'[i % 4]).clock = i * 1.5;
        else if (r < 0.9) s.seats.get('RBYG'[i % 4]).on = !s.seats.get('RBYG'[i % 4]).on;
        else if (r < 0.95 || s.items.length === 0) { const it = new Item(); it.label = 'i' + i; s.items.push(it); }
        else s.items.splice(Math.floor(random() * s.items.length), 1);
        if (i % 3 === 0) s.a = 'a' + (i % 5);
        else if (i % 13 === 0) s.a = undefined;
        if (i % 7 === 0) s.b = i % 11;
        if (i % 17 === 0) { const it = new Item(); it.label = 'p' + i; s.pick = it; }
        else if (i % 29 === 0) s.pick = undefined;
        s.version = i;
        hash.update(encoder.encode());
        encoder.discardChanges();
        if (i % 100 === 99) hash.update(encoder.encodeAll());
      }
      console.log(hash.digest('hex'));
    })();`;
  const digest = (patched: boolean) => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script(patched)], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).toBe('');
    return run.stdout.trim();
  };
  const original = digest(false);
  expect(original).toMatch(/^[0-9a-f]{64}$/);
  expect(digest(true)).toBe(original);
});

test('installing twice wraps once', () => {
  const endEncode = ChangeTree.prototype.endEncode;
  const onEncodeEnd = (ArraySchema.prototype as unknown as Record<string, unknown>)['~onEncodeEnd'];
  patchSchemaCollections();
  expect(ChangeTree.prototype.endEncode).toBe(endEncode);
  expect((ArraySchema.prototype as unknown as Record<string, unknown>)['~onEncodeEnd']).toBe(onEncodeEnd);
});
