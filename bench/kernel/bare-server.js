// @ts-check
/**
 * The HTTP baseline: a bare Fastify server with one POST /v1/validate route that parses the same
 * JSON body (Fastify's default parser) and answers 200 with a precomputed body (the bytes of a real
 * canonry response). Usage: node bench/kernel/bare-server.js <response-file> [port]
 * Prints `listening on <url>` on stderr once ready.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [file, port = '0'] = process.argv.slice(2);
if (!file) throw new Error('usage: bare-server.js <response-file> [port]');
const body = readFileSync(file);

const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
app.post('/v1/validate', async (_request, reply) =>
  reply.code(200).type('application/json').send(body),
);

const url = await app.listen({ port: Number(port), host: '127.0.0.1' });
process.stderr.write(`listening on ${url}\n`);
process.once('SIGTERM', () => app.close().then(() => process.exit(0)));
