/**
 * A throw that escapes every room (a bug elsewhere in the process), in a real server process. A
 * preload (`--import`) throws from a timer when the process gets SIGUSR2, and rejects a promise
 * nobody handles when it gets SIGHUP. An unhandled rejection is logged and the process goes on.
 * An uncaught exception is logged, then the process tells its clients `server_restart`, closes
 * them with 4100 and exits 1; started again on the same SQLite file it has every accepted turn,
 * and the players reclaim their seats and play on.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLOSE_CODES } from '@djambi/shared';
import { playTurns, rejoin, seatedTable } from './durability.js';
import { fenOf, leaveAll, quietSdkWarnings, seeded } from './helpers.js';
import { ServerProcess, tempDataDir } from './processes.js';
import { freePort } from '../support/ports.js';
import { eventually } from '../support/wait.js';

jest.setTimeout(60_000);
beforeAll(() => quietSdkWarnings());

/** A preload: SIGUSR2 throws from a timer (an uncaught exception), SIGHUP rejects a promise nobody handles. */
function preload(dir: string): string {
  const file = path.join(dir, 'inject-fault.mjs');
  writeFileSync(
    file,
    [
      "process.on('SIGUSR2', () => setTimeout(() => { throw new Error('injected: process fault'); }, 0));",
      "process.on('SIGHUP', () => { Promise.reject(new Error('injected: unhandled rejection')); });",
    ].join('\n'),
  );
  return file;
}

test('an uncaught exception outside the rooms: clients told server_restart and closed with 4100, exit 1, nothing lost after the restart', async () => {
  const dir = tempDataDir();
  const port = await freePort();
  const env = { DATABASE_URL: `sqlite:${path.join(dir, 'djambi.sqlite')}`, NODE_OPTIONS: `--import=${preload(dir)}` };
  const server = new ServerProcess(port, env);
  try {
    await server.start();
    const table = await seatedTable(port, { rules: { players: 4 } });
    await playTurns(table.players, table.players, seeded(21), 3);

    // A rejected promise nobody handles: logged, and the process goes on.
    const before = server.output.length;
    server.signal('SIGHUP');
    await eventually(
      () => server.output.slice(before),
      (out) => out.includes('injected: unhandled rejection'),
      'the unhandled rejection logged',
    );
    expect(server.output.slice(before)).toMatch(/unhandled promise rejection[\s\S]*injected: unhandled rejection/);
    await playTurns(table.players, table.players, seeded(22), 1);
    const version = table.players[0].state.version as number;
    const fen = fenOf(table.players[0].state);

    const exited = server.exited();
    server.signal('SIGUSR2');
    await Promise.all(table.players.map((p) => p.waitLeft(15_000)));
    for (const p of table.players) {
      expect(p.left).toBe(CLOSE_CODES.serverRestart);
      expect(p.received('server_restart')).toHaveLength(1);
    }
    expect((await exited).code).toBe(1);
    expect(server.output).toMatch(/uncaught exception; stopping[\s\S]*injected: process fault/);

    await server.start();
    const back = await rejoin(port, table.code, table.keys);
    expect(back[0].state.version).toBe(version);
    expect(fenOf(back[0].state)).toBe(fen);
    await playTurns(back, back, seeded(23), 2);
    await leaveAll(back);
  } finally {
    await server.stop();
  }
});
