// Processes started together on a fresh data directory (a server, a CLI command, a demo): each
// opens the keyring as a server does, creating it when there is none. One of them creates it; the
// others must wait for it and open the same one, never fail on a keyring still being written.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/runtime.js';

const RACER = join(ROOT, 'test/fixtures/keyring-first-open.mjs');

/** Starts a racer on `dir`; resolves to its handle once it printed `ready`. */
async function racer(dir: string) {
  const child = spawn(process.execPath, [RACER, dir], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  const ready = new Promise<void>((done) => {
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      if (out.startsWith('ready\n')) done();
    });
  });
  // 'close', not 'exit': when the child has exited, its last line may still be in the pipe.
  const answer = new Promise<{ root?: string; code?: string }>((done) =>
    child.on('close', () => done(JSON.parse(out.split('\n')[1] ?? '{}'))),
  );
  await ready;
  return { go: () => child.stdin.write('go\n'), answer };
}

describe('a keyring made by processes that start together', () => {
  it('is made once, and every process opens that one', async () => {
    for (let round = 0; round < 4; round++) {
      const dir = mkdtempSync(join(tmpdir(), 'canonry-keyring-race-'));
      try {
        const racers = await Promise.all(Array.from({ length: 6 }, () => racer(dir)));
        for (const r of racers) r.go();
        const answers = await Promise.all(racers.map((r) => r.answer));
        expect(answers.map((a) => a.code && JSON.stringify(a))).toEqual(
          answers.map(() => undefined),
        );
        expect(new Set(answers.map((a) => a.root)).size).toBe(1);
        expect(answers[0]!.root).toMatch(/^sha256:[0-9a-f]{64}$/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }, 60_000);
});
