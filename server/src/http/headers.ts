/**
 * Security headers of every response (Express's and the matchmaker's), through helmet.
 * The Content-Security-Policy is the one the built client (Vite + PixiJS 8) runs under;
 * tests/e2e/csp.test.ts loads the game page in Chromium and fails on any violation.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/** Answers the `ws://HOST wss://HOST` sources of a request's trusted host, or `''`. */
export type SocketSources = (req: IncomingMessage) => string;

/** The CSP directives; `socketSources` adds the page's own WebSocket origin to `connect-src`. */
export function cspDirectives(socketSources: SocketSources): Record<string, Array<string | ((req: IncomingMessage, res: ServerResponse) => string)>> {
  return {
    'default-src': ["'self'"],
    // PixiJS 8 builds its uniform and shader sync functions with `new Function` unless the
    // client imports `pixi.js/unsafe-eval`; without 'unsafe-eval' the WebGL renderer refuses
    // to start. No inline script: Vite emits only external modules.
    'script-src': ["'self'", "'unsafe-eval'"],
    'style-src': ["'self'"],
    // The rules page sets CSS variables through style attributes (`style="--n:9"`); style
    // elements stay 'self' only.
    'style-src-attr': ["'unsafe-inline'"],
    // QR codes and Pixi textures are drawn from data: and blob: URLs; the favicon is a data: URL.
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    // colyseus.js: matchmaking over fetch, then the WebSocket. CSP3 lets 'self' cover ws(s): of
    // the same host; the explicit sources are for browsers that do not.
    'connect-src': ["'self'", (req) => socketSources(req)],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/**
 * The headers middleware (calls `next` synchronously). HSTS only when the public URL is https
 * (a plain-http deployment must not send it), without `includeSubDomains`.
 */
export function securityHeaders(
  socketSources: SocketSources,
  https: boolean,
): (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(socketSources) },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'no-referrer' }, // invite links carry the room code
    strictTransportSecurity: https ? { maxAge: 180 * 24 * 3600, includeSubDomains: false } : false,
    xContentTypeOptions: true,
    xFrameOptions: { action: 'deny' },
    xPoweredBy: true,
  });
}
