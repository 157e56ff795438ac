/**
 * The HTTP edge of one server: one wrapper around the http server's request listeners
 * (installed after Colyseus put its matchmaker in front of Express), the WebSocket
 * `verifyClient`, and the Express middlewares of the API. It resolves the client address,
 * pins the forwarding headers rooms will read, sets the security headers, and enforces the
 * limits of docs/PROTOCOL.md "Limits" in front of `/matchmake/*`, which Express never sees.
 */
import type { IncomingMessage, OutgoingHttpHeaders, Server as HttpServer, ServerResponse } from 'node:http';
import { matchMaker } from '@colyseus/core';
import type { RequestHandler } from 'express';
import { AddressSet, pinForwardingHeaders, rateKey, resolvePeer, type Peer } from './address.js';
import { securityHeaders } from './headers.js';
import { rateLimiters, type HttpLimits, type RateKind, type RateLimiters } from './limits.js';
import type { OriginPolicy } from './origins.js';

/** Error codes the edge answers with (`{ error: { code, message, retryAfterMs? } }`). */
export type EdgeErrorCode = 'payload_too_large' | 'method_not_allowed' | 'forbidden_origin' | 'rate_limited';

/** Methods the matchmaker answers. */
const MATCHMAKE_METHODS = ['GET', 'POST', 'OPTIONS'];

/** Which budget a matchmaker action spends, besides the general one. */
const MATCHMAKE_KIND: Record<string, RateKind> = {
  create: 'create',
  joinOrCreate: 'create',
  join: 'reserve',
  joinById: 'reserve',
  reconnect: 'reserve',
};

/** Settings of an `HttpGuard`. */
export interface GuardSettings {
  readonly limits: HttpLimits;
  /** Proxies whose forwarding headers are believed (addresses, CIDR blocks, range names). */
  readonly trustProxy: readonly string[];
  readonly origins: OriginPolicy;
  /** Clock of the rate limits, epoch ms. */
  readonly now: () => number;
  /** Warnings (a proxy that is not trusted); default `console.warn`. */
  readonly warn?: (message: string) => void;
  /**
   * Called before a `joinById` reaches the matchmaker, with the room id it names: re-opens a
   * stored game that is not live, so the join finds it.
   */
  readonly beforeJoin?: (roomId: string) => Promise<unknown>;
}

/** What `ws` hands to `verifyClient`. */
interface UpgradeInfo {
  readonly origin: string;
  readonly secure: boolean;
  readonly req: IncomingMessage;
}
type VerifyCallback = (ok: boolean, code?: number, message?: string, headers?: OutgoingHttpHeaders) => void;

/** The edge of one server. */
export class HttpGuard {
  readonly limits: HttpLimits;
  private readonly trusted: AddressSet;
  private readonly exempt: AddressSet;
  private readonly limiters: RateLimiters;
  private readonly peers = new WeakMap<IncomingMessage, Peer>();
  private readonly headers: ReturnType<typeof securityHeaders>;
  private warnedUntrustedProxy = false;

  /** Throws on a malformed `trustProxy` or `limits.exempt` entry. */
  constructor(private readonly settings: GuardSettings) {
    this.limits = settings.limits;
    this.trusted = new AddressSet(settings.trustProxy);
    this.exempt = new AddressSet(settings.limits.exempt);
    this.limiters = rateLimiters(settings.limits);
    const https = settings.origins.publicBase?.startsWith('https:') ?? false;
    this.headers = securityHeaders((req) => this.socketSources(req), https);
  }

  /**
   * Wraps the request listeners of `server` (Colyseus's matchmaker router, which calls Express)
   * and sets the socket timeouts. Call once, after `gameServer.listen`.
   */
  install(server: HttpServer): void {
    const inner = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      this.handle(req, res, () => {
        for (const listener of inner) listener.call(server, req, res);
      });
    });
    server.headersTimeout = this.limits.headersTimeoutMs;
    server.requestTimeout = this.limits.requestTimeoutMs;
    server.keepAliveTimeout = this.limits.keepAliveTimeoutMs;
  }

  /** The client behind a request (resolved once; the forwarding headers are pinned to it). */
  peer(req: IncomingMessage): Peer {
    let peer = this.peers.get(req);
    if (!peer) {
      peer = resolvePeer(req, this.trusted);
      pinForwardingHeaders(req, peer);
      this.peers.set(req, peer);
      if (peer.forwarded && !peer.viaTrustedProxy && !this.warnedUntrustedProxy) {
        this.warnedUntrustedProxy = true;
        (this.settings.warn ?? console.warn)(`[http] forwarding headers from ${peer.address} ignored: if it is your reverse proxy, name it in TRUST_PROXY`);
      }
    }
    return peer;
  }

  /** Base URL of invite links for this request (never an untrusted `Host`). */
  baseUrl(req: IncomingMessage): string {
    return this.settings.origins.baseUrl(req, this.peer(req));
  }

  /** `ws` `verifyClient`: refuses foreign origins (403) and addresses over their budget (429). */
  readonly verifyClient = (info: UpgradeInfo, done: VerifyCallback): void => {
    const req = info.req;
    if (!this.settings.origins.isAllowedOrigin(req, this.peer(req))) return done(false, 403, 'Forbidden');
    const wait = this.wait(req, 'api');
    if (wait > 0) return done(false, 429, 'Too Many Requests', { 'Retry-After': String(Math.ceil(wait / 1000)) });
    done(true);
  };

  /** The client's address key (an IPv6 client: its /64), as the rate limits see it. */
  addressOf(req: IncomingMessage): string {
    return rateKey(this.peer(req).address);
  }

  /** Express middleware: spends a token of `kind`, or answers 429. */
  limit(kind: RateKind): RequestHandler {
    return (req, res, next) => {
      if (this.admit(req, res, kind)) next();
    };
  }

  /**
   * Express middleware in front of a route behind a secret (`/metrics` with a token, the
   * monitor): a client address that has used up its budget of failed credentials (`auth`) gets
   * 429 `rate_limited` before its credentials are read, the right ones included, until a token
   * is back. Exempt addresses are not exempt from it: they are spared request volume, not guessing.
   */
  readonly credentialGate: RequestHandler = (req, res, next) => {
    const limiter = this.limiters.auth;
    const wait = limiter ? limiter.waitMs(rateKey(this.peer(req).address), this.settings.now()) : 0;
    if (wait === 0) return next();
    this.fail(req, res, 429, 'rate_limited', `too many failed credentials; retry in ${wait} ms`, { 'Retry-After': String(Math.ceil(wait / 1000)) }, wait);
  };

  /** Counts a refused credential of the request's client against its `auth` budget. */
  credentialFailed(req: IncomingMessage): void {
    this.limiters.auth?.take(rateKey(this.peer(req).address), this.settings.now());
  }

  /** Express middleware: refuses writing requests (not GET/HEAD/OPTIONS) from a foreign origin with 403. */
  readonly sameOrigin: RequestHandler = (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS' || this.settings.origins.isAllowedOrigin(req, this.peer(req))) next();
    else this.fail(req, res, 403, 'forbidden_origin', 'this origin may not use the server');
  };

  /** Spends a token of `kind` for the request's client; on refusal answers 429 and returns false. */
  admit(req: IncomingMessage, res: ServerResponse, kind: RateKind): boolean {
    const wait = this.wait(req, kind);
    if (wait === 0) return true;
    this.fail(req, res, 429, 'rate_limited', `too many requests (${kind}); retry in ${wait} ms`, { 'Retry-After': String(Math.ceil(wait / 1000)) }, wait);
    return false;
  }

  /** Ms until the client may make a request of `kind` (0: allowed now, and a token was spent). */
  private wait(req: IncomingMessage, kind: RateKind): number {
    const limiter = this.limiters[kind];
    const peer = this.peer(req);
    if (!limiter || this.isExempt(peer)) return 0;
    return limiter.take(rateKey(peer.address), this.settings.now());
  }

  /**
   * Exempt addresses (default: loopback, for local tools and tests) lose the exemption when the
   * request carries forwarding headers from an untrusted peer: a reverse proxy on this machine
   * that is not named in `trustProxy` must not switch the limits off for everyone behind it.
   */
  private isExempt(peer: Peer): boolean {
    return this.exempt.has(peer.address) && !(peer.forwarded && !peer.viaTrustedProxy);
  }

  private socketSources(req: IncomingMessage): string {
    const base = this.settings.origins.requestBase(req, this.peer(req)) ?? this.settings.origins.publicBase;
    if (!base) return '';
    const host = base.replace(/^https?:\/\//, '');
    return `ws://${host} wss://${host}`;
  }

  private handle(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    this.peer(req);
    this.headers(req, res, () => undefined);
    const url = req.url ?? '/';
    if (url.indexOf(`/${matchMaker.controller.matchmakeRoute}`) === -1) return next();
    this.matchmake(req, res, url, next);
  }

  /** In front of Colyseus's `handleMatchMakeRequest` (the same URL test and parse as it uses). */
  private matchmake(req: IncomingMessage, res: ServerResponse, url: string, next: () => void): void {
    const method = req.method ?? '';
    if (!MATCHMAKE_METHODS.includes(method)) {
      return this.fail(req, res, 405, 'method_not_allowed', `${method} is not allowed here`, { Allow: MATCHMAKE_METHODS.join(', ') });
    }
    if (!this.settings.origins.isAllowedOrigin(req, this.peer(req))) {
      if (method === 'OPTIONS') {
        res.writeHead(204, { Vary: 'Origin' }); // a preflight without any Access-Control-Allow-*
        res.end();
        return;
      }
      return this.fail(req, res, 403, 'forbidden_origin', 'this origin may not use the matchmaker');
    }
    if (!this.admit(req, res, 'api')) return;
    if (method === 'POST') {
      const tokens: readonly string[] = url.match(matchMaker.controller.allowedRoomNameChars) ?? [];
      const action = tokens[tokens.indexOf(matchMaker.controller.matchmakeRoute) + 1] ?? '';
      const kind = Object.hasOwn(MATCHMAKE_KIND, action) ? MATCHMAKE_KIND[action] : undefined;
      if (kind && !this.admit(req, res, kind)) return;
      if (!this.limitBody(req, res)) return;
      const roomId = action === 'joinById' ? tokens[tokens.indexOf(matchMaker.controller.matchmakeRoute) + 2] : undefined;
      if (roomId && this.settings.beforeJoin) {
        // Hold the body (Colyseus reads it in `next`) while the game is re-opened.
        req.pause();
        this.settings
          .beforeJoin(roomId)
          .catch(() => undefined)
          .finally(() => {
            next();
            req.resume();
          });
        return;
      }
    }
    next();
  }

  /**
   * Refuses a declared `Content-Length` over the limit up front, and counts the chunks of the
   * rest (chunked bodies): past the limit, answers 413 and destroys the request, so nothing
   * more is buffered by the matchmaker.
   */
  private limitBody(req: IncomingMessage, res: ServerResponse): boolean {
    const limit = this.limits.bodyBytes;
    const declared = Number(req.headers['content-length'] ?? 0);
    if (!Number.isFinite(declared) || declared > limit) {
      this.fail(req, res, 413, 'payload_too_large', `request body over ${limit} bytes`, { Connection: 'close' });
      return false;
    }
    let received = 0;
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limit) return;
      req.off('data', count);
      this.fail(req, res, 413, 'payload_too_large', `request body over ${limit} bytes`, { Connection: 'close' }, undefined, () => req.destroy());
    };
    req.on('data', count);
    return true;
  }

  /** Answers `{ error: { code, message, retryAfterMs? } }`, with CORS for an allowed browser origin. */
  private fail(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    code: EdgeErrorCode,
    message: string,
    headers: OutgoingHttpHeaders = {},
    retryAfterMs?: number,
    then?: () => void,
  ): void {
    if (res.headersSent) {
      then?.();
      return;
    }
    const origin = req.headers.origin;
    const cors = origin && this.settings.origins.isAllowedOrigin(req, this.peer(req)) ? { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' } : {};
    const body = JSON.stringify({ error: { code, message, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) } });
    res.writeHead(status, { ...cors, ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
    res.end(body, then);
  }
}
