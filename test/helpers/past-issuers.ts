import { vi } from 'vitest';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import { Keyring } from '../../src/trust/index.js';
import { create, principals } from './canon.js';
import { acceptNotes } from './journal.js';

const DAY = 24 * 3600 * 1000;

/** When the two past issuers of {@link dataDirWithPastCheckpoints} were made. */
export interface CheckpointIssuers {
  /** The expired issuer's start: 10 years and 30 days ago (issuers live 10 years, roots 20). */
  readonly made: Date;
  /** The start of the issuer dated ahead: a month from now (a clock set wrong where it was made). */
  readonly ahead: Date;
}

const pastInstants = () => ({
  made: new Date(Date.now() - (10 * 365 + 2 + 30) * DAY),
  ahead: new Date(Date.now() + 30 * DAY),
});

/**
 * Runs `fn` on a runtime of `dir` with `Date` at `instant` (timers stay real), so its active issuer
 * signs as it did then; closes it and gives the real clock back.
 */
async function runtimeAt<T>(
  dir: string,
  instant: Date,
  fn: (runtime: CanonryRuntime) => Promise<T>,
): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'], now: instant });
  try {
    const runtime = await createCanonry({ dataDir: dir, logLevel: 'silent' });
    try {
      return await fn(runtime);
    } finally {
      await runtime.close();
    }
  } finally {
    vi.useRealTimers();
  }
}

/** A runtime on `dir` at `instant` appends three notes to `project` and signs a checkpoint at them. */
async function threeNotesSigned(dir: string, project: string, instant: Date): Promise<void> {
  await runtimeAt(dir, instant, async (runtime) => {
    acceptNotes(runtime);
    for (let i = 1; i <= 3; i++) {
      await runtime.journal.append(project, { kind: 'test.note', body: { i }, actor: 'tester' });
    }
    await runtime.journal.checkpoint(project);
  });
}

/**
 * A data directory whose projects carry checkpoints of issuers not valid now: `old`'s (3 entries,
 * checkpoint at seq 3) was signed a day into an issuer that expired a month ago, `early`'s (the
 * same) a day into one dated a month ahead. The keyring's active issuer, rotated in last, is valid
 * now, so a runtime starts on it.
 */
export async function dataDirWithPastCheckpoints(dir: string): Promise<CheckpointIssuers> {
  const { made, ahead } = pastInstants();
  const keyring = await Keyring.init(dir, { now: made });
  await threeNotesSigned(dir, 'old', new Date(made.getTime() + DAY));
  await keyring.rotate({ now: ahead });
  await threeNotesSigned(dir, 'early', new Date(ahead.getTime() + DAY));
  await keyring.rotate();
  return { made, ahead };
}

/** The proposal of {@link dataDirWithExpiredGate}, and when its gate's issuer was valid. */
export interface ExpiredGate {
  /** The issuer's start: 10 years and 30 days ago; it expired a month ago. */
  readonly made: Date;
  /** When the proposal was recorded (and its gate signed): a day into the issuer's window. */
  readonly recorded: Date;
  readonly proposal_id: string;
  /** The gate's label, as it was signed. */
  readonly label: string;
}

/**
 * A data directory whose project `atelier` holds one proposal (an editor's `create` of `fact-1`)
 * recorded, and its gate verdict signed, a day into an issuer that expired a month ago; the
 * keyring's active issuer, rotated in since, is valid now.
 */
export async function dataDirWithExpiredGate(dir: string): Promise<ExpiredGate> {
  const { made } = pastInstants();
  const recorded = new Date(made.getTime() + DAY);
  const keyring = await Keyring.init(dir, { now: made });
  const outcome = await runtimeAt(dir, recorded, (runtime) =>
    create(runtime, principals().editor, 'fact-1'),
  );
  await keyring.rotate();
  return {
    made,
    recorded,
    proposal_id: outcome.proposal.proposal_id,
    label: outcome.proposal.gate.label,
  };
}
