/**
 * deploy/nginx.conf rendered for many WebSockets on loopback (bench:cluster): several workers
 * sharing the port (`reuseport`), each with the file limit and connections this machine allows,
 * and the number of WebSockets that makes. Skips the `nginx -t` check locally without nginx.
 */
import { readFileSync, rmSync } from 'node:fs';
import { checkConf, hardFileLimit, NGINX_BIN, NGINX_CONF, nginxDir, renderLoopbackConf, requireBinary, webSocketCapacity } from '../support/nginx.js';

const routing = { listenPort: 18080, replicas: { game1: 12567, game2: 12568 }, dir: '/tmp/x' };
const conf = readFileSync(NGINX_CONF, 'utf8');
const num = (text: string, pattern: RegExp) => Number(pattern.exec(text)?.[1]);

test('one worker by default, listening as the file says', () => {
  const out = renderLoopbackConf(routing, conf);
  expect(out).toMatch(/^worker_processes 1;$/m);
  expect(out).toContain('listen 127.0.0.1:18080;');
});

test('several workers share the port; their file limit and connections fit the hard limit', () => {
  const out = renderLoopbackConf({ ...routing, workers: 2 }, conf);
  expect(out).toMatch(/^worker_processes 2;$/m);
  expect(out).toContain('listen 127.0.0.1:18080 reuseport;');
  const files = num(out, /^worker_rlimit_nofile (\d+);/m);
  const connections = num(out, /\bworker_connections (\d+);/);
  expect(files).toBe(Math.min(num(conf, /^worker_rlimit_nofile (\d+);/m), hardFileLimit()));
  expect(connections).toBeLessThan(files);
  expect(connections).toBeLessThanOrEqual(num(conf, /\bworker_connections (\d+);/));
  // Two connections per WebSocket, per worker.
  expect(webSocketCapacity(out)).toBe(2 * Math.floor(connections / 2));
});

test('the capacity of the file as deployed: 16,384 WebSockets per worker', () => {
  const deployed = conf.replace(/^worker_processes auto;/m, 'worker_processes 1;');
  expect(webSocketCapacity(deployed)).toBe(16_384);
});

(requireBinary(NGINX_BIN, 'nginx', 'nginxCapacity.test.ts') ? test : test.skip)('nginx -t accepts the rendering with several workers', async () => {
  const dir = nginxDir();
  try {
    const r = await checkConf(renderLoopbackConf({ ...routing, dir, workers: 2 }), dir);
    expect({ ok: r.ok, output: r.output }).toEqual({ ok: true, output: '' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
