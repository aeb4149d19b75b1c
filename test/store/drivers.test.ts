import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/runtime.js';

const HEAVY = ['gpt-tokenizer', 'better-sqlite3', 'pg'];
const temp = tempDir('canonry-drivers-');
afterAll(() => temp.cleanup());

/** A preload that makes `hide` unresolvable in its process, as if they had not been installed. */
function hiding(hide: readonly string[]): string {
  const file = join(temp.dir, `hide-${hide.join('-') || 'none'}.cjs`);
  writeFileSync(
    file,
    `const Module = require('node:module');
const hidden = ${JSON.stringify(hide)};
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (hidden.includes(request)) {
    const err = new Error("Cannot find module '" + request + "'");
    err.code = 'MODULE_NOT_FOUND';
    throw err;
  }
  return resolve.call(this, request, ...rest);
};
`,
  );
  return file;
}

/**
 * Runs `body` as an ES module in a fresh Node process at the repository root, so `canonry/…`
 * resolves to the built package as it does for a user; `loaded()` lists the heavy packages that
 * process has loaded so far. Returns what `body` printed, parsed.
 */
function inFreshProcess(body: string, hide: readonly string[] = []): any {
  const script = `
import { createRequire } from 'node:module';
const cache = createRequire(import.meta.url).cache;
const loaded = () => ${JSON.stringify(HEAVY)}.filter((p) =>
  Object.keys(cache).some((f) => f.includes('/node_modules/' + p + '/')));
${body}`;
  const child = spawnSync(
    process.execPath,
    ['--require', hiding(hide), '--input-type=module', '-e', script],
    { cwd: ROOT, encoding: 'utf8' },
  );
  expect(child.stderr).toBe('');
  expect(child.status).toBe(0);
  return JSON.parse(child.stdout);
}

describe('what importing canonry loads', () => {
  it('canonry/kernel, canonry/store and canonry load no driver and no tokenizer', () => {
    const seen = inFreshProcess(`
const out = {};
await import('canonry/kernel');
out.kernel = loaded();
await import('canonry/store');
out.store = loaded();
await import('canonry');
out.root = loaded();
console.log(JSON.stringify(out));`);
    expect(seen).toEqual({ kernel: [], store: [], root: [] });
  });

  it('loads a driver when its store is first opened, the tokenizer when a token is counted', () => {
    const db = join(temp.dir, 'lazy.db');
    const seen = inFreshProcess(`
const { SqliteStore } = await import('canonry/store');
const { countTokens } = await import('canonry/core');
const out = { before: loaded() };
const store = new SqliteStore(${JSON.stringify(db)});
out.rows = await store.all('SELECT 1 AS one');
await store.close();
out.opened = loaded();
out.tokens = countTokens('hello world');
out.counted = loaded();
console.log(JSON.stringify(out));`);
    expect(seen).toEqual({
      before: [],
      rows: [{ one: 1 }],
      opened: ['better-sqlite3'],
      tokens: 2,
      counted: ['gpt-tokenizer', 'better-sqlite3'],
    });
  });

  it('works as a kernel without the drivers installed; opening a store then names the package', () => {
    const seen = inFreshProcess(
      `
import { readFileSync } from 'node:fs';
const { compileProtocol, resolve } = await import('canonry/kernel');
const { SqliteStore, PostgresStore } = await import('canonry/store');
const protocol = compileProtocol(JSON.parse(readFileSync('examples/refund/protocol.json', 'utf8')));
const out = { verdict: resolve({ amount: 20 }, protocol).class };
for (const [name, open] of [
  ['sqlite', () => new SqliteStore(${JSON.stringify(join(temp.dir, 'none.db'))})],
  ['postgres', () => new PostgresStore({ connectionString: 'postgres://127.0.0.1:1/x' })],
]) {
  try { open(); out[name] = 'opened'; } catch (err) { out[name] = { code: err.code, message: err.message }; }
}
console.log(JSON.stringify(out));`,
      ['better-sqlite3', 'pg'],
    );
    expect(seen.verdict).toBe('CONFORMANT');
    expect(seen.sqlite).toEqual({
      code: 'STORE_UNAVAILABLE',
      message: expect.stringContaining('npm install better-sqlite3@^12'),
    });
    expect(seen.postgres).toEqual({
      code: 'STORE_UNAVAILABLE',
      message: expect.stringContaining('npm install pg@^8'),
    });
  });
});
