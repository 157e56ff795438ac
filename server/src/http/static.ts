/**
 * The built client's files (client/dist), served as the build left them:
 *
 * - Encoding: the build writes `file.br` and `file.gz` next to each compressible file
 *   (client/vite.config.ts, `precompress`). A request whose Accept-Encoding takes `br` gets the
 *   `.br` file, else one that takes `gzip` gets the `.gz` file, else the file itself (also when
 *   the header is absent). Nothing is compressed per request. Every file that has a variant is
 *   answered with `Vary: Accept-Encoding`, whichever representation is sent; a variant older than
 *   its file (the file edited after the build) is not used.
 * - Caching: files under /assets/ whose names carry Vite's content hash (`name-HASH.ext`) are
 *   `public, max-age=31536000, immutable`: a new build gives them new names. Everything else
 *   (index.html, the SPA fallback, unhashed files) is `no-cache`: the browser revalidates it
 *   (ETag / Last-Modified, 304) on every use.
 * - The rest is Express's `res.sendFile` (the `send` package): Content-Type from the file's own
 *   extension, Content-Length, ETag and Last-Modified of the representation sent (so each
 *   encoding has its own ETag), 304 on a fresh conditional request, HEAD, and byte ranges (of
 *   the representation sent, as RFC 9110 §14 has it).
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** The Cache-Control of fingerprinted files (a new build renames them). */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The Cache-Control of everything else: use it, but ask the server first (a 304 is cheap). */
export const REVALIDATE = 'no-cache';

/** A Vite output name under /assets/: `name-HASH.ext`, the hash 8 characters of base64url. */
const FINGERPRINTED = /^\/assets\/(?:[^/]+\/)*[^/]+-[A-Za-z0-9_-]{8}\.[a-z0-9]+$/;

/** The precompressed variants, best first, with their file suffix. */
const ENCODINGS = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
] as const;
type Coding = (typeof ENCODINGS)[number]['coding'];

/**
 * The codings an Accept-Encoding header allows, among ours: q > 0, named or through `*`
 * (an explicit `coding;q=0` refuses it even with `*`). No header: none (identity).
 */
export function acceptedCodings(header: string | undefined): Set<Coding> {
  const accepted = new Set<Coding>();
  if (!header) return accepted;
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  for (const { coding } of ENCODINGS) {
    const value = q.get(coding) ?? (coding === 'gzip' ? q.get('x-gzip') : undefined) ?? q.get('*') ?? 0;
    if (value > 0) accepted.add(coding);
  }
  return accepted;
}

async function mtimeOf(file: string): Promise<number | null> {
  try {
    const s = await stat(file);
    return s.isFile() ? s.mtimeMs : null;
  } catch {
    return null;
  }
}

/**
 * Sends `file` (absolute, known to exist) in the best encoding the request accepts, with
 * `cacheControl`; calls `next` if it vanished meanwhile.
 */
export async function sendNegotiated(req: Request, res: Response, next: NextFunction, file: string, cacheControl: string): Promise<void> {
  const own = await mtimeOf(file);
  if (own === null) return next();
  const accepted = acceptedCodings(req.headers['accept-encoding']);
  let chosen: { coding: Coding; file: string } | null = null;
  let varies = false;
  for (const { coding, suffix } of ENCODINGS) {
    const variant = await mtimeOf(file + suffix);
    if (variant === null || variant < own) continue;
    varies = true;
    if (!chosen && accepted.has(coding)) chosen = { coding, file: file + suffix };
  }
  if (varies) res.vary('Accept-Encoding');
  // `send` sets neither header when it is already there: the type is the original file's.
  res.type(path.extname(file));
  res.setHeader('Cache-Control', cacheControl);
  if (chosen) res.setHeader('Content-Encoding', chosen.coding);
  res.sendFile(chosen?.file ?? file, { dotfiles: 'allow', lastModified: true, etag: true, acceptRanges: true }, (err?: Error & { code?: string }) => {
    if (!err) return;
    if (res.headersSent) return; // the client went away mid-answer
    res.removeHeader('Content-Encoding');
    res.removeHeader('Cache-Control');
    res.removeHeader('Content-Type');
    if (err.code === 'ENOENT') next();
    else next(err);
  });
}

/**
 * The middleware for the files of `clientDir` (GET and HEAD; directories, dotfiles and paths
 * outside it fall through to `next`).
 */
export function clientFiles(clientDir: string): RequestHandler {
  const root = path.resolve(clientDir);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    let rel: string;
    try {
      rel = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    if (rel.includes('\0') || rel.split('/').some((seg) => seg.startsWith('.'))) return next();
    const file = path.join(root, rel);
    if (!file.startsWith(root + path.sep)) return next();
    const cacheControl = FINGERPRINTED.test(rel) ? IMMUTABLE : REVALIDATE;
    sendNegotiated(req, res, next, file, cacheControl).catch(next);
  };
}
