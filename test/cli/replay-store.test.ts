// `canonry replay EVENT_ID --project P` and `canonry events verify` as the built CLI (child
// processes) on a real data directory where the coordinator made the events: a relay window event
// replays from the journal alone (the answers its session's windows journaled: match; a raw answer
// tampered in the store: the state digest; a changed prompt: the context packet), and with
// recordings, which override (match; doctored recordings: first difference);
// a kernel verdict event replays with its artifact (match), with another (the artifact hash); a
// stored event edited in SQLite makes `events verify` exit 1.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/canon/index.js';
import { KERNEL_VERDICT_CLASS, RELAY_WINDOW_CLASS } from '../../src/evolution/index.js';
import type { ModelRecording } from '../../src/models/index.js';
import { runCli } from '../helpers/cli.js';
import { oneFactAnswer } from '../helpers/model-answers.js';
import { madeReplayEvents } from '../helpers/replay-events.js';
import { tempDir } from '../helpers/runtime.js';

const PROJECT = 'relay-replay';
const AGENT: Principal = { id: 'agent-1', project: PROJECT, role: 'agent' };
const artifact = { amount: 500 };

let dir: string;
let cleanup: () => void;
let recordings: readonly ModelRecording[];
let windowEvent: string;
let verdictEvent: string;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('canonry-replay-store-'));
  const made = await madeReplayEvents(dir, AGENT, artifact, [
    ['Install', 'the package is canonry'],
    ['Operate', 'the service listens on 8080'],
  ]);
  ({ recordings } = made);
  expect(made.windows.map((e) => e.event.outcome.window_number).sort()).toEqual([1, 2]);
  windowEvent = made.windows.find((e) => e.event.outcome.window_number === 2)!.event.event_id;
  // The relay's gate judges too; the refund protocol judged one artifact.
  expect(made.verdicts).toHaveLength(1);
  verdictEvent = made.verdicts[0]!.event.event_id;
});
afterAll(() => cleanup?.());

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const jsonl = (rs: readonly ModelRecording[]) => rs.map((r) => `${JSON.stringify(r)}\n`).join('');

const replay = (args: string[]) => runCli(['replay', ...args, '--data', dir, '--json']);

/** Runs `change` on the SQLite file, then `body`, then puts the row back as it was. */
/** The JSON column of each table a test tampers with. */
const JSON_COLUMN = { relay_sessions: 'record', journal_entries: 'body' } as const;

async function tampered<T>(
  table: keyof typeof JSON_COLUMN,
  where: string,
  change: (record: Record<string, any>) => void,
  body: () => Promise<T>,
): Promise<T> {
  const column = JSON_COLUMN[table];
  const dbFile = readdirSync(dir).find((f) => /\.(db|sqlite3?)$/.test(f))!;
  const db = new Database(join(dir, dbFile));
  const row = db.prepare(`SELECT rowid, ${column} AS json FROM ${table} WHERE ${where}`).get() as {
    rowid: number;
    json: string;
  };
  const record = JSON.parse(row.json);
  change(record);
  db.prepare(`UPDATE ${table} SET ${column} = ? WHERE rowid = ?`).run(
    JSON.stringify(record),
    row.rowid,
  );
  try {
    return await body();
  } finally {
    db.prepare(`UPDATE ${table} SET ${column} = ? WHERE rowid = ?`).run(row.json, row.rowid);
    db.close();
  }
}

describe('canonry replay EVENT_ID --project P from the journal alone', () => {
  it('a relay window event replays over the answers its session journaled, no --recordings: match', async () => {
    const run = await replay([windowEvent, '--project', PROJECT]);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({
      status: 'match',
      execution_class: RELAY_WINDOW_CLASS,
      event_id: windowEvent,
    });
    expect(report.compared[0]).toBe('context_packet_hash');
  });

  it('a tampered raw answer differs at the state digest, exit 1', async () => {
    // The raw answers are the journal's (the projection's window records leave them out).
    const run = await tampered(
      'journal_entries',
      "kind LIKE 'relay.window%' AND json_extract(body, '$.window.window_number') = 2",
      (entry) => {
        entry.window.answers = [{ text: oneFactAnswer('Operate', 'the service listens on 9090') }];
      },
      () => replay([windowEvent, '--project', PROJECT]),
    );
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).difference.path).toBe('/state_digest');
  });

  it('a changed prompt differs at the context packet, before the state, exit 1', async () => {
    const run = await tampered(
      'relay_sessions',
      "project = 'relay-replay'",
      (record) => {
        record.objective = 'Another runbook';
      },
      () => replay([windowEvent, '--project', PROJECT]),
    );
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).difference.path).toBe('/windows/1/context_packet_hash');
  });
});

describe('canonry replay EVENT_ID --project P', () => {
  it('a relay window event the coordinator made replays from the store with --recordings (they override)', async () => {
    const run = await replay([
      windowEvent,
      '--project',
      PROJECT,
      '--recordings',
      file('r.jsonl', jsonl(recordings)),
    ]);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      status: 'match',
      execution_class: RELAY_WINDOW_CLASS,
      event_id: windowEvent,
    });
  });

  it('with a doctored recording the first difference is named, exit 1', async () => {
    const doctored = recordings.map((r, i) =>
      i === 1
        ? {
            ...r,
            response: {
              ...r.response,
              text: oneFactAnswer('Operate', 'the service listens on 9090'),
            },
          }
        : r,
    );
    const run = await replay([
      windowEvent,
      '--project',
      PROJECT,
      '--recordings',
      file('doctored.jsonl', jsonl(doctored)),
    ]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.status).toBe('differ');
    expect(report.difference.path).toBe('/state_digest');
  });

  it('a kernel verdict event replays with its artifact; another artifact differs at its hash', async () => {
    const ok = await replay([
      verdictEvent,
      '--project',
      'evolution',
      '--artifact',
      file('a.json', JSON.stringify(artifact)),
    ]);
    expect(ok.code, ok.stderr + ok.stdout).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({
      status: 'match',
      execution_class: KERNEL_VERDICT_CLASS,
    });
    const other = await replay([
      verdictEvent,
      '--project',
      'evolution',
      '--artifact',
      file('other.json', JSON.stringify({ amount: 5 })),
    ]);
    expect(other.code).toBe(1);
    expect(JSON.parse(other.stdout).difference.path).toBe('/artifact_hash');
  });

  it('a session or bundle of the wrong shape is a typed refusal, never INTERNAL', async () => {
    const file = (name: string, value: unknown) => {
      const path = join(dir, name);
      writeFileSync(path, JSON.stringify(value));
      return path;
    };
    const shown = await runCli([
      'events',
      'show',
      windowEvent,
      '--project',
      PROJECT,
      '--data',
      dir,
      '--json',
    ]);
    const { event } = JSON.parse(shown.stdout);
    const runs = [
      ...[{}, [], { mode: 'x' }, { air: 3 }].map((session) =>
        replay([windowEvent, '--project', PROJECT, '--session', file('s.json', session)]),
      ),
      replay([file('b1.json', { event, relay: 'x' })]),
      replay([file('b2.json', { event, relay: { session: {}, recordings: [{ key: 1 }] } })]),
      replay([file('b3.json', { event, relay: { session: [], recordings: [] } })]),
    ];
    for (const run of await Promise.all(runs)) {
      expect(run.code).toBe(1);
      const { code } = JSON.parse(run.stdout).error;
      expect(['MALFORMED_FILE', 'INVALID_BODY', 'INVALID_ARGUMENT']).toContain(code);
    }
  });

  it('an id the store does not hold is UNKNOWN_EVENT', async () => {
    const run = await replay(['no-such-event', '--project', PROJECT]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).error.code).toBe('UNKNOWN_EVENT');
  });
});

describe('canonry events verify', () => {
  it('exits 0 on untouched events and 1 once a stored event is edited in SQLite', async () => {
    const verify = () =>
      runCli(['events', 'verify', '--project', PROJECT, '--data', dir, '--json']);
    const clean = await verify();
    expect(clean.code, clean.stderr + clean.stdout).toBe(0);
    expect(JSON.parse(clean.stdout).ok).toBe(true);

    const dbFile = readdirSync(dir).find((f) => /\.(db|sqlite3?)$/.test(f));
    expect(dbFile).toBeDefined();
    const db = new Database(join(dir, dbFile!));
    try {
      const row = db
        .prepare('SELECT record FROM evolution_events WHERE project = ? AND event_id = ?')
        .get(PROJECT, windowEvent) as { record: string };
      const record = JSON.parse(row.record);
      record.event.outcome.verified = !record.event.outcome.verified;
      db.prepare('UPDATE evolution_events SET record = ? WHERE project = ? AND event_id = ?').run(
        JSON.stringify(record),
        PROJECT,
        windowEvent,
      );
    } finally {
      db.close();
    }
    const tampered = await verify();
    expect(tampered.code).toBe(1);
    const report = JSON.parse(tampered.stdout);
    expect(report.ok).toBe(false);
    expect(report.failed.length).toBe(1);
  });
});
