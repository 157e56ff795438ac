/**
 * Loopback ports for the servers a test starts (and may restart on the same port): Redis,
 * nginx, the game servers. Each is chosen below the kernel's ephemeral range
 * (`ip_local_port_range`, 32768–60999 by default) and checked free by listening on it. A port
 * from `listen(0)` comes from that range, where any outgoing connection of any test running
 * beside it (hundreds of client sockets) can take it as its local port between the check and
 * the server's own `listen`: a server then failed with EADDRINUSE (seen in CI).
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';

/** Lowest port tried. */
const FLOOR = 20_000;

/** The first port of the kernel's ephemeral range (32768 if it cannot be read). */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

/** Listens on `port` (0: any) of 127.0.0.1 and closes again; the port, or null when it was taken. */
function probe(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(null));
    srv.listen(port, '127.0.0.1', () => {
      const bound = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(bound));
    });
  });
}

/** A free TCP port on 127.0.0.1, outside the ephemeral range when the machine leaves room for it. */
export async function freePort(): Promise<number> {
  const ceiling = ephemeralLow() - 1;
  if (ceiling - FLOOR >= 1000) {
    for (let attempt = 0; attempt < 100; attempt++) {
      const port = await probe(FLOOR + Math.floor(Math.random() * (ceiling - FLOOR + 1)));
      if (port !== null) return port;
    }
  }
  const any = await probe(0);
  if (any === null) throw new Error('no free loopback port');
  return any;
}
