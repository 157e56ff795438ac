/**
 * Issue 43, item 2: rooms nobody joined must not lock a server out after a restart. A real
 * server process (SQLite in a temporary directory, `MAX_ROOMS` small) holds one game people play
 * and many rooms made by `POST /api/rooms` that nobody joined; it is killed with -9 and started
 * again. The boot re-opens only the game people sat at (newest activity first, up to a working
 * set), deletes from the log the rooms nobody joined, a create is answered 201 at once, the
 * players take their seats back, and a re-opened room nobody comes back to closes on the
 * unjoined timer (its game stays in the log). A room nobody joined that expires while the process
 * lives leaves nothing in the log either.
 */
import { sdkAt } from './durability.js';
import { quietSdkWarnings, type State, TestClient } from './helpers.js';
import { ServerProcess, tempDataDir } from './processes.js';
import { eventually } from '../support/wait.js';
import { freePort } from '../support/ports.js';

jest.setTimeout(90_000);
beforeAll(() => quietSdkWarnings());

const post = (port: number, body: unknown) =>
  fetch(`http://127.0.0.1:${port}/api/rooms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const lookup = async (port: number, code: string) => (await fetch(`http://127.0.0.1:${port}/api/rooms/${code}`)).status;
const liveRooms = async (port: number) => ((await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as { rooms: number }).rooms;

test('after kill -9, rooms nobody joined are neither re-opened nor kept; the played game comes back and creates are answered', async () => {
  const dataDir = tempDataDir();
  const port = await freePort();
  const first = new ServerProcess(port, { DATA_DIR: dataDir, MAX_ROOMS: '12', UNJOINED_SECONDS: '600' });
  await first.start();
  let code = '';
  let seatKey = '';
  const junk: string[] = [];
  try {
    const sdk = sdkAt(port);
    const creator = new TestClient(await sdk.create<State>('djambi', { rules: { players: 2 }, bots: { Y: 'easy' }, autostart: true, name: 'solo' }), sdk);
    await creator.waitMessage('seat');
    await creator.waitState((s) => s.phase === 'playing', 'started');
    code = creator.state.code as string;
    seatKey = creator.seat!.seatKey as string;
    // Every other room this process may hold: made, never joined.
    for (;;) {
      const res = await post(port, { rules: { players: 2 } });
      if (res.status !== 201) break;
      junk.push(((await res.json()) as { code: string }).code);
    }
    expect(junk.length).toBeGreaterThanOrEqual(5);
    await first.kill('SIGKILL');
  } catch (e) {
    await first.kill('SIGKILL').catch(() => undefined);
    throw e;
  }

  // Started again: a room nobody joined counts as what a crash left behind after 1 s.
  await new Promise((r) => setTimeout(r, 1100));
  const second = new ServerProcess(port, { DATA_DIR: dataDir, MAX_ROOMS: '12', UNJOINED_SECONDS: '1', IDLE_SECONDS: '1' });
  await second.start();
  try {
    expect(await liveRooms(port)).toBe(1); // the played game only
    for (const j of junk.slice(0, 3)) expect(await lookup(port, j)).toBe(404);
    // The re-opened game nobody came back to closes on the unjoined timer; it stays in the log.
    await eventually(
      () => liveRooms(port),
      (n) => n === 0,
      'the re-opened game closed, nobody back',
      { intervalMs: 100 },
    );
    const created = await post(port, { rules: { players: 2 } });
    expect(created.status).toBe(201);
    const sdk = sdkAt(port);
    const back = new TestClient(await sdk.joinById<State>(code, { seatKey }), sdk);
    await back.waitMessage('seat');
    await back.waitState((s) => s.code === code && s.phase === 'playing', 'back in the game');
    await back.room.leave(true);
  } finally {
    await second.kill('SIGKILL');
  }
});

test('a room nobody joined that expires leaves nothing in the log', async () => {
  const dataDir = tempDataDir();
  const port = await freePort();
  const server = new ServerProcess(port, { DATA_DIR: dataDir, UNJOINED_SECONDS: '1', IDLE_SECONDS: '1' });
  await server.start();
  try {
    const res = await post(port, { rules: { players: 2 } });
    expect(res.status).toBe(201);
    const { code } = (await res.json()) as { code: string };
    const kept = await post(port, { rules: { players: 2 } });
    const keptCode = ((await kept.json()) as { code: string }).code;
    const sdk = sdkAt(port);
    const player = new TestClient(await sdk.joinById<State>(keptCode, { name: 'sits' }), sdk);
    await player.waitMessage('seat');
    await player.room.leave(true);
    await eventually(
      () => liveRooms(port),
      (n) => n === 0,
      'both rooms expired',
      { intervalMs: 200 },
    );
    // A lookup re-opens a game from the log: the one nobody joined is gone, the other comes back.
    expect(await lookup(port, code)).toBe(404);
    expect(await lookup(port, keptCode)).toBe(200);
  } finally {
    await server.kill('SIGKILL');
  }
});
