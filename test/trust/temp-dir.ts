import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

const created: string[] = [];

/** A fresh, empty temporary directory, removed after the current test. */
export async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'canonry-trust-'));
  created.push(dir);
  return dir;
}

afterEach(async () => {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** The CanonryError code a promise rejects with, 'RESOLVED' if it resolves. */
export async function rejectionCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'RESOLVED';
  } catch (error) {
    return (error as { code?: string }).code ?? 'UNTYPED';
  }
}
