import type { Command } from 'commander';
import { createCanonry } from '../../app/index.js';
import { buildServer, listen } from '../../server/index.js';
import { DATA_FLAG, DB_FLAG } from '../runtime.js';

/** `canonry serve [--port P] [--host H] [--data DIR]`: the HTTP API (keys are created on first start). */
export function serveCommand(program: Command): void {
  program
    .command('serve')
    .description('serve the HTTP API (POST /v1/validate, GET /v1/trust, …)')
    .option('--port <port>', 'port to listen on (CANONRY_PORT, else 7070)')
    .option('--host <host>', 'address to bind (CANONRY_HOST, else 127.0.0.1)')
    .option(...DATA_FLAG)
    .option(...DB_FLAG)
    .action(async (opts: { port?: string; host?: string; data?: string; db?: string }) => {
      const runtime = await createCanonry(
        { port: opts.port, host: opts.host, dataDir: opts.data, db: opts.db },
        {
          onError: (err) =>
            process.stderr.write(`canonry: background write failed: ${String(err)}\n`),
        },
      );
      const app = buildServer(runtime);
      const stop = async () => {
        await app.close();
        await runtime.close();
        process.exit(0);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      const address = await listen(app, runtime);
      process.stderr.write(
        `canonry listening on ${address} (data ${runtime.config.dataDir}, store ${runtime.store.description}, issuer ${runtime.kernel.issuerFingerprint})\n`,
      );
    });
}
