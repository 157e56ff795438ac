/**
 * Coming back after a drop, without a browser: a restart (4100) or a fenced game (4102) is not
 * the end; the reconnection token is tried first, and when a restarted server refuses it the
 * connection joins by code with the seat key (spectators: as spectators).
 */
import { CLOSE_CODES } from '@djambi/shared';
import { backoffDelay, closeAction, rejoin, type RejoinIo, VISIBLE_BACKOFF_CAP_MS } from '../../client/src/net/rejoin.js';

function io(opts: { reconnect: boolean; join?: boolean }) {
  const calls: string[] = [];
  const joins: Record<string, unknown>[] = [];
  const fake: RejoinIo<string> = {
    reconnect: async (token) => {
      calls.push(`reconnect:${token}`);
      if (!opts.reconnect) throw new Error('reconnection token invalid or expired');
      return 'room-by-token';
    },
    joinById: async (options) => {
      calls.push('joinById');
      joins.push(options);
      if (opts.join === false) throw new Error('network');
      return 'room-by-code';
    },
  };
  return { fake, calls, joins };
}

const SEAT = { colour: 'B' as const, seatKey: 'k-123' };

describe('close codes', () => {
  test.each([
    [CLOSE_CODES.serverRestart, true, 'restart'],
    [CLOSE_CODES.fenced, true, 'restart'],
    [CLOSE_CODES.roomFault, true, 'restart'],
    [CLOSE_CODES.roomFault, false, 'restart'],
    [CLOSE_CODES.serverRestart, false, 'restart'],
    [4000, true, 'final'],
    [4000, false, 'moved'],
    [1000, true, 'final'],
    [1006, true, 'retry'],
    [4002, true, 'retry'],
  ])('close %i (seat held: %s) → %s', (code, held, action) => {
    expect(closeAction(code, held)).toBe(action);
  });
  test('the restart codes are 4100, 4101 and 4102', () => {
    expect([CLOSE_CODES.serverRestart, CLOSE_CODES.roomFault, CLOSE_CODES.fenced]).toEqual([4100, 4101, 4102]);
  });
});

describe('the way back in', () => {
  test('a good token reconnects, and nothing else is tried', async () => {
    const { fake, calls } = io({ reconnect: true });
    await expect(rejoin(fake, 'tok', SEAT)).resolves.toEqual({ room: 'room-by-token', path: 'reconnect' });
    expect(calls).toEqual(['reconnect:tok']);
  });

  test('the reconnection fails (a restarted server) → joinById with the seat key', async () => {
    const { fake, calls, joins } = io({ reconnect: false });
    await expect(rejoin(fake, 'tok', SEAT)).resolves.toEqual({ room: 'room-by-code', path: 'seat' });
    expect(calls).toEqual(['reconnect:tok', 'joinById']);
    expect(joins).toEqual([{ seatKey: 'k-123' }]);
  });

  test('a spectator falls back to joining as a spectator', async () => {
    const { fake, joins } = io({ reconnect: false });
    await expect(rejoin(fake, 'tok', null)).resolves.toEqual({ room: 'room-by-code', path: 'spectate' });
    expect(joins).toEqual([{ spectate: true }]);
  });

  test('without a token the seat key is used at once', async () => {
    const { fake, calls } = io({ reconnect: true });
    await expect(rejoin(fake, null, SEAT)).resolves.toMatchObject({ path: 'seat' });
    expect(calls).toEqual(['joinById']);
  });

  test('a failed join is the caller’s to back off from', async () => {
    const { fake, calls } = io({ reconnect: false, join: false });
    await expect(rejoin(fake, 'tok', SEAT)).rejects.toThrow('network');
    expect(calls).toEqual(['reconnect:tok', 'joinById']);
  });
});

describe('after a restart (issue 40, bug 7)', () => {
  test('a spectator comes back with the name it joined with', async () => {
    const { fake, joins } = io({ reconnect: false });
    const res = await rejoin(fake, 'tok', null, 'Ana');
    expect(res.path).toBe('spectate');
    expect(joins).toEqual([{ spectate: true, name: 'Ana' }]);
  });

  test('a spectator without a name comes back without one', async () => {
    const { fake, joins } = io({ reconnect: false });
    await rejoin(fake, null, null);
    expect(joins).toEqual([{ spectate: true }]);
  });

  test('the backoff stays within a few seconds while the page is visible, and grows while hidden', () => {
    const visible = Array.from({ length: 12 }, (_, i) => backoffDelay(i, true));
    expect(Math.max(...visible)).toBeLessThanOrEqual(VISIBLE_BACKOFF_CAP_MS);
    expect(VISIBLE_BACKOFF_CAP_MS).toBeLessThanOrEqual(5000);
    expect(visible[0]).toBe(500);
    expect(backoffDelay(11, false)).toBe(30000);
  });
});
