/**
 * Which `Host` may be written into invite links, and which browser `Origin` may use the
 * matchmaker, the WebSocket and the API's writing routes.
 */
import type { IncomingMessage } from 'node:http';
import type { Peer } from './address.js';

/** Default `allowedHosts`: this machine, on any port. */
export const DEFAULT_ALLOWED_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** A host name (or bracketed IPv6 address) with an optional port, as in a `Host` header. */
const HOST_RE = /^(?<name>[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::(?<port>\d{1,5}))?$/;

interface HostPattern {
  readonly name: string;
  readonly port: string | null;
}

/** Splits `name[:port]` (lower case); null if it is not a plain host. */
export function parseHost(text: string | undefined): HostPattern | null {
  const m = text ? HOST_RE.exec(text.trim().toLowerCase()) : null;
  return m?.groups ? { name: m.groups.name, port: m.groups.port ?? null } : null;
}

/** `scheme://host[:port]` of a URL, lower case; null if it is not an http(s) URL. */
export function parseOrigin(text: string): string | null {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** Settings of `OriginPolicy` (from `ServerConfig`). */
export interface OriginSettings {
  /** Base URL of invite links; its origin is allowed. */
  readonly publicUrl: string | null;
  /** Hosts that may appear in invite links (`name` = any port, or `name:port`). */
  readonly allowedHosts: readonly string[];
  /** Origins allowed to use the server from a browser; `'*'` = any; null = the default (see below). */
  readonly allowedOrigins: readonly string[] | '*' | null;
}

/**
 * The host and origin rules of one server. Origins: with `allowedOrigins: '*'`, or with neither
 * `allowedOrigins` nor `publicUrl` (development), every origin is allowed; otherwise the listed
 * ones, the `publicUrl` origin, and the page's own origin when its host is an allowed host.
 * A request without `Origin` (not a browser, or a same-origin GET) is always allowed.
 */
export class OriginPolicy {
  readonly publicBase: string | null;
  /** Every origin allowed. */
  readonly open: boolean;
  private readonly hosts: readonly HostPattern[];
  private readonly origins: ReadonlySet<string>;

  /** Throws on a malformed `publicUrl`, host or origin. */
  constructor(settings: OriginSettings) {
    if (settings.publicUrl !== null && !parseOrigin(settings.publicUrl)) throw new Error(`publicUrl must be an http(s) URL (got "${settings.publicUrl}")`);
    this.publicBase = settings.publicUrl?.replace(/\/+$/, '') ?? null;
    this.hosts = settings.allowedHosts.map((h) => {
      const p = parseHost(h);
      if (!p) throw new Error(`not a host name: "${h}"`);
      return p;
    });
    const listed = settings.allowedOrigins;
    this.open = listed === '*' || (listed === null && this.publicBase === null);
    const origins = new Set<string>();
    for (const o of listed === '*' || listed === null ? [] : listed) {
      const p = parseOrigin(o);
      if (!p) throw new Error(`not an origin: "${o}"`);
      origins.add(p);
    }
    if (this.publicBase) origins.add(parseOrigin(this.publicBase) as string);
    this.origins = origins;
  }

  /** Is `host` (a `Host` header value) one that may be written into links? */
  isAllowedHost(host: string | undefined): boolean {
    const h = parseHost(host);
    return !!h && this.hosts.some((p) => p.name === h.name && (p.port === null || p.port === h.port));
  }

  /**
   * The `scheme://host` this request was addressed to, if its host is allowed: `Host` (or
   * `X-Forwarded-Host` / `-Proto` from a trusted proxy). Null for an untrusted host.
   */
  requestBase(req: IncomingMessage, peer: Peer): string | null {
    const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.split(',')[0]?.trim();
    const host = (peer.viaTrustedProxy && first(req.headers['x-forwarded-host'])) || req.headers.host;
    if (!this.isAllowedHost(host)) return null;
    const tls = 'encrypted' in req.socket && !!req.socket.encrypted;
    const proto = peer.viaTrustedProxy ? first(req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
    return `${proto === 'https' || proto === 'http' ? proto : tls ? 'https' : 'http'}://${(host as string).trim().toLowerCase()}`;
  }

  /**
   * Base URL of invite links: `publicUrl`, else the request's own when its host is allowed, else
   * `http://localhost:PORT` (PORT: the port the request came in on). Never an untrusted `Host`.
   */
  baseUrl(req: IncomingMessage, peer: Peer): string {
    return this.publicBase ?? this.requestBase(req, peer) ?? `http://localhost:${req.socket.localPort ?? 80}`;
  }

  /** May a browser page of this request's `Origin` use the server? */
  isAllowedOrigin(req: IncomingMessage, peer: Peer): boolean {
    const raw = req.headers.origin;
    if (raw === undefined || this.open) return true;
    const origin = parseOrigin(raw);
    if (!origin) return false; // "null" (sandboxed frames, file://) and garbage
    if (this.origins.has(origin)) return true;
    const own = this.requestBase(req, peer); // the page's own origin, on an allowed host
    return own !== null && origin === parseOrigin(own);
  }
}
