/**
 * The seat link notice's rule, without a browser: due once per seat key of a room (a new key, as
 * after a removal and a new seat, brings it back; another room has its own), never without
 * storage or when storage throws; the seat link carries the key in the fragment only.
 */
import { type NoticeStorage, seatLinkUrl, takeNotice } from '../../client/src/ui/seatLinkView.js';

function memoryStorage(): NoticeStorage & { readonly map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
  };
}

describe('seat link notice', () => {
  test('due once per seat key of a room', () => {
    const s = memoryStorage();
    expect(takeNotice(s, 'ABCDEF', 'key-one-123')).toBe(true);
    expect(takeNotice(s, 'ABCDEF', 'key-one-123')).toBe(false);
    expect(takeNotice(s, 'ABCDEF', 'key-one-123')).toBe(false);
    // Another room: its own notice.
    expect(takeNotice(s, 'GHJKLM', 'key-one-123')).toBe(true);
    // A new seat key in the first room (removed, then seated again): due again, once.
    expect(takeNotice(s, 'ABCDEF', 'key-two-456')).toBe(true);
    expect(takeNotice(s, 'ABCDEF', 'key-two-456')).toBe(false);
    expect(s.map.size).toBe(2);
  });

  test('never due without storage, nor when storage throws', () => {
    expect(takeNotice(null, 'ABCDEF', 'key-one-123')).toBe(false);
    const broken: NoticeStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(takeNotice(broken, 'ABCDEF', 'key-one-123')).toBe(false);
    const full: NoticeStorage = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(takeNotice(full, 'ABCDEF', 'key-one-123')).toBe(false);
  });

  test('the seat link keeps the key in the fragment, the form consumeSeatLink reads', () => {
    const url = seatLinkUrl('https://djambi.example', 'ABCDEF', { colour: 'G', seatKey: 'abc_DEF-123' });
    expect(url).toBe('https://djambi.example/g/ABCDEF#seat=G.abc_DEF-123');
    const u = new URL(url);
    expect(u.pathname).toBe('/g/ABCDEF');
    expect(u.search).toBe('');
    expect(u.hash).toMatch(/^#seat=([RBYG])\.([A-Za-z0-9_-]{8,64})$/);
  });
});
