/**
 * A structural check of a msgpack value before it is decoded: extension types (which msgpackr
 * turns into Dates, BigInts, typed arrays, errors... at a cost a client controls) and 64-bit
 * integers are refused, as is anything malformed, truncated or too deeply nested. No message of
 * the protocol needs them. Two msgpackr conventions that colyseus.js's `Packr` emits are
 * understood: record definitions (`d4 72 id` + key array + values; then `id` + values) and
 * `undefined` (`d4 00 00`). The walk is linear in the frame.
 */

/** Deepest nesting of arrays and maps accepted. */
export const MAX_MSGPACK_DEPTH = 8;

/** Why a payload was refused, or null when it may be decoded. */
export type MsgpackProblem = 'extension' | 'int64' | 'malformed' | 'too_deep' | null;

const u16 = (buf: Uint8Array, i: number) => (buf[i] << 8) | buf[i + 1];
const u32 = (buf: Uint8Array, i: number) => ((buf[i] << 24) >>> 0) + ((buf[i + 1] << 16) | (buf[i + 2] << 8) | buf[i + 3]);

/**
 * remaining[d]: items still to read at depth d (a map counts key and value); one array for the
 * process, since a check runs to its end without yielding (no array per frame). A count never
 * exceeds the frame's length (checked before it is pushed), so it fits.
 */
const remaining = new Int32Array(MAX_MSGPACK_DEPTH + 1);

/** Checks the msgpack values from `offset` to the end of `buf` (one value, or none at all). */
export function checkMsgpack(buf: Uint8Array, offset: number): MsgpackProblem {
  if (offset >= buf.length) return null;
  remaining[0] = 1;
  let depth = 1;
  // Record structures defined so far in this frame: id (0x40..0x7f) -> number of fields (made
  // at the first definition: most frames have none, and this check runs on every frame).
  let records: Map<number, number> | null = null;
  let at = offset;
  while (depth > 0) {
    if (remaining[depth - 1] === 0) {
      depth--;
      continue;
    }
    remaining[depth - 1]--;
    if (at >= buf.length) return 'malformed';
    const b = buf[at++];
    let skip = 0;
    let children = -1;
    if (b >= 0x40 && b <= 0x7f && records?.has(b)) children = records.get(b)!;
    else if (b <= 0x7f || b >= 0xe0 || b === 0xc0 || b === 0xc2 || b === 0xc3) skip = 0;
    else if (b === 0xd4 && buf[at] === 0x00 && buf[at + 1] === 0x00)
      skip = 2; // undefined
    else if (b === 0xd4 && buf[at] === 0x72) {
      // A record definition: its id, an array of n keys, then the n values of the first record.
      const id = buf[at + 1];
      if (id === undefined || id < 0x40 || id > 0x7f) return 'malformed';
      at += 2;
      const h = buf[at];
      let n: number;
      if (h >= 0x90 && h <= 0x9f) {
        n = h & 0x0f;
        at += 1;
      } else if (h === 0xdc && at + 3 <= buf.length) {
        n = u16(buf, at + 1);
        at += 3;
      } else return 'malformed';
      records ??= new Map();
      records.set(id, n);
      children = 2 * n;
    } else if (b >= 0x80 && b <= 0x8f) children = (b & 0x0f) * 2;
    else if (b >= 0x90 && b <= 0x9f) children = b & 0x0f;
    else if (b >= 0xa0 && b <= 0xbf) skip = b & 0x1f;
    else {
      switch (b) {
        case 0xc4:
        case 0xd9:
          if (at + 1 > buf.length) return 'malformed';
          skip = 1 + buf[at];
          break;
        case 0xc5:
        case 0xda:
          if (at + 2 > buf.length) return 'malformed';
          skip = 2 + u16(buf, at);
          break;
        case 0xc6:
        case 0xdb:
          if (at + 4 > buf.length) return 'malformed';
          skip = 4 + u32(buf, at);
          break;
        case 0xca:
          skip = 4;
          break;
        case 0xcb:
          skip = 8;
          break;
        case 0xcc:
        case 0xd0:
          skip = 1;
          break;
        case 0xcd:
        case 0xd1:
          skip = 2;
          break;
        case 0xce:
        case 0xd2:
          skip = 4;
          break;
        case 0xcf:
        case 0xd3:
          return 'int64';
        case 0xdc:
          if (at + 2 > buf.length) return 'malformed';
          children = u16(buf, at);
          at += 2;
          break;
        case 0xdd:
          if (at + 4 > buf.length) return 'malformed';
          children = u32(buf, at);
          at += 4;
          break;
        case 0xde:
          if (at + 2 > buf.length) return 'malformed';
          children = u16(buf, at) * 2;
          at += 2;
          break;
        case 0xdf:
          if (at + 4 > buf.length) return 'malformed';
          children = u32(buf, at) * 2;
          at += 4;
          break;
        case 0xc7:
        case 0xc8:
        case 0xc9:
        case 0xd4:
        case 0xd5:
        case 0xd6:
        case 0xd7:
        case 0xd8:
          return 'extension';
        default:
          return 'malformed'; // 0xc1: never used
      }
    }
    at += skip;
    if (at > buf.length) return 'malformed';
    if (children >= 0) {
      // Every item takes at least one byte: a count beyond the frame is a lie.
      if (children > buf.length - at) return 'malformed';
      if (depth > MAX_MSGPACK_DEPTH) return 'too_deep';
      remaining[depth++] = children;
    }
  }
  return at === buf.length ? null : 'malformed';
}
