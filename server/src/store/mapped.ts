/**
 * The memory-map addon (`server/native/mmap.c`, built at `npm ci`): `map(fd, length)` reserves
 * the first `length` bytes of an open file on disk and maps them shared, so that a write into the
 * returned memory is a write into the file's page cache without a system call. It outlives a
 * crash of the process (kill -9) as a `write()` does. Optional: null when the addon was not built
 * (no C compiler, another OS).
 */
import { createRequire } from 'node:module';

export interface MemoryMap {
  map(fd: number, length: number): ArrayBuffer;
}

/** From `server/src/store` (tsx, jest) as from `server/dist/store`. */
const ADDON = '../../native/build/Release/djambi_mmap.node';

let addon: MemoryMap | null | undefined;

/** The addon, or null (see above); loaded once. */
export function memoryMap(): MemoryMap | null {
  if (addon !== undefined) return addon;
  try {
    addon = createRequire(import.meta.url)(ADDON) as MemoryMap;
  } catch {
    addon = null;
  }
  return addon;
}
