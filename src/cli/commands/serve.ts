import type { Command } from 'commander';
import { createCanonry, describeClassifier, resolveConfig } from '../../app/index.js';
import { DEVELOPMENT_ROOT_WARNING } from '../../trust/index.js';
import { listenError, probeAddress } from '../address.js';
import type { Faces } from '../faces.js';
import { DATA_FLAG, DB_FLAG } from '../runtime.js';

interface ServeOptions {
  port?: string;
  host?: string;
  data?: string;
  db?: string;
  verifyOnStart?: string;
}

/**
 * `canonry serve [--port P] [--host H] [--data DIR] [--db URL] [--verify-on-start tail|full]`: the
 * HTTP API (keys are created on first start). One logger serves the requests, the runtime's
 * background work and the process: a failure in the background is logged and the server stays up.
 */
export function serveCommand(program: Command, faces: Faces): void {
  program
    .command('serve')
    .description('serve the HTTP API (POST /v1/validate, GET /v1/trust, …)')
    .option('--port <port>', 'port to listen on (CANONRY_PORT, else 7070)')
    .option('--host <host>', 'address to bind (CANONRY_HOST, else 127.0.0.1)')
    .option(
      '--verify-on-start <scope>',
      'verify each chain since its last checkpoint (tail) or whole (full) before serving',
    )
    .option(...DATA_FLAG)
    .option(...DB_FLAG)
    .action(async (opts: ServeOptions) => {
      const input = {
        port: opts.port,
        host: opts.host,
        dataDir: opts.data,
        db: opts.db,
        verifyOnStart: opts.verifyOnStart,
      };
      const config = resolveConfig(input);
      // Before the data directory: a serve that cannot listen creates nothing.
      await probeAddress(config.host, config.port);
      const http = await faces.http();
      const logger = http.createLogger(config.logLevel);
      process.on('unhandledRejection', (err) => {
        logger.error({ err }, 'unhandled rejection (the server keeps running)');
      });
      const runtime = await createCanonry(input, {
        onError: (err) => logger.error({ err }, 'background work failed'),
        logger,
      });
      // TCP/AP §10: a development root must never pass for production attestation.
      if (runtime.keyring.development) {
        logger.warn({ root: runtime.keyring.rootFingerprint }, DEVELOPMENT_ROOT_WARNING);
        process.stderr.write(`canonry: warning: ${DEVELOPMENT_ROOT_WARNING}\n`);
      }
      const app = http.host(runtime, logger);
      const stop = async () => {
        await app.close();
        await runtime.close();
        process.exit(0);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      let address: string;
      try {
        address = await app.listen();
      } catch (err) {
        await runtime.close().catch(() => undefined);
        throw listenError(err, runtime.config.host, runtime.config.port);
      }
      process.stderr.write(
        `canonry listening on ${address} (data ${runtime.config.dataDir}, store ${runtime.store.description}, issuer ${runtime.kernel.issuerFingerprint})\n`,
      );
      process.stderr.write(`canonry: ${(await describeClassifier(runtime)).text}\n`);
    });
}
