// `canonry events verify` as the built CLI still checks every stored event although the operation
// answers one bounded page: with no --after or --limit it asks for each page in turn and prints one
// report, exiting 1 for an edited event past the first page; --limit asks for one page alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVOLUTION_FEEDBACK, MAX_VERIFY_PAGE } from '../../src/evolution/index.js';
import { runCli } from '../helpers/cli.js';
import { copiesOfEvent, evolutionRuntime } from '../helpers/evolution.js';
import { tempDir } from '../helpers/runtime.js';

const PROJECT = 'evo-pages';
const COPIES = MAX_VERIFY_PAGE * 2 + 10;
const { dir, cleanup } = tempDir();

beforeAll(async () => {
  const rt = await evolutionRuntime(dir);
  try {
    await rt.journal.append(
      PROJECT,
      EVOLUTION_FEEDBACK.input(
        { feedback_id: 'fb-1', subject: 'work-1', score: 0.5, principal: 'ada', remember: null },
        { actor: 'ada' },
      ),
    );
    await rt.evolution!.idle();
    await copiesOfEvent(rt, PROJECT, COPIES);
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
