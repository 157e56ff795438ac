/** The one copy of the press's write permission, used by the server and the client's message box. */
import { mayWrite } from '@djambi/shared';

const player = { seat: true, readsSpectators: false, active: true };
const eliminated = { seat: true, readsSpectators: true, active: false };
const spectator = { seat: false, readsSpectators: true, active: false };

test.each([
  ['table', player, 'playing', 'ok'],
  ['table', spectator, 'playing', 'not_allowed'],
  ['table', eliminated, 'over', 'ok'],
  ['spectators', spectator, 'playing', 'ok'],
  ['spectators', player, 'playing', 'not_allowed'],
  ['spectators', eliminated, 'playing', 'ok'],
  ['private', player, 'waiting', 'game_not_started'],
  ['private', player, 'playing', 'ok'],
  ['group', eliminated, 'playing', 'not_active'],
  ['group', player, 'over', 'game_over'],
] as const)('%s, %o, %s → %s', (kind, writer, phase, verdict) => {
  expect(mayWrite(kind, writer, phase)).toBe(verdict);
});
