/**
 * The memory-map addon (`server/native/mmap.c`) on its own: what is copied into the mapped bytes
 * is the file's content for every reader, without a write, and a file that cannot be mapped is
 * refused with an error code (the store then writes its lines). Required under CI=true, where
 * `npm ci` builds it; skipped with a message where it was not built.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryMap } from '../../server/src/store/mapped.js';

const dir = mkdtempSync(join(tmpdir(), 'djambi-mmap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const addon = memoryMap();
if (!addon && process.env.CI === 'true') throw new Error('the memory-map addon (server/native) is not built: npm ci builds it');
if (!addon) console.warn('skipped: the memory-map addon (server/native) is not built');
const run = addon ? test : test.skip;

run('bytes copied into the map are the file for any reader; the length is reserved on disk', () => {
  const path = join(dir, 'a.pending');
  const fd = openSync(path, 'w+');
  const bytes = Buffer.from(addon!.map(fd, 65536));
  expect(bytes.length).toBe(65536);
  expect(statSync(path).size).toBe(65536);
  expect(statSync(path).blocks * 512).toBeGreaterThanOrEqual(65536); // allocated, not a hole
  bytes.write('["ABCDEF",1,5,{}]\n', 0);
  expect(readFileSync(path, 'utf8').slice(0, 18)).toBe('["ABCDEF",1,5,{}]\n');
  closeSync(fd);
  // The mapping outlives the descriptor (it goes with the buffer).
  bytes.write('x', 0);
  expect(readFileSync(path, 'utf8')[0]).toBe('x');
});

run('a descriptor that cannot be mapped for writing, or a bad length, is refused with a code', () => {
  const path = join(dir, 'b.pending');
  closeSync(openSync(path, 'w'));
  const readOnly = openSync(path, 'r');
  expect(() => addon!.map(readOnly, 4096)).toThrow(expect.objectContaining({ code: 'EBADF' }));
  closeSync(readOnly);
  // (A TypeError of the main realm: jest's own TypeError is another class.)
  expect(() => addon!.map(-1, 4096)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG', name: 'TypeError' }));
  expect(() => addon!.map(0, 0)).toThrow(/an open file and 1 byte to 1 GiB/);
});
