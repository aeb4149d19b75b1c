// The OpenAPI document against the routes Fastify actually registered (collected by an onRoute hook
// installed before any route): every registered route is documented with its method, every
// documented operation exists, and the document is OpenAPI 3.1 JSON with the bearer scheme and the
// error envelope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/core/index.js';
import { registeredRoutes } from '../../src/server/index.js';
import { call } from '../helpers/auth.js';
import { liveServer } from '../helpers/runtime.js';

let live: Awaited<ReturnType<typeof liveServer>>;
let doc: any;
let raw: string;

beforeAll(async () => {
  live = await liveServer();
  const res = await fetch(`${live.url}/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  raw = await res.text();
  doc = JSON.parse(raw);
});
afterAll(() => live?.close());

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const toOpenApi = (url: string) => url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );

describe('GET /openapi.json', () => {
  it('is public JSON with openapi 3.1.0, info and paths', () => {
    expect(() => JSON.parse(raw)).not.toThrow();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('canonry');
    expect(typeof doc.info.version).toBe('string');
    expect(Object.keys(doc.paths).length).toBeGreaterThan(20);
  });

  it('documents every route Fastify registered, with its method', () => {
    const routes = registeredRoutes(live.app);
    expect(routes.length).toBeGreaterThan(20);
    const missing = routes.filter((r) => !doc.paths[toOpenApi(r.url)]?.[r.method.toLowerCase()]);
    expect(missing).toEqual([]);
  });

  it('documents only routes that exist', () => {
    const registered = new Set(
      registeredRoutes(live.app).map((r) => `${r.method} ${toOpenApi(r.url)}`),
    );
    const phantom = operations()
      .map((o) => `${o.method} ${o.path}`)
      .filter((key) => !registered.has(key));
    expect(phantom).toEqual([]);
    for (const { path, method } of operations()) {
      const url = path.replace(/\{([^}]+)\}/g, ':$1');
      expect(live.app.hasRoute({ method: method as 'GET', url }), `${method} ${path}`).toBe(true);
    }
  });

  it('declares the bearer scheme on every project route and on no public one', () => {
    expect(doc.components.securitySchemes.bearer).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
    for (const { path, method, op } of operations()) {
      // Registering a protocol writes to the shared registry: any project's editor token.
      const guarded =
        path.startsWith('/v1/projects/{project}') || `${method} ${path}` === 'POST /v1/protocols';
      expect(op.security, `${method} ${path}`).toEqual(guarded ? [{ bearer: [] }] : []);
      if (guarded) {
        expect(['owner', 'editor', 'agent', 'viewer']).toContain(op['x-min-role']);
        expect(op.responses['401']).toBeDefined();
        expect(op.responses['403']).toBeDefined();
      }
    }
    const publicPaths = operations()
      .filter((o) => o.op.security.length === 0)
      .map((o) => `${o.method} ${o.path}`)
      .sort();
    expect(publicPaths).toEqual([
      'GET /healthz',
      'GET /metrics',
      'GET /openapi.json',
      'GET /readyz',
      'GET /v1/protocols/{hash}',
      'GET /v1/trust',
      'POST /v1/validate',
    ]);
  });

  it('gives every operation a unique id, its path parameters, a success response and bodies with examples', () => {
    const ids = operations().map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, op } of operations()) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = op.parameters.filter((p: any) => p.in === 'path').map((p: any) => p.name);
      expect(declared, `${method} ${path}`).toEqual(names);
      for (const p of op.parameters) expect(p.schema).toBeDefined();
      const success = Object.keys(op.responses).filter((s) => s.startsWith('2'));
      expect(success.length, `${method} ${path}`).toBe(1);
      const content = op.responses[success[0]!].content;
      // JSON, or the live feed's event stream.
      expect((content['application/json'] ?? content['text/event-stream']).schema).toBeDefined();
      if (path.startsWith('/v1/projects/{project}') && op.requestBody) {
        expect(op.requestBody.content['application/json'].example).toBeDefined();
      }
    }
  });

  it('describes the error envelope with every code and refers to it from error responses', () => {
    const envelope = doc.components.schemas.Error;
    expect(envelope.required).toEqual(['error']);
    expect(envelope.properties.error.required).toEqual(['code', 'message']);
    expect([...envelope.properties.error.properties.code.enum].sort()).toEqual(
      Object.keys(ERROR_CODES).sort(),
    );
    for (const { path, op } of operations()) {
      for (const [status, response] of Object.entries<any>(op.responses)) {
        if (Number(status) < 400 || path === '/v1/validate') continue;
        expect(response.content['application/json'].schema).toEqual({
          $ref: '#/components/schemas/Error',
        });
        for (const code of response.description.split(', ')) {
          expect(ERROR_CODES[code as keyof typeof ERROR_CODES]?.status).toBe(Number(status));
        }
      }
    }
  });

  it('resolves every $ref inside the document', () => {
    const refs = [...raw.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(10);
    for (const name of new Set(refs)) expect(doc.components.schemas[name], name).toBeDefined();
  });

  it('needs no token, and a token does not change it', async () => {
    const anonymous = await call(live.url, 'GET', '/openapi.json', null);
    const withJunk = await call(live.url, 'GET', '/openapi.json', 'junk');
    expect(anonymous.status).toBe(200);
    expect(withJunk.body).toEqual(anonymous.body);
  });
});
