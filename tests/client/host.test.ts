/**
 * The client's part of the host, without a browser: the snapshot reads `host` and
 * `spectatorNames` (and tolerates a server that sends neither), the lobby names the host, the
 * host token is kept beside the seat key, and a refused join reads as a sentence chosen by its
 * code, never the server's developer text.
 */
import { readSnapshot } from '../../client/src/game/snapshot.js';
import { hostName } from '../../client/src/ui/lobbyView.js';
import { joinFailureText } from '../../client/src/ui/joinFlow.js';

const seat = (colour: string, name: string, taken = true) => ({ colour, name, taken, presence: taken ? 'connected' : 'empty' });

test('the snapshot reads the host and the spectators, and tolerates an older server', () => {
  const snap = readSnapshot({ phase: 'waiting', seats: { R: seat('R', 'Ann'), Y: seat('Y', 'Bo') }, host: 'Y', spectatorNames: ['Spectator 1', 'Zoé'] });
  expect(snap.host).toBe('Y');
  expect(snap.spectatorNames).toEqual(['Spectator 1', 'Zoé']);
  expect(hostName(snap)).toBe('Bo');
  const old = readSnapshot({ phase: 'waiting', seats: { R: seat('R', 'Ann') } });
  expect(old.host).toBe('');
  expect(old.spectatorNames).toEqual([]);
  expect(hostName(old)).toBeNull();
  expect(hostName(readSnapshot({ seats: { R: seat('R', '', false) }, host: 'R' }))).toBeNull();
  expect(readSnapshot({ host: 'X', spectatorNames: [3, 'a'] })).toMatchObject({ host: '', spectatorNames: ['', 'a'] });
});

test('join refusals read as sentences by code', () => {
  expect(joinFailureText('no_free_seat')).toBe('This game is full: watch it, or create your own.');
  expect(joinFailureText('game_started')).toBe('This game has already started: watch it, or create your own.');
  expect(joinFailureText('not_found')).toMatch(/no game with this code/);
  for (const code of ['internal_error', 'bad_options', undefined]) expect(joinFailureText(code)).toBe('You could not join this game.');
});

test('the host token is kept beside the seat key, per game', async () => {
  const store = new Map<string, string>();
  (globalThis as { localStorage?: unknown }).localStorage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
    key: (i: number) => [...store.keys()][i] ?? null,
    get length() {
      return store.size;
    },
  };
  try {
    const { forgetHostToken, loadHostToken, saveHostToken, saveSeat, seatCodes } = await import('../../client/src/net/seatStore.js');
    saveHostToken('K7QMZ3', 'a'.repeat(32));
    saveSeat('K7QMZ3', { colour: 'R', seatKey: 'b'.repeat(32) });
    expect(loadHostToken('K7QMZ3')).toBe('a'.repeat(32));
    expect(loadHostToken('OTHER1')).toBeNull();
    expect(seatCodes()).toEqual(['K7QMZ3']);
    store.set('djambi:host:BAD000', '<script>');
    expect(loadHostToken('BAD000')).toBeNull();
    forgetHostToken('K7QMZ3');
    expect(loadHostToken('K7QMZ3')).toBeNull();
  } finally {
    delete (globalThis as { localStorage?: unknown }).localStorage;
  }
});
