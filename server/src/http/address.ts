/**
 * Who is asking: the client address of a request. The socket's peer, unless that peer is a
 * proxy named in `trustProxy`; only then `X-Forwarded-For` / `X-Real-IP` are believed. The
 * address sets and the walk through `X-Forwarded-For` are proxy-addr's (Express's own).
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import proxyaddr from 'proxy-addr';

/** An IP address without IPv4-mapped prefix, zone or brackets, lower case; null if not an address. */
export function normaliseAddress(text: string | undefined): string | null {
  if (!text) return null;
  let a = text.trim().toLowerCase();
  if (a.startsWith('[')) a = a.slice(1, a.indexOf(']') === -1 ? undefined : a.indexOf(']'));
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(a)) a = a.slice(0, a.lastIndexOf(':')); // "1.2.3.4:port"
  const zone = a.indexOf('%');
  if (zone !== -1) a = a.slice(0, zone);
  if (a.startsWith('::ffff:') && isIP(a.slice(7)) === 4) a = a.slice(7);
  return isIP(a) === 0 ? null : a;
}

/** Expands an IPv6 address to its 8 groups (no IPv4 tail expected: mapped ones were normalised). */
function ipv6Groups(a: string): string[] | null {
  const [head, tail, more] = a.split('::');
  if (more !== undefined) return null;
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const fill = tail === undefined ? 0 : 8 - h.length - t.length;
  const groups = [...h, ...Array<string>(Math.max(0, fill)).fill('0'), ...t];
  return groups.length === 8 && groups.every((g) => /^[0-9a-f]{1,4}$/.test(g)) ? groups : null;
}

/**
 * The key a client's buckets are kept under: the IPv4 address, or the network of an IPv6 address,
 * by default its /64 (one subscriber usually holds a whole /64, so per-address keys would be free
 * to rotate); a room's own admission limits use the /48 (`prefix` 48), a whole site's allocation.
 */
export function rateKey(address: string, prefix: 48 | 64 = 64): string {
  if (isIP(address) !== 6) return address;
  const g = ipv6Groups(address);
  return g
    ? `${g
        .slice(0, prefix / 16)
        .map((x) => x.padStart(4, '0'))
        .join(':')}::/${prefix}`
    : address;
}

/** A set of addresses: exact ones, CIDR blocks and the names `loopback`, `linklocal`, `uniquelocal` (proxy-addr's). */
export class AddressSet {
  private readonly trusts: (address: string, i: number) => boolean;

  /** Throws on an entry that is none of these. */
  constructor(entries: readonly string[]) {
    this.trusts = proxyaddr.compile(entries.map((e) => e.trim().toLowerCase()));
  }

  /** Is this address in the set? */
  has(address: string): boolean {
    return this.trusts(address, 0);
  }
}

/** Headers through which a proxy tells who its client is (and how it was reached). */
export const FORWARDING_HEADERS = ['x-forwarded-for', 'x-real-ip', 'x-forwarded-host', 'x-forwarded-proto', 'forwarded'] as const;

/** What the edge knows about the sender of a request. */
export interface Peer {
  /** The client address: the socket's peer, or what a trusted proxy says. */
  readonly address: string;
  /** Did the request come through a proxy named in `trustProxy`? */
  readonly viaTrustedProxy: boolean;
  /** Did it carry forwarding headers at all (believed or not)? */
  readonly forwarded: boolean;
}

/** Resolves the client address of a request, believing forwarding headers from `trusted` peers only. */
export function resolvePeer(req: IncomingMessage, trusted: AddressSet): Peer {
  const socketAddress = normaliseAddress(req.socket.remoteAddress) ?? 'unknown';
  const forwarded = FORWARDING_HEADERS.some((h) => req.headers[h] !== undefined);
  if (!trusted.has(socketAddress)) return { address: socketAddress, viaTrustedProxy: false, forwarded };
  // The X-Forwarded-For hops from the nearest up to the first one not trusted; one that is not an address ends them.
  const hops = proxyaddr
    .all(req, (a) => trusted.has(normaliseAddress(a) ?? a))
    .slice(1)
    .map(normaliseAddress);
  const end = hops.indexOf(null);
  const address = (end === -1 ? hops : hops.slice(0, end)).at(-1) ?? normaliseAddress(req.headers['x-real-ip']?.toString());
  return { address: address ?? socketAddress, viaTrustedProxy: true, forwarded };
}

/**
 * Rewrites the forwarding headers so that whatever reads them later (Colyseus gives rooms
 * `x-real-ip ?? x-forwarded-for ?? socket`) sees the resolved address: `x-real-ip` is set to it,
 * and the other forwarding headers are removed unless a trusted proxy sent them.
 */
export function pinForwardingHeaders(req: IncomingMessage, peer: Peer): void {
  if (!peer.viaTrustedProxy) for (const h of FORWARDING_HEADERS) delete req.headers[h];
  req.headers['x-real-ip'] = peer.address;
}
