/**
 * Raw HTTP for the edge tests: `http.request` (fetch may not set `Host`, nor pick the local
 * address) from any loopback address (127.0.0.2, 127.0.0.3, ... are other clients), and
 * WebSocket upgrades that report the status the server answered.
 */
import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import net from 'node:net';
import type { RunningServer } from '../../server/src/app.js';

/** A finished response. */
export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  /** The body as JSON (undefined if it is not JSON). */
  readonly json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Options of `raw`. */
export interface RawOptions {
  readonly method?: string;
  readonly headers?: OutgoingHttpHeaders;
  /** A body (JSON-encoded unless a string). */
  readonly body?: unknown;
  /** Source address, e.g. `127.0.0.2` (default 127.0.0.1). */
  readonly from?: string;
}

/** One request on a fresh connection. */
export function raw(server: RunningServer, path: string, options: RawOptions = {}): Promise<RawResponse> {
  const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method: options.method ?? 'GET',
        localAddress: options.from,
        agent: false,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** `POST path` with a JSON body. */
export function rawPost(server: RunningServer, path: string, body: unknown, options: Omit<RawOptions, 'method' | 'body'> = {}): Promise<RawResponse> {
  return raw(server, path, { ...options, method: 'POST', body });
}

/**
 * A WebSocket upgrade of `path`; resolves with 101 when accepted (the socket is then closed) or
 * the status of the refusal.
 */
export function upgrade(
  server: RunningServer,
  path: string,
  options: { origin?: string; from?: string } = {},
): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port: server.port,
      path,
      localAddress: options.from,
      agent: false,
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': Buffer.from('0123456789abcdef').toString('base64'),
        ...(options.origin ? { Origin: options.origin } : {}),
      },
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
    });
    req.on('response', (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A raw TCP connection that writes `bytes` and resolves with what it read when the server closed it, and when. */
export function openSocket(
  server: RunningServer,
  bytes: string,
  options: { trickle?: string; everyMs?: number; timeoutMs?: number } = {},
): Promise<{ closedAfterMs: number; received: string }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let received = '';
    let trickle: NodeJS.Timeout | undefined;
    const socket = net.connect(server.port, '127.0.0.1', () => {
      if (bytes) socket.write(bytes);
      if (options.trickle) {
        trickle = setInterval(() => {
          if (!socket.destroyed) socket.write(options.trickle as string);
        }, options.everyMs ?? 50);
      }
    });
    const limit = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${options.timeoutMs ?? 10000} ms`));
    }, options.timeoutMs ?? 10000);
    socket.on('data', (d) => {
      received += d.toString();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(trickle);
      clearTimeout(limit);
      resolve({ closedAfterMs: Date.now() - started, received });
    });
  });
}
