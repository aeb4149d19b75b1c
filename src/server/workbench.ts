import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** One file of the built workbench, held in memory with the headers it is served with. */
interface Asset {
  readonly body: Buffer;
  /** The gzip of `body`, when it is smaller. */
  readonly gzip: Buffer | null;
  readonly type: string;
  readonly cacheControl: string;
  readonly etag: string;
}

/** The built app: URL path → file. */
export type Workbench = ReadonlyMap<string, Asset>;

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** Vite names the files under `assets/` by their content hash: they never change, so never expire. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html above all) is revalidated on every load, so a new build shows at once. */
const REVALIDATE = 'no-cache';

/** The page may load only this origin's scripts, styles and API: no inline script, no framing. */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** A built workbench holds a few files; more than this under the root is not one. */
const MAX_FILES = 2_000;

/** The paths that are the API's, whatever the router says: never answered with the app. */
const API = /^\/(?:v1|mcp)(?:\/|$)|^\/(?:openapi\.json|metrics|healthz|readyz)$/;

/**
 * Where the built workbench is when none is named: `dist/web` beside the compiled server
 * (`dist/server/…` → `dist/web`), or the repository's build when the server runs from its
 * sources (tests). Null when neither exists (the package was not built).
 */
export function defaultWorkbenchRoot(): string | null {
  for (const candidate of ['../web/', '../../dist/web/']) {
    const dir = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  return null;
}

function walk(root: string, dir: string, into: Map<string, Asset>): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    // Only regular files and folders: a link could point anywhere on the disk.
    if (stat.isDirectory()) walk(root, path, into);
    else if (stat.isFile()) {
      if (into.size >= MAX_FILES) throw new Error(`${root} holds over ${MAX_FILES} files`);
      const url = `/${path
        .slice(root.length)
        .split(/[\\/]+/)
        .filter(Boolean)
        .join('/')}`;
      const body = readFileSync(path);
      const gzip = gzipSync(body, { level: 9 });
      into.set(url, {
        body,
        gzip: gzip.length < body.length ? gzip : null,
        type: TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream',
        cacheControl: url.startsWith('/assets/') ? IMMUTABLE : REVALIDATE,
        etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      });
    }
  }
}

const loaded = new Map<string, Workbench>();

/**
 * Reads the built workbench into memory, once per root per process. The files are fixed at build
 * time, so nothing is read from the disk per request and no request path ever becomes a file path:
 * a request names a key of this map or nothing (no traversal to defend against).
 */
export function loadWorkbench(root: string): Workbench {
  const hit = loaded.get(root);
  if (hit) return hit;
  const files = new Map<string, Asset>();
  walk(root, root, files);
  if (!files.has('/index.html')) throw new Error(`${root} has no index.html`);
  loaded.set(root, files);
  return files;
}

/**
 * The file a request gets, or null (then the caller answers its 404): for GET and HEAD outside the
 * API, the file at that path, else — for a client route: outside `assets/`, and not a top-level
 * name with a file extension — the app's index.html, so a reload or a shared link opens the view.
 */
export function workbenchFile(workbench: Workbench, request: FastifyRequest): Asset | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  const path = request.url.split('?')[0]!;
  if (API.test(path)) return null;
  const file = workbench.get(path === '/' ? '/index.html' : path);
  if (file) return file;
  // A missing file is a 404: anything under assets/, or a top-level name with an extension
  // (`/robots.txt`). Deeper paths are client routes, whose ids may hold dots (`/notes/ui.colour`).
  const top = path.lastIndexOf('/') === 0;
  if (path.startsWith('/assets/') || (top && path.includes('.'))) return null;
  return workbench.get('/index.html')!;
}

/**
 * Whether an `Accept-Encoding` takes gzip (RFC 9110 §12.5.3): named, or `*`, with a q-value above
 * 0 — `gzip;q=0` refuses it, and so does `*;q=0` when gzip is not named.
 */
export function acceptsGzip(header: string): boolean {
  let star = false;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    const takes = Number.isFinite(weight) && weight > 0;
    if (name === 'gzip' || name === 'x-gzip') return takes;
    if (name === '*') star = takes;
  }
  return star;
}

/** Sends a workbench file: its type and caching, gzip when the client takes it, 304 on a match. */
export function sendWorkbenchFile(request: FastifyRequest, reply: FastifyReply, file: Asset) {
  reply
    .header('content-type', file.type)
    .header('cache-control', file.cacheControl)
    .header('etag', file.etag)
    .header('x-content-type-options', 'nosniff')
    .header('vary', 'accept-encoding');
  if (file.type.startsWith('text/html')) {
    reply
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('referrer-policy', 'no-referrer')
      .header('x-frame-options', 'DENY');
  }
  if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
  const accepts = acceptsGzip(String(request.headers['accept-encoding'] ?? ''));
  if (file.gzip && accepts) {
    return reply.code(200).header('content-encoding', 'gzip').send(file.gzip);
  }
  return reply.code(200).send(file.body);
}
