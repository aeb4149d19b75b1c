// The workbench's Note, Journal and Artifacts views in a real browser against a real server on
// loopback over a real SQLite data directory: restore a version and see history kept (every old
// version still listed, a new one appended); change a dependency and see a dependent note and an
// artifact turn stale in their views without a reload; the dependents graph reachable by keyboard;
// journal verify says the chain is intact and the export downloads every readable entry; no serious
// accessibility violation on any of the three views, and screenshots of each at 1280 px and 390 px.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/auth.js';
import { BROWSER_TESTS, screenshots, seriousViolations } from '../helpers/browser.js';
import { openWorkbench, type WorkbenchUnderTest } from '../helpers/workbench.js';

const PROJECT = 'foundry';
const ROLES = { olivia: 'owner', vera: 'viewer' } as const;

let wb: WorkbenchUnderTest<keyof typeof ROLES>;
let url: string;
let t: Record<keyof typeof ROLES, string>;

const api = (token: string, method: string, path: string, body?: unknown) =>
  wb.api(token, method, path, body);

const headOf = async (id: string): Promise<string> =>
  (await api(t.olivia, 'GET', `/objects/${id}`)).object.current_version_ref;

async function propose(id: string, type: string, text: string, more: object = {}) {
  const exists = (await call(url, 'GET', `/v1/projects/${PROJECT}/objects/${id}`, t.olivia)).status;
  const out = await api(t.olivia, 'POST', '/proposals', {
    object_id: id,
    intent: exists === 200 ? 'update' : 'create',
    base_version: exists === 200 ? await headOf(id) : null,
    candidate: { object_type: type, title: id, text, ...more },
  });
  expect(out.proposal.status).toBe('committed');
}

/** Canon with history and a dependency chain: storage.engine ← decision.db ← an artifact. */
async function seed(): Promise<void> {
  await propose('ui.colour', 'preference', 'The interface is red.');
  await propose('ui.colour', 'preference', 'The interface is violet.');
  await propose('storage.engine', 'fact', 'Storage is SQLite.');
  await propose('decision.db', 'decision', 'Back up the SQLite file nightly.', {
    dependency_refs: ['storage.engine'],
  });
  await api(t.olivia, 'POST', '/artifacts', {
    artifact_id: 'backup-script',
    title: 'Backup script',
    canonical_note_versions: [
      { object_id: 'decision.db', version_hash: await headOf('decision.db') },
      { object_id: 'storage.engine', version_hash: await headOf('storage.engine') },
    ],
    tool_or_model_refs: ['coding-agent'],
    output_digest: `sha256:${'a'.repeat(64)}`,
  });
}

const signedIn = (token: string, path?: string) => wb.signedIn(token, path);

/** Marks the page so a test can tell it never reloaded (the change came over the live feed). */
const markUnreloaded = (page: Page) =>
  page.evaluate(() => {
    (globalThis as unknown as { unreloaded: boolean }).unreloaded = true;
  });
const stillUnreloaded = (page: Page) => page.evaluate(() => 'unreloaded' in globalThis);

describe.skipIf(!BROWSER_TESTS)('the Note, Journal and Artifacts views in chromium', () => {
  beforeAll(async () => {
    wb = await openWorkbench(PROJECT, ROLES);
    ({ url, tokens: t } = wb);
    await seed();
  });

  afterAll(() => wb?.close());

  it('restores a version: a new version is appended and every old one stays listed', async () => {
    const { context, page } = await signedIn(t.olivia);
    await page.getByRole('link', { name: 'ui.colour' }).click();
    await page.locator('article.note-page[data-object-id="ui.colour"]').waitFor();
    // All nine questions of the provenance walk (LCSM §8), each answered.
    const questions = await page.locator('[data-testid="provenance"] dt').allTextContents();
    expect(questions).toHaveLength(9);
    const answers = await page.locator('[data-testid="provenance"] dd').allTextContents();
    expect(answers.every((a) => a.trim().length > 0)).toBe(true);
    expect(answers[1]).toContain('Version 2');
    expect(answers[2]).toContain('olivia');
    expect(answers[4]).toContain('The interface is red.');
    expect(answers[8]).toContain('A preference');
    const versions = page.locator('section[aria-labelledby="versions-h"] li');
    expect(await versions.count()).toBe(2);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'note');

    await page.getByRole('button', { name: 'Restore v1…' }).click();
    const dialog = page.getByRole('dialog', { name: /Restore version 1 of/ });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Versions 1–2 stay in the history');
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Restore as version 3' }).click();
    await dialog.getByRole('status').filter({ hasText: 'version 3 appended' }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.locator('li[data-version="3"][data-current="true"]').waitFor();

    expect(await versions.count()).toBe(3);
    const rows = [];
    for (const li of await versions.all()) {
      rows.push([
        await li.getAttribute('data-version'),
        await li.getAttribute('data-current'),
        await li.locator('.note-text').textContent(),
      ]);
    }
    expect(rows).toEqual([
      ['3', 'true', 'The interface is red.'],
      ['2', 'false', 'The interface is violet.'],
      ['1', 'false', 'The interface is red.'],
    ]);
    expect(await page.locator('.note-page h1 + .lead').textContent()).toBe('The interface is red.');
    const server = await api(t.olivia, 'GET', '/objects/ui.colour/versions');
    expect(server.versions.map((v: any) => v.version_id)).toEqual([1, 2, 3]);
    await context.close();

    // A viewer reads the history but has no restore control.
    const viewer = await signedIn(t.vera, '/notes/ui.colour');
    await viewer.page.locator('li[data-version="3"]').waitFor();
    expect(await viewer.page.getByRole('button', { name: /Restore/ }).count()).toBe(0);
    await viewer.context.close();
  });

  it('shows the latest versions of a long-lived note, and older ones a page at a time', async () => {
    for (let n = 1; n <= 60; n++) await propose('ui.font', 'preference', `The font is ${n} px.`);
    const { context, page } = await signedIn(t.vera, '/notes/ui.font');
    await page.locator('li[data-version="60"][data-current="true"]').waitFor();
    expect(await page.locator('#versions-h').textContent()).toBe('Versions (60)');
    const versions = page.locator('section[aria-labelledby="versions-h"] li');
    const shown = () =>
      versions.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-version'))));
    // The provenance walk's latest 50, newest first.
    expect(await shown()).toEqual(Array.from({ length: 50 }, (_, i) => 60 - i));
    const answers = await page.locator('[data-testid="provenance"] dd').allTextContents();
    expect(answers[7]).toContain('any of its 59 earlier versions');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Show older versions (10)' }).click();
    await page.locator('li[data-version="1"]').waitFor();
    expect(await shown()).toEqual(Array.from({ length: 60 }, (_, i) => 60 - i));
    expect(await page.getByRole('button', { name: /Show older versions/ }).count()).toBe(0);
    await context.close();
  });

  it('turns a dependent note and an artifact stale, live, when a dependency changes', async () => {
    const { context, page } = await signedIn(t.vera, '/notes/decision.db');
    await page.locator('article.note-page[data-object-id="decision.db"]').waitFor();
    const node = (id: string) => page.locator(`.graph-node[data-node-id="${id}"]`);
    await node('artifact:backup-script').waitFor();
    expect(await node('note:storage.engine').getAttribute('data-state')).toBe('active');
    expect(await node('artifact:backup-script').getAttribute('data-state')).toBe('current');
    expect(await page.locator('[data-testid="needs-revision"]').count()).toBe(0);
    await markUnreloaded(page);

    await propose('storage.engine', 'fact', 'Storage is PostgreSQL.');

    const why = page.locator('[data-testid="needs-revision"]');
    await why.waitFor();
    expect(await why.textContent()).toContain('storage.engine');
    await page
      .locator('.graph-node[data-node-id="note:decision.db"][data-state="needs revision"]')
      .waitFor();
    expect(await node('artifact:backup-script').getAttribute('data-state')).not.toBe('current');
    expect(await stillUnreloaded(page)).toBe(true);
    // The list alternative says the same in words.
    const list = page.locator('.graph-list li[data-node-id="artifact:backup-script"]');
    expect(await list.textContent()).toMatch(/stale|regeneration|review/);

    // The graph by keyboard: a node is focusable, its accessible name says its state, Enter opens it.
    await page.goto(`${url}/notes/storage.engine`);
    const dependent = page.locator('.graph-node[data-node-id="note:decision.db"]');
    await dependent.waitFor();
    expect(await dependent.getAttribute('aria-label')).toContain('needs revision');
    await dependent.focus();
    await page.keyboard.press('Enter');
    await page.locator('article.note-page[data-object-id="decision.db"]').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'note-stale');

    await page.getByRole('link', { name: 'Artifacts', exact: true }).click();
    const artifact = page.locator('article[data-artifact-id="backup-script"]');
    await artifact.waitFor();
    expect(await artifact.getAttribute('data-state')).toBe('requires_regeneration');
    expect(await artifact.locator('.why').textContent()).toContain(
      'storage.engine changed, now v2',
    );
    const moved = artifact.locator('li[data-input="storage.engine"][data-moved="true"]');
    await moved.waitFor();
    expect(await moved.textContent()).toContain('built on v1');
    expect(await moved.textContent()).toContain('now v2');
    expect(await moved.textContent()).toContain('Storage is SQLite.');
    expect(await moved.textContent()).toContain('Storage is PostgreSQL.');
    const kept = artifact.locator('li[data-input="decision.db"]');
    await kept.filter({ hasText: 'still current' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'artifacts');
    await context.close();
  });

  it('draws every dependent past a board page of them, live, and says where it cuts', async () => {
    await propose('hub', 'fact', 'Everything here rests on the hub.');
    const spokes = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => `spoke.${String(from + i).padStart(3, '0')}`);
    // More of one status than the board holds (50): the graph is read on its own, not from it.
    for (const id of spokes(0, 60))
      await propose(id, 'fact', `${id} rests on the hub.`, { dependency_refs: ['hub'] });
    const { context, page } = await signedIn(t.olivia, '/notes/hub');
    const nodes = page.locator('.graph-node');
    await page.locator('.graph-node[data-node-id="note:spoke.059"]').waitFor();
    const drawn = async () =>
      (await nodes.evaluateAll((els) => els.map((e) => e.getAttribute('data-node-id')))).sort();
    expect(await drawn()).toEqual(['note:hub', ...spokes(0, 60).map((id) => `note:${id}`)].sort());
    const intro = page.locator('section[aria-labelledby="dependents-h"] p.muted');
    expect(await intro.textContent()).toContain('60 connected');
    expect(await intro.textContent()).not.toContain('not drawn');
    await markUnreloaded(page);
    // Past the graph's 120 nodes: cut there, and said so — without a reload.
    for (const id of spokes(60, 125))
      await propose(id, 'fact', `${id} rests on the hub.`, { dependency_refs: ['hub'] });
    await intro.filter({ hasText: 'Cut at the first 120: at least' }).waitFor();
    expect(await nodes.count()).toBe(120);
    expect(await drawn()).toEqual(['note:hub', ...spokes(0, 119).map((id) => `note:${id}`)].sort());
    expect(await stillUnreloaded(page)).toBe(true);
    await context.close();
  });

  it('lists the journal newest first with summaries and receipts, verifies it, exports it', async () => {
    const { context, page } = await signedIn(t.olivia, '/journal');
    const entries = page.locator('li.entry');
    await entries.first().waitFor();
    const head = (await api(t.olivia, 'GET', '/journal?limit=1')).head.seq as number;
    const seqs: number[] = [];
    for (const li of await entries.all()) seqs.push(Number(await li.getAttribute('data-seq')));
    expect(seqs[0]).toBe(head);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    const commit = page.locator('li.entry[data-kind="canon.commit"]').first();
    expect(await commit.locator('.summary').textContent()).toContain('object id');
    await commit.getByText(/^Receipt of #/).click();
    await commit.locator('.receipt').waitFor();
    expect(await commit.locator('.receipt').textContent()).toContain('accepted');

    await page.getByRole('button', { name: 'Verify the chain' }).click();
    const result = page.locator('.verify-result');
    await result.waitFor();
    expect(await result.getAttribute('data-ok')).toBe('true');
    expect(await result.textContent()).toContain('chain intact');
    expect(await result.textContent()).toContain(`${head} entries checked`);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'journal');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /Download the journal/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${PROJECT}-journal-${head}.jsonl`);
    const lines = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\n');
    const header = JSON.parse(lines[0]!);
    expect(header).toMatchObject({ type: 'canonry/journal-view', project: PROJECT, entries: head });
    expect(lines.slice(1).map((l) => JSON.parse(l).seq)).toEqual(
      Array.from({ length: head }, (_, i) => i + 1),
    );
    await context.close();
  });
});
