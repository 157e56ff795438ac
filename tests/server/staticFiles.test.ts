/**
 * The client's files on a real server (server/src/http/static.ts): the precompressed variants by
 * Accept-Encoding (br, then gzip, else identity) with their own length and ETag, the year-long
 * immutable cache of hashed assets, revalidation of the page and the SPA routes, 304, HEAD and
 * ranges; and the build's variants in client/dist decompress to their files.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { RunningServer } from '../../server/src/app.js';
import { acceptedCodings } from '../../server/src/http/static.js';
import { CLIENT_DIST } from '../e2e/helpers.js';
import { quietSdkWarnings, startServer } from './helpers.js';

quietSdkWarnings();

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** A page and a script big enough to be worth compressing, both with variants; one without. */
const INDEX = `<!doctype html><title>djambi test client</title><div id="app"></div>${'<!-- padding -->'.repeat(100)}`;
const APP = Buffer.from(Array.from({ length: 400 }, (_, i) => `export const value${i} = () => ${i} * 2;\n`).join(''));
const ASSET = '/assets/app-Ab_d-12Z.js';
const PLAIN = 'console.log("no variants")';

let clientDir: string;
let server: RunningServer;

async function withVariants(file: string, data: Buffer): Promise<void> {
  await writeFile(file, data);
  await writeFile(`${file}.br`, brotliCompressSync(data));
  await writeFile(`${file}.gz`, gzipSync(data));
}

beforeAll(async () => {
  clientDir = await mkdtemp(path.join(tmpdir(), 'djambi-static-'));
  await mkdir(path.join(clientDir, 'assets'));
  await withVariants(path.join(clientDir, 'index.html'), Buffer.from(INDEX));
  await withVariants(path.join(clientDir, ASSET), APP);
  await writeFile(path.join(clientDir, 'assets', 'plain-Xy12_3zQ.js'), PLAIN);
  await withVariants(path.join(clientDir, 'robots.txt'), APP);
  server = await startServer({ clientDir });
});
afterAll(async () => {
  await server.close();
  await rm(clientDir, { recursive: true, force: true });
});

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request with exactly these headers (no automatic Accept-Encoding, no decompression). */
function raw(p: string, headers: http.OutgoingHttpHeaders = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, path: p, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (r: Raw): Buffer => {
  const coding = r.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(r.body);
  if (coding === 'gzip') return gunzipSync(r.body);
  if (coding === undefined) return r.body;
  throw new Error(`unexpected Content-Encoding ${coding}`);
};

test.each([
  ['gzip, deflate, br, zstd', 'br'],
  ['br', 'br'],
  ['gzip', 'gzip'],
  ['gzip, deflate', 'gzip'],
  ['br;q=0, gzip', 'gzip'],
  ['*', 'br'],
  ['*, br;q=0', 'gzip'],
  ['identity', undefined],
  ['br;q=0, gzip;q=0', undefined],
  [undefined, undefined],
])('a hashed asset with Accept-Encoding %p comes as %p: its bytes, length, type, Vary and the immutable cache', async (accept, coding) => {
  const r = await raw(ASSET, accept === undefined ? {} : { 'accept-encoding': accept });
  expect(r.status).toBe(200);
  expect(r.headers['content-encoding']).toBe(coding);
  expect(r.headers['content-type']).toMatch(/^(?:application|text)\/javascript; charset=utf-8$/i);
  expect(r.headers.vary).toMatch(/Accept-Encoding/i);
  expect(r.headers['cache-control']).toBe(IMMUTABLE);
  expect(Number(r.headers['content-length'])).toBe(r.body.length);
  expect(decode(r).equals(APP)).toBe(true);
  if (coding) expect(r.body.length).toBeLessThan(APP.length / 3);
  // The security headers are still there.
  expect(r.headers['x-content-type-options']).toBe('nosniff');
  expect(r.headers['content-security-policy']).toContain("default-src 'self'");
});

test('each representation has its own ETag, and a matching If-None-Match gets 304', async () => {
  const tags = new Map<string, string>();
  for (const accept of ['br', 'gzip', 'identity']) {
    const first = await raw(ASSET, { 'accept-encoding': accept });
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    tags.set(accept, etag);
    const again = await raw(ASSET, { 'accept-encoding': accept, 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['cache-control']).toBe(IMMUTABLE);
  }
  expect(new Set(tags.values()).size).toBe(3);
  // The gzip representation's tag does not validate the brotli one.
  expect((await raw(ASSET, { 'accept-encoding': 'br', 'if-none-match': tags.get('gzip') })).status).toBe(200);
});

test('index.html and the SPA routes are revalidated (no-cache), compressed, and 304 when unchanged', async () => {
  for (const p of ['/', '/g/K7QMZ3', '/rules', '/index.html']) {
    const r = await raw(p, { 'accept-encoding': 'gzip, deflate, br' });
    expect({ p, status: r.status, cache: r.headers['cache-control'], coding: r.headers['content-encoding'] }).toEqual({
      p,
      status: 200,
      cache: 'no-cache',
      coding: 'br',
    });
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    expect(r.headers.vary).toMatch(/Accept-Encoding/i);
    expect(decode(r).toString()).toBe(INDEX);
    expect(r.headers['content-security-policy']).toContain("script-src 'self'");
    const again = await raw(p, { 'accept-encoding': 'gzip, deflate, br', 'if-none-match': r.headers.etag as string });
    expect(again.status).toBe(304);
  }
  const plain = await raw('/g/K7QMZ3');
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.body.toString()).toBe(INDEX);
});

test('unhashed files revalidate; files without variants come as they are, without Vary', async () => {
  const robots = await raw('/robots.txt', { 'accept-encoding': 'gzip' });
  expect(robots.headers['cache-control']).toBe('no-cache');
  expect(robots.headers['content-encoding']).toBe('gzip');
  expect(decode(robots).equals(APP)).toBe(true);
  const plain = await raw('/assets/plain-Xy12_3zQ.js', { 'accept-encoding': 'br, gzip' });
  expect(plain.status).toBe(200);
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.headers.vary).toBeUndefined();
  expect(plain.headers['cache-control']).toBe(IMMUTABLE);
  expect(plain.body.toString()).toBe(PLAIN);
  // Missing files and paths outside the directory are 404, not the page.
  for (const p of ['/assets/missing-AAAAAAAA.js', '/assets/..%2f..%2fetc%2fpasswd', '/.hidden']) {
    const r = await raw(p, { 'accept-encoding': 'br' });
    expect({ p, status: r.status }).toEqual({ p, status: 404 });
  }
});

test('HEAD gives the headers and length of the representation, without a body', async () => {
  const get = await raw(ASSET, { 'accept-encoding': 'br' });
  const head = await raw(ASSET, { 'accept-encoding': 'br' }, 'HEAD');
  expect(head.status).toBe(200);
  expect(head.body.length).toBe(0);
  for (const h of ['content-length', 'content-encoding', 'content-type', 'etag', 'cache-control', 'vary']) expect(head.headers[h]).toBe(get.headers[h]);
});

test('a byte range is a range of the representation sent', async () => {
  const identity = await raw(ASSET, { range: 'bytes=10-29' });
  expect(identity.status).toBe(206);
  expect(identity.headers['content-range']).toBe(`bytes 10-29/${APP.length}`);
  expect(identity.body.equals(APP.subarray(10, 30))).toBe(true);
  const br = readFileSync(path.join(clientDir, `${ASSET}.br`));
  const partial = await raw(ASSET, { range: 'bytes=0-9', 'accept-encoding': 'br' });
  expect(partial.status).toBe(206);
  expect(partial.headers['content-encoding']).toBe('br');
  expect(partial.headers['content-range']).toBe(`bytes 0-9/${br.length}`);
  expect(partial.body.equals(br.subarray(0, 10))).toBe(true);
  expect((await raw(ASSET, { range: `bytes=${APP.length + 5}-` })).status).toBe(416);
});

test('a variant older than its file (the file edited after the build) is not sent', async () => {
  const file = path.join(clientDir, 'robots.txt');
  const past = new Date(Date.now() - 60_000);
  await utimes(`${file}.br`, past, past);
  await utimes(`${file}.gz`, past, past);
  const r = await raw('/robots.txt', { 'accept-encoding': 'br, gzip' });
  expect(r.headers['content-encoding']).toBeUndefined();
  expect(r.body.equals(APP)).toBe(true);
});

test('acceptedCodings reads q-values, * and x-gzip', () => {
  expect([...acceptedCodings('gzip;q=0.5, br;q=1.0')]).toEqual(['br', 'gzip']);
  expect([...acceptedCodings('x-gzip')]).toEqual(['gzip']);
  expect([...acceptedCodings('BR; Q=0.001')]).toEqual(['br']);
  expect([...acceptedCodings('br;q=0.0')]).toEqual([]);
  expect([...acceptedCodings('')]).toEqual([]);
  expect([...acceptedCodings('deflate, zstd')]).toEqual([]);
});

const built = existsSync(path.join(CLIENT_DIST, 'index.html'));
(built ? test : test.skip)('the build wrote .br and .gz next to its compressible files, each decompressing to its file', () => {
  const files = readdirSync(CLIENT_DIST, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(?:js|css|html|svg|json)$/.test(f));
  let withVariants = 0;
  for (const f of files) {
    const data = readFileSync(path.join(CLIENT_DIST, f));
    const br = path.join(CLIENT_DIST, `${f}.br`);
    const gz = path.join(CLIENT_DIST, `${f}.gz`);
    if (data.length >= 4096) expect({ f, br: existsSync(br), gz: existsSync(gz) }).toEqual({ f, br: true, gz: true });
    if (existsSync(br)) expect(brotliDecompressSync(readFileSync(br)).equals(data)).toBe(true);
    if (existsSync(gz)) expect(gunzipSync(readFileSync(gz)).equals(data)).toBe(true);
    if (existsSync(br)) withVariants++;
  }
  expect(withVariants).toBeGreaterThan(10);
});
