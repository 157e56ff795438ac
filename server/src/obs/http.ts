/**
 * The HTTP side of observability: an access log (method, path without its query, status, time),
 * and `@colyseus/monitor` at `/colyseus` behind basic auth, mounted only when a password is set:
 * its API can call any method of any room (`/colyseus/api/room/call`), so it is never open, and
 * wrong passwords are limited per client address (`CredentialEdge`).
 */
import type { IncomingMessage } from 'node:http';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import basicAuth from 'express-basic-auth';
import type { Logger } from './log.js';

/**
 * What the routes behind a secret (`/metrics` with a token, the monitor) need from the HTTP edge
 * (an `HttpGuard`): the budget of failed credentials per client address.
 */
export interface CredentialEdge {
  /** Middleware: 429 `rate_limited` for an address out of failed credentials, before they are read. */
  readonly credentialGate: RequestHandler;
  /** Counts a refused credential of the request's client. */
  credentialFailed(req: IncomingMessage): void;
}

/** Where the monitor is mounted. */
export const MONITOR_PATH = '/colyseus';
/** The monitor's basic-auth user name (the password is `MONITOR_PASSWORD`). */
export const MONITOR_USER = 'admin';

/** Logs every HTTP request once answered (`debug`; `warn` for 5xx). The query string is never logged. */
export function accessLog(log: Logger): (req: Request, res: Response, next: NextFunction) => void {
  const http = log.child({ src: 'http' });
  return (req, res, next) => {
    if (!http.isLevelEnabled('debug')) return next();
    const started = performance.now();
    res.on('finish', () => {
      const line = { method: req.method, path: req.path, status: res.statusCode, ms: Math.round((performance.now() - started) * 10) / 10 };
      if (res.statusCode >= 500) http.warn(line, 'request failed');
      else http.debug(line, 'request');
    });
    next();
  };
}

/**
 * Mounts the monitor at `/colyseus` behind basic auth (`admin` / `password`); `edge` refuses
 * addresses out of failed credentials and counts each refused `Authorization`.
 */
export async function mountMonitor(app: Express, password: string, log: Logger, edge: CredentialEdge): Promise<void> {
  // Imported only here: the monitor patches Colyseus's Room prototype when it loads.
  const { monitor } = await import('@colyseus/monitor');
  const auth = basicAuth({
    users: { [MONITOR_USER]: password },
    challenge: true,
    realm: 'djambi-monitor',
    unauthorizedResponse: (req: Request) => {
      if (req.headers.authorization !== undefined) edge.credentialFailed(req);
      return '';
    },
  });
  app.use(MONITOR_PATH, edge.credentialGate, auth, monitor());
  log.info({ path: MONITOR_PATH }, 'monitor mounted (basic auth)');
}
