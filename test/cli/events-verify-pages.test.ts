// `canonry events verify` as the built CLI still checks every stored event although the operation
// answers one bounded page: with no --after or --limit it asks for each page in turn and prints one
// report, exiting 1 for an edited event past the first page; --limit asks for one page alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanonry } from '../../src/app/index.js';
import { EVOLUTION_FEEDBACK, MAX_VERIFY_PAGE } from '../../src/evolution/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/runtime.js';

const PROJECT = 'evo-pages';
const COPIES = MAX_VERIFY_PAGE * 2 + 10;
const { dir, cleanup } = tempDir();

beforeAll(async () => {
  const rt = await createCanonry(
    { dataDir: dir, evolution: 'on', logLevel: 'silent' },
    { evolution: { sleep: async () => undefined } },
  );
  try {
    await rt.journal.append(
      PROJECT,
      EVOLUTION_FEEDBACK.input(
        { feedback_id: 'fb-1', subject: 'work-1', score: 0.5, principal: 'ada', remember: null },
        { actor: 'ada' },
      ),
    );
    await rt.evolution!.idle();
    const [row] = await rt.store.all<{ seq: number | string }>(
      'SELECT seq FROM evolution_events WHERE project = $1',
      [PROJECT],
    );
    const first = Number(row!.seq);
    // The one signed event stored again under more ids, each verifying as the original does; the
    // last copy (on the third page) is then edited.
    for (let i = 1; i <= COPIES; i++) {
      await rt.store.run(
        `INSERT INTO evolution_events (project, event_id, seq, event_type, class, schema_version, created_at, pending, record)
         SELECT project, $2, $3, event_type, class, schema_version, created_at, 0, record
         FROM evolution_events WHERE project = $1 AND seq = $4`,
        [PROJECT, `copy-${i}`, first + 1_000 + i, first],
      );
    }
    const [stored] = await rt.store.all<{ record: string }>(
      'SELECT record FROM evolution_events WHERE project = $1 AND event_id = $2',
      [PROJECT, `copy-${COPIES}`],
    );
    const record = JSON.parse(stored!.record);
    record.event.outcome.score = 0.9;
    await rt.store.run(
      'UPDATE evolution_events SET record = $1 WHERE project = $2 AND event_id = $3',
      [JSON.stringify(record), PROJECT, `copy-${COPIES}`],
    );
  } finally {
    await rt.close();
  }
});
afterAll(() => cleanup());

describe('canonry events verify over pages', () => {
  it('checks every page and exits 1 for an edited event past the first', async () => {
    const run = await runCli(['events', 'verify', '--project', PROJECT, '--data', dir, '--json']);
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ ok: false, checked: COPIES + 1, verified: COPIES, next: null });
    expect(report.failed.map((f: { event_id: string }) => f.event_id)).toEqual([`copy-${COPIES}`]);
  });

  it('with --limit asks for that one page', async () => {
    const run = await runCli([
      'events',
      'verify',
      '--project',
      PROJECT,
      '--data',
      dir,
      '--limit',
      '2',
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ ok: true, checked: 2, verified: 2 });
    expect(typeof report.next).toBe('number');
  });
});
