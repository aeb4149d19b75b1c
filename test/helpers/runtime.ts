import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import { buildServer } from '../../src/server/index.js';

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDir(prefix = 'canonry-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Reads a JSON file relative to the repository root. */
export function readRepoJson(path: string): unknown {
  return JSON.parse(readFileSync(join(ROOT, path), 'utf8'));
}

/**
 * A runtime on a fresh data directory, whose `classifiers/<project>.json` files are written before it
 * starts.
 */
export async function freshRuntime(classifiers: Record<string, unknown> = {}): Promise<{
  runtime: CanonryRuntime;
  dir: string;
  close: () => Promise<void>;
}> {
  const { dir, cleanup } = tempDir();
  if (Object.keys(classifiers).length > 0) {
    mkdirSync(join(dir, 'classifiers'), { recursive: true });
    for (const [project, config] of Object.entries(classifiers)) {
      writeFileSync(join(dir, 'classifiers', `${project}.json`), JSON.stringify(config));
    }
  }
  const runtime = await createCanonry({ dataDir: dir, logLevel: 'silent' });
  return {
    runtime,
    dir,
    close: async () => {
      await runtime.close();
      cleanup();
    },
  };
}

/** A real server listening on loopback with an ephemeral port (over {@link freshRuntime}). */
export async function liveServer(classifiers: Record<string, unknown> = {}): Promise<{
  url: string;
  app: FastifyInstance;
  runtime: CanonryRuntime;
  dir: string;
  close: () => Promise<void>;
}> {
  const fresh = await freshRuntime(classifiers);
  const app = buildServer(fresh.runtime, { logLevel: 'silent' });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: address,
    app,
    runtime: fresh.runtime,
    dir: fresh.dir,
    close: async () => {
      await app.close();
      await fresh.close();
    },
  };
}

/** The Appendix A refund guard, complete. */
export function refundProtocol(): Record<string, unknown> {
  return readRepoJson('examples/refund/protocol.json') as Record<string, unknown>;
}
