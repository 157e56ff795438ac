/**
 * deploy/nginx.conf with one replica dead and the other too busy to accept for a while (a
 * takeover: a thousand players reconnecting at once to the survivor). Past its accept queue the
 * kernel drops SYNs, and nginx's connect is answered only by a retransmit (after 1 s, then 3 s).
 * A connect timeout counts as a failure like a refusal (`max_fails=1`): with 2 s the last live
 * replica was marked down and every request got "no live upstreams" (502) for 5 s. Here the
 * stand-in replica listens with a backlog of 1 and blocks its event loop for 2.5 s while 8
 * matchmaking requests arrive: every one must be answered by it, none with a 502.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { NGINX_BIN, type RunningNginx, startNginx } from '../support/nginx.js';
import { freePort } from '../support/ports.js';

const AVAILABLE = existsSync(NGINX_BIN);
if (!AVAILABLE && process.env.CI === 'true') throw new Error(`nginx is required under CI (${NGINX_BIN})`);

jest.setTimeout(60_000);

/** Requests sent while the survivor stalls. */
const N = 8;

/** A replica stand-in: answers every request with 200 after reading it; `block MS` on stdin blocks its event loop. */
const REPLICA = `
const http = require('node:http');
const port = Number(process.argv[1]);
const server = http.createServer((req, res) => { req.resume(); req.on('end', () => res.end(JSON.stringify({ ok: true, url: req.url }))); });
server.listen({ port, host: '127.0.0.1', backlog: 1 }, () => process.stdout.write('ready\\n'));
process.stdin.on('data', (d) => {
  const ms = Number(String(d).trim().split(' ')[1]);
  process.stdout.write('blocking\\n');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
});
`;

async function line(child: ChildProcess, text: string): Promise<void> {
  let seen = '';
  while (!seen.includes(text)) seen += String((await once(child.stdout!, 'data'))[0]);
}

(AVAILABLE ? describe : describe.skip)('nginx in front of a survivor too busy to accept', () => {
  let nginx: RunningNginx | undefined;
  let replica: ChildProcess | undefined;
  afterEach(async () => {
    await nginx?.stop();
    replica?.kill('SIGKILL');
  });

  test('the busy survivor is not marked down: 8 matchmaking requests during a 2.5 s stall all reach it (no 502)', async () => {
    const livePort = await freePort();
    const deadPort = await freePort(); // nothing listens: refused, like a process killed with -9
    replica = spawn(process.execPath, ['-e', REPLICA, String(livePort)], { stdio: ['pipe', 'pipe', 'inherit'] });
    await line(replica, 'ready');
    nginx = await startNginx({ game1: deadPort, game2: livePort });
    replica.stdin!.write('block 2500\n');
    await line(replica, 'blocking');
    const t0 = performance.now();
    const answers = await Promise.all(
      Array.from({ length: N }, async (_, i) => {
        const res = await fetch(`${nginx!.url}/matchmake/joinById/ROOM${i}`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
        return { status: res.status, body: await res.text() };
      }),
    );
    const ms = performance.now() - t0;
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: N }, () => 200));
    for (const a of answers) expect(JSON.parse(a.body)).toMatchObject({ ok: true });
    expect(nginx.errorLog()).not.toMatch(/no live upstreams/);
    console.log(`${N} requests answered by the stalled survivor in ${Math.round(ms)} ms`);
  });
});
