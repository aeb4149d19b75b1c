// `canonry serve` serves the built workbench at `/` beside the API: its files with their types and
// caching, index.html for client routes, the API's 404s and auth untouched, and nothing outside the
// build however a path is spelled. A real server on loopback over a fixture build.

import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/index.js';
import { tokensFor } from '../helpers/auth.js';
import { freshRuntime, tempDir } from '../helpers/runtime.js';

const INDEX =
  '<!doctype html><title>workbench</title><script type="module" src="/assets/app-3f9a1c.js"></script>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2_000))});`;
const SECRET = 'the secret next to the build';

/** A raw GET: the path goes on the wire exactly as written (fetch would normalise `..`). */
function rawGet(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

let url: string;
let app: FastifyInstance;
let close: () => Promise<void>;
let viewer: string;

beforeAll(async () => {
  const build = tempDir('canonry-web-');
  // The secret sits beside the build's root, where a traversal would reach.
  writeFileSync(join(build.dir, 'secret.txt'), SECRET);
  const root = join(build.dir, 'web');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), INDEX);
  writeFileSync(join(root, 'assets', 'app-3f9a1c.js'), SCRIPT);
  writeFileSync(join(root, 'assets', 'app-77b2e0.css'), 'body{margin:0}');
  writeFileSync(join(root, 'favicon.ico'), Buffer.from([0, 0, 1, 0]));
  const fresh = await freshRuntime();
  viewer = (await tokensFor(fresh.runtime, 'atelier', { vera: 'viewer' })).vera;
  app = buildServer(fresh.runtime, { logLevel: 'silent', workbench: root });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
  close = async () => {
    await app.close();
    await fresh.close();
    build.cleanup();
  };
});

afterAll(() => close());

describe('the workbench at /', () => {
  it('serves index.html at / and for client routes, revalidated on every load, locked to its origin', async () => {
    for (const path of ['/', '/review/prop_0123456789abcdef', '/board?x=1', '/notes/ui.colour']) {
      const res = await rawGet(url, path);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.body.toString()).toBe(INDEX);
    }
    const etag = (await rawGet(url, '/')).headers.etag as string;
    const again = await rawGet(url, '/', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('serves hashed assets with their types, cached for good, gzipped when the client takes it', async () => {
    const plain = await rawGet(url, '/assets/app-3f9a1c.js');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(SCRIPT);
    const gz = await rawGet(url, '/assets/app-3f9a1c.js', { 'accept-encoding': 'br, gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body.length).toBeLessThan(SCRIPT.length / 10);
    expect(gunzipSync(gz.body).toString()).toBe(SCRIPT);
    // A q-value of 0 refuses an encoding (RFC 9110 §12.5.3); `*` stands for gzip when it is unnamed.
    for (const [header, gzipped] of [
      ['gzip;q=0, identity', false],
      ['GZIP; q=0.000', false],
      ['*;q=0', false],
      ['gzip;q=0.5', true],
      ['*', true],
      ['gzip;q=0, *', false],
      ['br;q=1, *;q=0.1', true],
    ] as const) {
      const got = await rawGet(url, '/assets/app-3f9a1c.js', { 'accept-encoding': header });
      expect([header, got.headers['content-encoding'] === 'gzip']).toEqual([header, gzipped]);
    }
    expect((await rawGet(url, '/assets/app-77b2e0.css')).headers['content-type']).toBe(
      'text/css; charset=utf-8',
    );
    const icon = await rawGet(url, '/favicon.ico');
    expect(icon.headers['content-type']).toBe('image/x-icon');
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('answers a missing file with the typed 404, never index.html in its place', async () => {
    for (const path of ['/assets/app-000000.js', '/robots.txt', '/assets/nothing']) {
      const res = await rawGet(url, path);
      expect(res.status, path).toBe(404);
      expect(JSON.parse(res.body.toString()).error.code).toBe('NOT_FOUND');
    }
  });

  it('never reaches outside the build, however the path is spelled', async () => {
    for (const path of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/assets/..%5c..%5csecret.txt',
      '//secret.txt',
      '/..%2fsecret.txt',
    ]) {
      const res = await rawGet(url, path);
      expect(res.body.toString(), path).not.toContain(SECRET);
      expect([200, 400, 404], path).toContain(res.status);
      if (res.status === 200) expect(res.body.toString(), path).toBe(INDEX);
    }
  });

  it('leaves the API as it was: typed 404s under /v1, auth, the document, only GET and HEAD for the app', async () => {
    const unknown = await fetch(`${url}/v1/nothing/here`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as any).error.code).toBe('NOT_FOUND');
    expect((await fetch(`${url}/v1`)).status).toBe(404);
    const anonymous = await fetch(`${url}/v1/projects/atelier/board`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as any).error.code).toBe('UNAUTHENTICATED');
    expect((await fetch(`${url}/openapi.json`)).headers.get('content-type')).toContain(
      'application/json',
    );
    const posted = await fetch(`${url}/review/x`, { method: 'POST' });
    expect(posted.status).toBe(404);
    expect(((await posted.json()) as any).error.code).toBe('NOT_FOUND');
    const head = await fetch(`${url}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('tells a token who it stands for (whoami), whatever its role', async () => {
    const res = await fetch(`${url}/v1/projects/atelier/whoami`, {
      headers: { authorization: `Bearer ${viewer}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ project: 'atelier', principal: 'vera', role: 'viewer' });
    const other = await fetch(`${url}/v1/projects/elsewhere/whoami`, {
      headers: { authorization: `Bearer ${viewer}` },
    });
    expect(other.status).toBe(403);
  });
});

describe('a server without a built workbench', () => {
  it('answers / with the typed 404', async () => {
    const fresh = await freshRuntime();
    const bare = buildServer(fresh.runtime, { logLevel: 'silent', workbench: null });
    const address = await bare.listen({ port: 0, host: '127.0.0.1' });
    try {
      const res = await fetch(`${address}/`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as any).error.code).toBe('NOT_FOUND');
    } finally {
      await bare.close();
      await fresh.close();
    }
  });

  it('logs a build it cannot read once and answers the typed 404, never a 500', async () => {
    const build = tempDir('canonry-web-');
    // A folder with no index.html is no build: reading it fails on the first request.
    mkdirSync(join(build.dir, 'assets'), { recursive: true });
    const lines: string[] = [];
    const fresh = await freshRuntime();
    const broken = buildServer(fresh.runtime, {
      logLevel: 'error',
      logStream: { write: (line) => lines.push(line) },
      workbench: build.dir,
    });
    const address = await broken.listen({ port: 0, host: '127.0.0.1' });
    try {
      for (const path of ['/', '/board', '/']) {
        const res = await fetch(`${address}${path}`);
        expect(res.status).toBe(404);
        expect(((await res.json()) as any).error.code).toBe('NOT_FOUND');
      }
      const logged = lines.filter((l) => l.includes('the workbench cannot be read'));
      expect(logged).toHaveLength(1);
    } finally {
      await broken.close();
      await fresh.close();
      build.cleanup();
    }
  });
});
