/**
 * One server process per SQLite file, on real processes: a second server on the same data
 * directory refuses to start and names the owner; once the owner is killed (`kill -9`), the next
 * server takes the file over, with every game the killed one had accepted.
 */
import { freePort } from '../support/ports.js';
import { ServerProcess, tempDataDir } from './processes.js';

jest.setTimeout(60_000);

test('a second server on the same SQLite file refuses to start; after a kill -9 of the owner the next one starts', async () => {
  const dataDir = tempDataDir();
  const owner = new ServerProcess(await freePort(), { DATA_DIR: dataDir });
  const second = new ServerProcess(await freePort(), { DATA_DIR: dataDir });
  try {
    await owner.start();
    const created = await fetch(`${owner.url}/api/rooms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ visibility: 'private' }),
    });
    expect(created.status).toBe(201);
    const { code } = (await created.json()) as { code: string };

    const refused = await second.start().then(
      () => 'started',
      (e: Error) => e.message,
    );
    expect(refused).toMatch(/server exited with 1 before listening/);
    expect(refused).toMatch(/djambi\.sqlite is in use by process \d+: one server process per SQLite file/);

    expect((await owner.kill('SIGKILL')).signal).toBe('SIGKILL');
    await second.start();
    const game = await fetch(`${second.url}/api/rooms/${code}`);
    expect(game.status).toBe(200);
  } finally {
    await owner.stop();
    await second.stop();
  }
});
