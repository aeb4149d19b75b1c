// `canonry relay run|verify|show` and `canonry demo relay`, as the built CLI (child processes) on a
// real data directory: a session run by the scripted author, its chain checked (and found broken
// once its projection is edited), its windows shown; usage errors answer as JSON with --json.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/canon/index.js';
import { scriptedAuthor } from '../../src/cli/relay/author.js';
import { RecordingModel } from '../../src/models/index.js';
import { issueTokens, runCli } from '../helpers/cli.js';
import { freshRuntime, tempDir } from '../helpers/runtime.js';

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  ({ dir, cleanup } = tempDir('canonry-relay-cli-'));
});
afterAll(() => cleanup?.());

const relay = (args: string[]) =>
  runCli(['relay', ...args, '--data', dir], { env: { CANONRY_TOKEN: '', CANONRY_PROJECT: '' } });

/** `relay run` of a DOCUMENT session on the scripted author, its figures as JSON. */
const runDocument = (objective: string, sections: string, more: string[] = []) =>
  relay([
    'run',
    '--mode',
    'DOCUMENT',
    '--objective',
    objective,
    '--sections',
    sections,
    ...more,
    '--json',
  ]);

describe('canonry relay run | resume | verify | show', () => {
  let id = '';

  it('runs a DOCUMENT session on the scripted author: a line per window, JSON figures on stdout', async () => {
    const run = await runDocument('An onboarding guide', 'Accounts, Laptops,Access');
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout);
    id = out.session_id;
    expect(id).toMatch(/^rs-[0-9a-f]{16}$/);
    expect(out).toMatchObject({ status: 'complete', project: 'relay' });
    expect(out.windows).toEqual(
      [1, 2, 3].map((n) =>
        expect.objectContaining({
          window_number: n,
          kind: 'work',
          preservation: 1,
          repaired: 0,
          facts: n,
          decisions: n,
          revisions: 0,
          // CRP-018: every window measured; the last covers what was left of the goal.
          repetition: expect.any(Number),
          fabrications: 0,
          session_iq: expect.any(Number),
          iap_tokens: expect.any(Number),
        }),
      ),
    );
    expect(out.windows[2].completeness).toBe(1);
    const [named, ...lines] = run.stderr.trim().split('\n');
    expect(named).toBe(
      `session ${id} (project relay) started; \`canonry relay resume ${id}\` goes on from where it stops`,
    );
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(
      /^window 3\/3\s+work\s+preservation 1\.00\s+facts 3\s+decisions 3\s+revisions 0\s+repetition \d+\.\d% fabrications 0 completeness 1\.00 IQ \d+ IAP \d+ tokens$/,
    );
  }, 60_000);

  it('shows the session, its windows and the latest CSO (and the raw view with --json)', async () => {
    const shown = await relay(['show', id]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(
      `session ${id} (DOCUMENT, complete) in project relay, 3 windows`,
    );
    expect(shown.stdout).toContain('outline     Accounts, Laptops, Access');
    expect(shown.stdout).toMatch(/window 2\s+work\s+preservation 1\.00/);
    expect(shown.stdout).toContain('f_s2_laptops');
    expect(shown.stdout).toMatch(/d_s3_access\s+write Access as a section of its own/);
    const raw = JSON.parse((await relay(['show', id, '--json'])).stdout);
    expect(raw.state).toMatchObject({ status: 'complete', windows: 3 });
    expect(raw.windows.map((w: any) => w.window_number)).toEqual([1, 2, 3]);
    expect(raw.state.cso.cso_hmac).toBe(raw.windows[2].cso.cso_hmac);
  }, 60_000);

  it('verifies the chain, and names the window whose served state differs from the journal', async () => {
    const ok = await relay(['verify', id]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(new RegExp(`^ok: ${id}: 3 windows`));

    const db = new Database(join(dir, 'canonry.db'));
    try {
      const changed = db
        .prepare(
          "UPDATE relay_windows SET record = replace(record, 'section Laptops is drafted', 'section Laptops was skipped') WHERE session_id = ? AND window_number = 2",
        )
        .run(id);
      expect(changed.changes).toBe(1);
    } finally {
      db.close();
    }
    const broken = await relay(['verify', id]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(`broken: ${id} window 2 (projection)`);
    const json = await relay(['verify', id, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      broken: { window_number: 2, reason: 'projection' },
    });
  }, 60_000);

  it('resumes a session a run left active from its next window; a closed or unknown one is refused', async () => {
    const first = await runDocument('A runbook', 'Alerts,Escalation,Rollback,Postmortem', [
      '--max-windows',
      '2',
    ]);
    expect(first.code, first.stderr).toBe(0);
    const started = JSON.parse(first.stdout);
    expect(started).toMatchObject({ status: 'active' });
    expect(started.windows.map((w: any) => w.window_number)).toEqual([1, 2]);
    const session = started.session_id;

    const resumed = await relay(['resume', session]);
    expect(resumed.code, resumed.stderr).toBe(0);
    // The lines go on from window 3 of the four sections, and the summary counts the new ones.
    const lines = resumed.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^window 3\/4\s+work\s+preservation 1\.00\s+facts 3\s+decisions 3/);
    expect(lines[1]).toMatch(/^window 4\/4\s+work\s+preservation 1\.00\s+facts 4\s+decisions 4/);
    expect(resumed.stdout.trim()).toBe(
      `session ${session} (project relay) complete after 2 more windows`,
    );
    const ok = await relay(['verify', session]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(new RegExp(`^ok: ${session}: 4 windows`));
    const shown = JSON.parse((await relay(['show', session, '--json'])).stdout);
    expect(shown.windows.map((w: any) => w.window_number)).toEqual([1, 2, 3, 4]);
    expect(shown.state.cso.established_facts).toHaveLength(4);

    const closed = await relay(['resume', session, '--json']);
    expect(closed.code).toBe(1);
    expect(JSON.parse(closed.stdout).error).toMatchObject({
      code: 'SESSION_CLOSED',
      message: expect.stringContaining('is complete'),
    });
    const unknown = await relay(['resume', 'rs-0000000000000000', '--json']);
    expect(JSON.parse(unknown.stdout).error.code).toBe('UNKNOWN_SESSION');
    const malformed = await relay(['resume', 'rs-; DROP', '--json']);
    expect(JSON.parse(malformed.stdout).error.code).toBe('INVALID_ARGUMENT');
    // Nothing was created where there was no data directory.
    const nowhere = join(dir, 'never-used');
    const missing = await runCli(['relay', 'resume', session, '--data', nowhere, '--json'], {
      env: { CANONRY_TOKEN: '', CANONRY_PROJECT: '' },
    });
    expect(JSON.parse(missing.stdout).error.code).toBe('KEYRING_MISSING');
    expect(existsSync(nowhere)).toBe(false);
  }, 90_000);

  it('answers usage and input errors as typed errors, as JSON with --json', async () => {
    const usage = await relay(['run', '--objective', 'x', '--json']);
    expect(usage.code).toBe(1);
    expect(JSON.parse(usage.stdout).error).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(JSON.parse(usage.stdout).error.message).toContain('--mode');

    const model = await relay([
      'run',
      '--mode',
      'DOCUMENT',
      '--objective',
      'x',
      '--model',
      'gpt',
      '--json',
    ]);
    expect(JSON.parse(model.stdout).error.code).toBe('INVALID_ARGUMENT');
    const mode = await relay(['run', '--mode', 'POETRY', '--objective', 'x', '--json']);
    expect(JSON.parse(mode.stdout).error).toMatchObject({ code: 'INVALID_BODY' });
    const replay = await relay([
      'run',
      '--mode',
      'DOCUMENT',
      '--objective',
      'x',
      '--model',
      `replay:${join(dir, 'no-such.jsonl')}`,
    ]);
    expect(replay.code).toBe(1);
    expect(replay.stderr).toContain('canonry: FILE_UNREADABLE:');

    const unknown = await relay(['show', 'rs-0000000000000000']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('canonry: UNKNOWN_SESSION:');
  }, 120_000);

  it('checks every flag and the model before it opens anything: a bad one writes nothing', async () => {
    const fresh = join(dir, 'never-made');
    const base = ['relay', 'run', '--objective', 'x', '--sections', 'a', '--data', fresh];
    for (const flags of [
      ['--mode', 'FOO'],
      ['--mode', 'DOCUMENT', '--max-revisions', '0'],
      ['--mode', 'DOCUMENT', '--air-mode', 'bogus'],
      ['--mode', 'DOCUMENT', '--air-iap-budget', '16385'],
      ['--mode', 'DOCUMENT', '--model', 'bogus'],
      ['--mode', 'DOCUMENT', '--model', `replay:${join(dir, 'no-such.jsonl')}`],
      ['--mode', 'DOCUMENT', '--db', 'mysql://x'],
    ]) {
      const res = await runCli([...base, ...flags], {
        env: { CANONRY_TOKEN: '', CANONRY_PROJECT: '' },
      });
      expect(res.code, flags.join(' ')).toBe(1);
      expect(existsSync(fresh), flags.join(' ')).toBe(false);
    }
    // 0 is a budget (CRP-018 §6.1: no packet injected), not a refusal.
    const none = await runCli([...base, '--mode', 'DOCUMENT', '--air-iap-budget', '0', '--json'], {
      env: { CANONRY_TOKEN: '', CANONRY_PROJECT: '' },
    });
    expect(none.code, none.stderr).toBe(0);
    expect(JSON.parse(none.stdout).windows.length).toBeGreaterThan(0);
  }, 120_000);

  it('replays recorded model answers (replay:FILE): the same windows, no model server', async () => {
    // Record a session written by the scripted author in process, on another data directory.
    const fresh = await freshRuntime();
    const recorder: Principal = { id: 'rec', project: 'relay', role: 'agent' };
    let jsonl = '';
    try {
      const relay = fresh.runtime.relay;
      const { session } = await relay.start(recorder, {
        mode: 'AGENTIC',
        objective: 'Rotate the database credentials',
        remaining: ['inventory', 'rotate'],
      });
      const id = session.session_id;
      const model = new RecordingModel(
        scriptedAuthor({
          prepare: () => relay.prepareWindow(recorder, id),
          state: () => relay.state(recorder, id),
        }),
      );
      const recorded = await relay.run(recorder, id, model);
      expect(recorded.status).toBe('complete');
      jsonl = model.toJsonl();
    } finally {
      await fresh.close();
    }
    const file = join(dir, 'recorded.jsonl');
    writeFileSync(file, jsonl);
    const args = ['run', '--mode', 'AGENTIC', '--objective', 'Rotate the database credentials'];
    const replayed = await relay([
      ...args,
      '--sections',
      'inventory,rotate',
      '--model',
      `replay:${file}`,
      '--json',
    ]);
    expect(replayed.code, replayed.stderr).toBe(0);
    const out = JSON.parse(replayed.stdout);
    expect(out.status).toBe('complete');
    expect(out.windows.map((w: any) => [w.window_number, w.facts, w.decisions])).toEqual([
      [1, 1, 1],
      [2, 2, 2],
    ]);
    // Another session asks what was never recorded: the model is unavailable, nothing made up.
    const unrecorded = await relay([
      ...args,
      '--sections',
      'inventory,rotate,audit',
      '--model',
      `replay:${file}`,
      '--json',
    ]);
    expect(unrecorded.code).toBe(1);
    expect(JSON.parse(unrecorded.stdout).error.code).toBe('MODEL_UNAVAILABLE');
  }, 90_000);

  it('acts as the principal of --token: a viewer cannot run a session', async () => {
    const { val } = await issueTokens(dir, 'team', [['val', 'viewer']]);
    const refused = await relay([
      'run',
      '--mode',
      'DOCUMENT',
      '--objective',
      'x',
      '--token',
      val!,
      '--json',
    ]);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error.code).toBe('FORBIDDEN');
  }, 60_000);
});

describe('canonry demo relay', () => {
  it('runs five windows with a repair and a revision, says what to look at, and verifies', async () => {
    const demo = await runCli(['demo', 'relay', '--data', dir]);
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toMatch(/window 3\/4\s+work\s+preservation 0\.50; repaired=1/);
    expect(demo.stdout).toMatch(/window 5\/5\s+revision\s+.*revisions 1 \(d_s3_decision\)/);
    expect(demo.stdout).toContain('repair: window 3 dropped 1 prior fact');
    expect(demo.stdout).toContain('revision: window 5 revised d_s3_decision');
    const id = /session (rs-[0-9a-f]{16}) \(project relay\): complete after 5 windows/.exec(
      demo.stdout,
    )?.[1];
    expect(id).toBeDefined();
    expect(demo.stdout).toContain(`canonry relay show ${id} --data ${dir}`);
    expect(demo.stdout).toContain(`canonry relay verify ${id} --data ${dir}`);
    expect(demo.stdout).toContain(`relay.${id}.`);

    const verified = await relay(['verify', id!]);
    expect(verified.code, verified.stderr).toBe(0);
    const shown = await relay(['show', id!]);
    expect(shown.stdout).toContain('repaired f_s1_context');
    expect(shown.stdout).toContain(
      'f_s3_decision left for f_s3_decision_v2, flagging d_s3_decision',
    );
    expect(shown.stdout).toContain(
      'revised d_s3_decision → d_s3_decision_r1 given f_s3_decision_v2',
    );

    // The scripted author states only what its windows establish, so nothing it writes contradicts
    // the state: no window is judged a distortion of another section's fact, no quarantine forbids
    // a sentence the next window's state holds, and no packet offers a fact the window took out.
    const detail = JSON.parse((await relay(['show', id!, '--json'])).stdout);
    expect(detail.windows).toHaveLength(5);
    for (const w of detail.windows) {
      const at = `window ${w.window_number}`;
      const held = new Set(w.cso.established_facts.map((f: any) => f.fact_id));
      expect(w.signals.distortion_count, at).toBe(0);
      expect(w.quality.state.quarantine, at).toEqual([]);
      for (const fact of w.quality.packet?.targeted_retrieval?.fact_ids ?? []) {
        expect(held.has(fact), `${at} offers ${fact}`).toBe(true);
      }
      expect(w.quality.injection ?? '', at).not.toContain('Do NOT state');
    }

    const json = JSON.parse((await runCli(['demo', 'relay', '--data', dir, '--json'])).stdout);
    expect(json.windows.map((w: any) => [w.kind, w.repaired, w.revisions])).toEqual([
      ['work', 0, 0],
      ['work', 0, 0],
      ['work', 1, 0],
      ['work', 0, 0],
      ['revision', 0, 1],
    ]);
    // The revision window is not scored on ids no prose states, nor does it only repeat the fact
    // it revises for (its text says what it revisited).
    const revision = json.windows[4];
    expect(revision.completeness).toBe(1);
    expect(revision.repetition).toBeLessThan(0.5);
  }, 120_000);
});
