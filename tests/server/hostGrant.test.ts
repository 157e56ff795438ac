/**
 * `hostHash` is a server-only create option: `POST /api/rooms` (and a rematch) make a hosted
 * room, while a client that calls the matchmaker itself with a `hostHash`, or with an object
 * shaped like the server's grant, is refused with `bad_options` and no room is made. A `hostHash`
 * in a `POST /api/rooms` body is replaced: only the returned token hosts.
 */
import { matchMaker } from '@colyseus/core';
import { hashSeatKey } from '../../server/src/match/seats.js';
import { join, leaveAll, quietSdkWarnings, sdk, serverForTests } from './helpers.js';
import { rawPost } from './httpHelpers.js';

quietSdkWarnings();
const server = serverForTests();

/** A token a forger would like to host with, and its SHA-256. */
const FORGED_TOKEN = 'f'.repeat(32);
const FORGED_HASH = hashSeatKey(FORGED_TOKEN);

test.each([
  ['a hash', FORGED_HASH],
  ['an object shaped like the grant', { hash: FORGED_HASH }],
  ['null', null],
])('a client passing hostHash (%s) to the matchmaker gets bad_options, and no room is made', async (_label, hostHash) => {
  const before = matchMaker.stats.local.roomCount;
  await expect(sdk(server()).create('djambi', { rules: { players: 2 }, hostHash, name: 'forger' })).rejects.toThrow(/^bad_options: "hostHash"/);
  await expect(sdk(server()).joinOrCreate('djambi', { rules: { players: 2 }, hostHash })).rejects.toThrow(/^bad_options: "hostHash"/);
  expect(matchMaker.stats.local.roomCount).toBe(before);
});

test('POST /api/rooms hosts the holder of its own token only, whatever hostHash its body names', async () => {
  const res = await rawPost(server(), '/api/rooms', { rules: { players: 2 }, hostHash: FORGED_HASH });
  expect(res.status).toBe(201);
  const { code, hostToken } = res.json as { code: string; hostToken: string };
  const forger = await join(server(), code, { name: 'forger', hostToken: FORGED_TOKEN });
  expect(forger.state.host).toBe('');
  const host = await join(server(), code, { name: 'host', hostToken });
  await forger.waitState((s) => s.host === host.seat!.colour, 'the token holder hosts');
  expect((await forger.sendExpectRejected('start')).code).toBe('not_host');
  await leaveAll([forger, host]);
});
