// @ts-check
/**
 * The HTTP signing floor: a Fastify server with one POST /v1/validate route that parses the same
 * JSON body (Fastify's default parser), signs as many bytes as a canonry conformance event with
 * Ed25519 (node:crypto, a key of its own), and answers 200 with a precomputed body (the bytes of a
 * real canonry response). It is what any server must spend that signs one event per request: the
 * honest floor for `POST /v1/validate`. With `--pool` the signature is made on libuv's thread pool
 * (node:crypto's callback form), as canonry signs: a reference row, not the target's baseline.
 * Usage: node bench/kernel/signing-floor-server.js <response-file> <signed-bytes> [port] [--pool]
 * Prints `listening on <url>` on stderr once ready.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const args = process.argv.slice(2);
const pool = args.includes('--pool');
const [file, length, port = '0'] = args.filter((a) => a !== '--pool');
if (!file || !length)
  throw new Error('usage: signing-floor-server.js <response-file> <signed-bytes> [port]');
const body = readFileSync(file);
const { privateKey } = generateKeyPairSync('ed25519');
const message = Buffer.alloc(Number(length), 0x61);

const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
app.post('/v1/validate', async (_request, reply) => {
  if (pool) {
    await new Promise((resolve, reject) =>
      sign(null, message, privateKey, (error, signature) =>
        error ? reject(error) : resolve(signature),
      ),
    );
  } else {
    sign(null, message, privateKey);
  }
  return reply.code(200).type('application/json').send(body);
});

const url = await app.listen({ port: Number(port), host: '127.0.0.1' });
process.stderr.write(`listening on ${url}\n`);
process.once('SIGTERM', () => app.close().then(() => process.exit(0)));
