// Which methods answer a path, for a 405's `Allow`: the same answer Fastify's own router gives —
// a regular-expression parameter that does not match, or a parameter past Fastify's length bound,
// is no route at all (404), not a route answered with another method.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methodsAt, recordRoutes } from '../../src/server/route-table.js';

const app = Fastify();
beforeAll(async () => {
  recordRoutes(app);
  app.get('/items/:id(^\\d+)', async () => 'item');
  app.delete('/items/:id(^\\d+)', async () => 'gone');
  app.post('/notes/:name', async () => 'note');
  app.get('/files/*', async () => 'file');
  await app.ready();
});
afterAll(() => app.close());

describe('methodsAt', () => {
  it('answers with every method whose route matches the path, sorted', () => {
    expect(methodsAt(app, '/items/12')).toEqual(['DELETE', 'GET']);
    expect(methodsAt(app, '/notes/a%20b?x=1')).toEqual(['POST']);
    expect(methodsAt(app, '/files/deep/down/here')).toEqual(['GET']);
  });

  it('agrees with the router where a plain segment match would not', async () => {
    for (const path of ['/items/xy', `/notes/${'n'.repeat(101)}`, '/items', '/notes/a/b']) {
      expect({ path, methods: methodsAt(app, path) }).toEqual({ path, methods: [] });
    }
    // Fastify itself does not route them, with any method: no route, or a parameter over its bound.
    expect((await app.inject({ method: 'GET', url: '/items/xy' })).statusCode).toBe(404);
    expect(
      (await app.inject({ method: 'POST', url: `/notes/${'n'.repeat(101)}` })).statusCode,
    ).toBe(414);
  });
});
