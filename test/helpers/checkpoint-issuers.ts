import { vi } from 'vitest';
import { createCanonry } from '../../src/app/index.js';
import { Keyring } from '../../src/trust/index.js';
import { acceptNotes } from './journal.js';

const DAY = 24 * 3600 * 1000;

/** When the two past issuers of {@link dataDirWithPastCheckpoints} were made. */
export interface CheckpointIssuers {
  /** The expired issuer's start: 10 years and 30 days ago (issuers live 10 years, roots 20). */
  readonly made: Date;
  /** The start of the issuer dated ahead: a month from now (a clock set wrong where it was made). */
  readonly ahead: Date;
}

/** Runs `fn` with `Date` at `instant` (timers stay real), then gives the real clock back. */
async function atInstant<T>(instant: Date, fn: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'], now: instant });
  try {
    return await fn();
  } finally {
    vi.useRealTimers();
  }
}

/** A runtime on `dir` at `instant` appends three notes to `project` and signs a checkpoint at them. */
async function threeNotesSigned(dir: string, project: string, instant: Date): Promise<void> {
  await atInstant(instant, async () => {
    const runtime = acceptNotes(await createCanonry({ dataDir: dir, logLevel: 'silent' }));
    try {
      for (let i = 1; i <= 3; i++) {
        await runtime.journal.append(project, { kind: 'test.note', body: { i }, actor: 'tester' });
      }
      await runtime.journal.checkpoint(project);
    } finally {
      await runtime.close();
    }
  });
}

/**
 * A data directory whose projects carry checkpoints of issuers not valid now: `old`'s (3 entries,
 * checkpoint at seq 3) was signed a day into an issuer that expired a month ago, `early`'s (the
 * same) a day into one dated a month ahead. The keyring's active issuer, rotated in last, is valid
 * now, so a runtime starts on it.
 */
export async function dataDirWithPastCheckpoints(dir: string): Promise<CheckpointIssuers> {
  const made = new Date(Date.now() - (10 * 365 + 2 + 30) * DAY);
  const ahead = new Date(Date.now() + 30 * DAY);
  const keyring = await Keyring.init(dir, { now: made });
  await threeNotesSigned(dir, 'old', new Date(made.getTime() + DAY));
  await keyring.rotate({ now: ahead });
  await threeNotesSigned(dir, 'early', new Date(ahead.getTime() + DAY));
  await keyring.rotate();
  return { made, ahead };
}
