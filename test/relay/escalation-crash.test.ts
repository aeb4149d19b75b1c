// CRP-030 §6.3: a relay window escalates a decision at the revision bound (a canon proposal held for
// a person) before it commits. A child process (test/fixtures/relay-window-crash.mjs, over the
// built package) completes window 4 of a session at the bound and is killed with SIGKILL after its
// escalation is journaled and before its window commits; this process then resumes the session. A
// person must see one question for the decision, the one the committed CSO names. Before the fix
// the resumed window escalated again and left two pending. A person who answered the dead
// attempt's question before the session resumed is not asked again: the answer is the escalation.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import type { Principal } from '../../src/canon/index.js';
import { verifyProject } from '../../src/journal/index.js';
import { requireBuilt } from '../fixtures/writers.js';
import { ROOT, tempDir } from '../helpers/runtime.js';
import { ENGINES, freshPostgresSchema } from '../helpers/stores.js';
import { atTheRevisionBound } from './revision-bound.js';

const PROJECT = 'relay-crash';
const AGENT: Principal = { id: 'agent-1', project: PROJECT, role: 'agent' };
const OWNER: Principal = { id: 'owner-1', project: PROJECT, role: 'owner' };

/** Runs the session's next window in a child and kills it at its commit; the ids it escalated. */
async function crashAtCommit(
  dataDir: string,
  db: string,
  sessionId: string,
  contribution: unknown,
): Promise<string[]> {
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'test/fixtures/relay-window-crash.mjs'),
      dataDir,
      db,
      JSON.stringify(AGENT),
      sessionId,
      JSON.stringify(contribution),
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_code, signal) => resolve(signal)),
  );
  const escalated = await new Promise<string[]>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const line = /^committing (.*)$/m.exec(stdout);
      if (line) resolve(line[1]!.split(',').filter(Boolean));
    });
    void exited.then(() => reject(new Error(`the child ended first: ${stdout} ${stderr}`)));
  });
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  return escalated;
}

/** What a crashed window left, on a runtime opened again over it. */
interface Crashed {
  readonly runtime: CanonryRuntime;
  readonly id: string;
  readonly supersedeAgain: unknown;
  /** What the killed attempt escalated. */
  readonly escalated: string[];
  readonly objectId: string;
}

/**
 * A session brought to the revision bound on `engine`, its window 4 killed at its commit in a
 * child, and the runtime opened again: `then` gets what was left; everything is closed after.
 */
async function afterACrash(
  engine: (typeof ENGINES)[number],
  then: (crashed: Crashed) => Promise<void>,
): Promise<void> {
  requireBuilt();
  const { dir, cleanup } = tempDir('canonry-relay-crash-');
  const pg = engine.name === 'postgres' ? await freshPostgresSchema() : undefined;
  let runtime: CanonryRuntime | undefined;
  try {
    runtime = await createCanonry({ dataDir: dir, db: pg?.url, logLevel: 'silent' });
    const { id, supersedeAgain } = await atTheRevisionBound(runtime, AGENT);
    await runtime.close();
    runtime = undefined;
    const escalated = await crashAtCommit(dir, pg?.url ?? '-', id, supersedeAgain);
    runtime = await createCanonry(
      { dataDir: dir, db: pg?.url, logLevel: 'silent' },
      { create: false },
    );
    await then({ runtime, id, supersedeAgain, escalated, objectId: `relay.${id}.d_db2` });
  } finally {
    await runtime?.close();
    await pg?.drop();
    cleanup();
  }
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(
    `a relay window killed between escalation and commit: ${engine.name}`,
    () => {
      it('leaves one question for a person when the session is resumed: the one the committed CSO names (§6.3)', async () => {
        await afterACrash(engine, async ({ runtime, id, supersedeAgain, escalated, objectId }) => {
          const [orphan, ...more] = escalated;
          expect(more).toEqual([]);
          const pendingFor = async () =>
            (await runtime.canon.reader(PROJECT).proposals('pending'))
              .filter((p) => p.object_id === objectId)
              .map((p) => p.proposal_id);
          // What the crash left: window 4 never committed, its question for a person did.
          expect((await runtime.relay.state(AGENT, id)).windows).toBe(3);
          expect(await pendingFor()).toEqual([orphan]);

          // Resumed (the library calling completeWindow again for window 4, as `relay resume` does).
          const w4 = await runtime.relay.completeWindow(AGENT, id, '', supersedeAgain);
          expect(w4.status).toBe('relayed');
          const named = w4.cso!.decisions.find((d) => d.decision_id === 'd_db2')?.escalated;
          expect(await pendingFor()).toEqual([named]);
          // The question a person may already be reading is the one kept.
          expect(named).toBe(orphan);
          expect(w4.revisions).toMatchObject([
            { target: 'd_db2', revised_by: null, escalation: { proposal_id: orphan } },
          ]);
          expect((await runtime.relay.prepareWindow(AGENT, id)).kind).toBe('work');
          expect(await runtime.relay.verify(AGENT, id)).toMatchObject({ ok: true });
          expect((await verifyProject(runtime.journal, PROJECT)).broken).toBeNull();
          const approved = await runtime.canon.approve(OWNER, orphan!);
          expect(approved.committed?.note_id).toBe(objectId);
        });
      });

      for (const answer of ['approves', 'rejects'] as const) {
        it(`takes the answer of a person who ${answer} the question before the session resumes: not asked again`, async () => {
          await afterACrash(
            engine,
            async ({ runtime, id, supersedeAgain, escalated, objectId }) => {
              const [orphan] = escalated;
              // The person reads the question the dead attempt asked, and answers it.
              if (answer === 'approves') await runtime.canon.approve(OWNER, orphan!);
              else await runtime.canon.reject(OWNER, orphan!, 'the decision does not stand');

              const w4 = await runtime.relay.completeWindow(AGENT, id, '', supersedeAgain);
              expect(w4.status).toBe('relayed');
              // The answered question is the window's escalation; none other was asked.
              const named = w4.cso!.decisions.find((d) => d.decision_id === 'd_db2')?.escalated;
              expect(named).toBe(orphan);
              const asked = (await runtime.canon.reader(PROJECT).proposals())
                .filter((p) => p.object_id === objectId && p.candidate.tags.includes('oversight'))
                .map((p) => p.proposal_id);
              expect(asked).toEqual([orphan]);
              expect(w4.revisions).toMatchObject([
                { target: 'd_db2', revised_by: null, escalation: { proposal_id: orphan } },
              ]);
              expect(await runtime.relay.verify(AGENT, id)).toMatchObject({ ok: true });
              expect((await verifyProject(runtime.journal, PROJECT)).broken).toBeNull();
            },
          );
        });
      }
    },
  );
}
