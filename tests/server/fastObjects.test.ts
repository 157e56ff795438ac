/**
 * The objects a turn reads most stay in V8's fast mode (rooms/internals.ts `keepClientsFast`,
 * rooms/patcher.ts): a client that joined, the room's patcher and its frame gate. A Colyseus 0.16
 * room object itself is in dictionary mode (its `__init` redefines four properties as accessors),
 * which is why the patcher and the gate exist; if an upgrade of Colyseus changes that, this test
 * says so, and rooms/internals.ts is to be checked again.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

test('a joined client, the patcher and the frame gate are fast objects; the client reads as joined', () => {
  const script = `
    (async () => {
      const { matchMaker } = await import('@colyseus/core');
      const { Client } = await import('colyseus.js');
      const { createServer } = await import('./server/src/app.ts');
      const fast = (o) => %HasFastProperties(o);
      const server = await createServer({ port: 0, host: '127.0.0.1', clientDir: '/nonexistent', graceSeconds: 5, restoreOnBoot: false });
      const sdk = new Client('ws://127.0.0.1:' + server.port);
      const until = async (check, label) => {
        for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
        if (!check()) throw new Error('timed out waiting for ' + label);
      };
      const joined = await sdk.create('djambi', { rules: { players: 4 }, colour: 'R', name: 'a' });
      joined.onMessage('*', () => undefined);
      const room = matchMaker.getLocalRoomById(joined.roomId);
      const client = room.clients[0];
      await until(() => client.state === 1, 'the join'); // ClientState.JOINED: Colyseus has dropped its queue
      // A message through the frame gate (which gives the client its budget) to the match and back as a patch.
      joined.send('name', { name: 'b' });
      await until(() => joined.state.seats.get('R')?.name === 'b', 'the renamed seat');
      console.log(JSON.stringify({
        room: fast(room),
        client: fast(client),
        queue: client._enqueuedMessages === undefined && !Object.hasOwn(client, '_enqueuedMessages'),
        patcher: fast(room.patcher),
        frames: fast(room.frames),
      }));
      await joined.leave();
      await server.close();
      process.exit(0);
    })();`;
  const run = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    // Legacy decorators for the state's schema classes (as bench:server's sources run).
    env: { ...process.env, TSX_TSCONFIG_PATH: path.join(ROOT, 'tests/bench/server-tsconfig.json') },
  });
  const last = run.stdout.trim().split('\n').at(-1) ?? '';
  if (!last.startsWith('{')) throw new Error(`the child printed no result:\n${run.stdout}\n${run.stderr}`);
  expect(JSON.parse(last)).toEqual({ room: false, client: true, queue: true, patcher: true, frames: true });
});
