/**
 * The deployment files, checked without a Docker engine (none runs on these machines):
 * `docker-compose config` (Debian's docker-compose 1.29) accepts docker-compose.yml, with the
 * services, the volume, and per-replica settings the deployment needs; the Dockerfile has the
 * stages, the non-root user and the health check; .dockerignore keeps local state out.
 * Without the binary the compose checks skip with a message, except under CI=true.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { replicaNames, requireBinary } from '../support/nginx.js';

const ROOT = path.resolve(__dirname, '../..');
const COMPOSE_BIN = process.env.DOCKER_COMPOSE_BIN ?? '/usr/bin/docker-compose';
const available = requireBinary(COMPOSE_BIN, 'docker-compose config', 'tests/deploy/compose.test.ts');
const maybe = available ? describe : describe.skip;

/** `docker-compose -f docker-compose.yml config …` in the repository root. */
function compose(args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      COMPOSE_BIN,
      ['-f', 'docker-compose.yml', 'config', ...args],
      // No inherited deployment settings: the defaults in the file are what is checked.
      { cwd: ROOT, timeout: 30_000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env } },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) || 1 : 0, stdout, stderr }),
    );
  });
}

maybe('docker-compose config', () => {
  test('accepts docker-compose.yml: redis, postgres, two replicas, nginx; a volume for PostgreSQL', async () => {
    const r = await compose(['--services']);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout.trim().split('\n').sort()).toEqual(['game1', 'game2', 'nginx', 'postgres', 'redis']);
    expect((await compose(['--volumes'])).stdout.trim()).toBe('pgdata');
  });

  test('each replica has its own PUBLIC_ADDRESS and the shared Redis and PostgreSQL; nginx mounts deploy/nginx.conf', async () => {
    const r = await compose([], { PUBLIC_HOST: 'djambi.example', MONITOR_PASSWORD: 'pw' });
    expect(r.code).toBe(0);
    const out = r.stdout;
    for (const name of replicaNames()) {
      expect(out).toContain(`PUBLIC_ADDRESS: djambi.example/${name}`);
      expect(out).toContain(`NODE_NAME: ${name}`);
    }
    expect(out.match(/REDIS_URL: redis:\/\/redis:6379/g)).toHaveLength(2);
    expect(out.match(/DATABASE_URL: postgres:\/\/djambi:djambi@postgres:5432\/djambi/g)).toHaveLength(2);
    expect(out.match(/TRUST_PROXY: 172\.28\.5\.10/g)).toHaveLength(2);
    expect(out.match(/MONITOR_PASSWORD: pw/g)).toHaveLength(2);
    expect(out).toContain('PUBLIC_URL: http://djambi.example');
    expect(out).toMatch(/deploy\/nginx\.conf:\/etc\/nginx\/nginx\.conf:ro/);
    expect(out).toMatch(/pgdata:\/var\/lib\/postgresql\/data/);
    // nginx's fixed address is the one the replicas trust.
    expect(out).toMatch(/nginx:[\s\S]*ipv4_address: 172\.28\.5\.10/);
  });
});

test('the Dockerfile: multi-stage, npm ci, build, prune, production, non-root, health check on /healthz', () => {
  const file = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  const lines = file.split('\n').filter((l) => !l.startsWith('#'));
  const text = lines.join('\n');
  expect(text.match(/^FROM /gm)).toHaveLength(2);
  expect(text).toMatch(/RUN npm ci\b/);
  expect(text).toMatch(/npm run build && npm prune --omit=dev/);
  expect(text).toMatch(/NODE_ENV=production/);
  expect(text).toMatch(/^USER node$/m);
  expect(text).toMatch(/HEALTHCHECK[\s\S]*\/healthz/);
  // The entry point, with production's Node flags before it (checked in tests/server/heap.test.ts).
  expect(text).toMatch(/CMD \["node", (?:"--[^"]+", )*"server\/dist\/index\.js"\]/);
  // Every workspace the build needs is copied into the build stage.
  for (const ws of ['shared', 'server', 'client']) expect(text).toContain(`COPY ${ws}/package.json ${ws}/`);
  const ignore = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8');
  for (const entry of ['**/node_modules', '**/dist', 'data', '.env', '.git']) expect(ignore.split('\n')).toContain(entry);
});
