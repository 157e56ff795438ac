/**
 * Complete games through the server: 4, 3 and 2 players play seeded random legal turns; every
 * player and a spectator hold identical state after every turn; a spectator joining mid-game
 * gets the same position and move list; the move list replays to the same position.
 */
import { makeFen, replayRecord, ruler } from '@djambi/shared';
import {
  fenOf,
  fullRoom,
  recordOf,
  join,
  leaveAll,
  playRandomGame,
  quietSdkWarnings,
  roomOf,
  snapshot,
  serverForTests,
  type TestClient,
  checkRestores,
} from './helpers.js';

quietSdkWarnings();
const server = serverForTests();

describe.each([
  [4, 1001, 8],
  [3, 2002, 8],
  [2, 3003, 20],
])('%i-player room', (players, seed, noProgress) => {
  test('plays a complete random game; all clients and a spectator stay identical', async () => {
    const room = await fullRoom(server(), { rules: { players, no_progress_rounds: noProgress } }, 1);
    expect(room.players.map((p) => p.seat!.colour)).toEqual(['R', 'B', 'Y', 'G'].slice(0, players === 2 ? 0 : players).concat(players === 2 ? ['R', 'Y'] : []));
    room.players[0].room.send('start');
    await Promise.all(room.all.map((c) => c.waitState((s) => s.phase === 'playing' && s.toMove === 'R', 'start')));

    const watchers: TestClient[] = [...room.all];
    let late: TestClient | null = null;
    const events = await playRandomGame(room.players, watchers, seed, {
      maxTurns: 120,
      afterEvent: async (n) => {
        if (n === 6 && !late) {
          // A spectator joining mid-game gets the same position and move list at once.
          late = await join(server(), room.code, { spectate: true });
          await late.waitState((s) => s.version === n, 'late spectator state');
          expect(snapshot(late.state)).toMatchObject({ version: n });
          expect(fenOf(late.state)).toBe(fenOf(watchers[0].state));
          expect(late.state.moves.toArray()).toEqual(watchers[0].state.moves.toArray());
          watchers.push(late);
          await Promise.all(watchers.map((c) => c.waitState((s) => s.spectators === 2, 'spectator count')));
        }
      },
    });
    expect(events).toBeGreaterThan(6);
    console.log(`${players}p: ${events} events, result ${JSON.stringify(watchers[0].state.result.toJSON())}, moves ${watchers[0].state.moves.length}`);
    const final = watchers[0].state;
    expect(final.phase).toBe('over');
    expect(['win', 'draw']).toContain(final.result.kind);
    expect(final.toMove).toBe('');
    expect(late).not.toBeNull();

    // The synced move list is the game: replaying it gives the server's position, and the
    // position fields of the state summarise it.
    const replay = replayRecord(recordOf(final));
    expect(replay.ok).toBe(true);
    if (replay.ok) {
      expect(makeFen(replay.value)).toBe(makeFen(roomOf(room.code).match.position));
      expect({ ply: final.ply, quiet: final.quiet, ruler: final.ruler }).toEqual({
        ply: replay.value.ply,
        quiet: replay.value.quiet,
        ruler: ruler(replay.value) ?? '',
      });
    }

    // Everyone has every event, in order, in the synced move list (the one source of the game).
    for (const c of room.all) expect([...c.state.moves]).toEqual([...final.moves]);
    await leaveAll(watchers);
  });
});

// Last: the storage seam, on every seeded game above (their rooms are still live).
test('every match this file played restores from its events to the same match', async () => {
  const { compared, mismatches } = await checkRestores();
  expect(compared).toBeGreaterThan(0);
  expect(mismatches).toEqual([]);
});
