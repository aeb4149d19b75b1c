// The workbench in a real browser against a real server on loopback over a real SQLite data
// directory: review and accept a proposal and see the board change, a second browser following it
// live, an agent token with no approve control whose forged approval the server refuses, no serious
// accessibility violation on any view, and screenshots of each view at 1280 px and 390 px.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TESTS, screenshots, seriousViolations } from '../helpers/browser.js';
import { openWorkbench, type WorkbenchUnderTest } from '../helpers/workbench.js';

const PROJECT = 'atelier';
const ROLES = { olivia: 'owner', vera: 'viewer', 'agent-7': 'agent' } as const;

let wb: WorkbenchUnderTest<keyof typeof ROLES>;
let url: string;
let t: Record<keyof typeof ROLES, string>;
let browser: Browser;
let pendingColour: string;
let pendingDeadline: string;

const api = (token: string, method: string, path: string, body?: unknown) =>
  wb.api(token, method, path, body);

const note = (title: string, text: string, object_type = 'preference') => ({
  object_type,
  title,
  text,
});

/** Canon as the story leaves it: people's decisions, a model's note, two agent proposals held back. */
async function seed(): Promise<void> {
  await api(t.olivia, 'POST', '/proposals', {
    object_id: 'ui.colour',
    intent: 'create',
    base_version: null,
    candidate: note('Interface colour', 'The interface is red.'),
  });
  await api(t.olivia, 'POST', '/proposals', {
    object_id: 'release.deadline',
    intent: 'create',
    base_version: null,
    candidate: note('Release deadline', 'We ship on the first of March.', 'decision'),
  });
  await api(t['agent-7'], 'POST', '/proposals', {
    object_id: 'build.runtime',
    intent: 'create',
    base_version: null,
    candidate: note('Build runtime', 'The build runs on Node 20.', 'fact'),
  });
  const objects = (await api(t.olivia, 'GET', '/board')).objects.active as any[];
  const head = (id: string) => objects.find((o) => o.object_id === id).current_version_ref;
  const colour = await api(t['agent-7'], 'POST', '/proposals', {
    object_id: 'ui.colour',
    intent: 'update',
    base_version: head('ui.colour'),
    candidate: note('Interface colour', 'The interface is blue, for accessibility.'),
  });
  pendingColour = colour.proposal.proposal_id;
  const deadline = await api(t['agent-7'], 'POST', '/proposals', {
    object_id: 'release.deadline',
    intent: 'update',
    base_version: head('release.deadline'),
    candidate: note('Release deadline', 'We ship in April.', 'decision'),
  });
  pendingDeadline = deadline.proposal.proposal_id;
}

const signedIn = (token: string, path?: string) => wb.signedIn(token, path);

describe.skipIf(!BROWSER_TESTS)('the workbench in chromium', () => {
  beforeAll(async () => {
    wb = await openWorkbench(PROJECT, ROLES);
    ({ url, tokens: t, browser } = wb);
    await seed();
  });

  afterAll(() => wb?.close());

  it('signs in by token and shows the board: notes by type, decisions apart from model proposals', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'sign-in');
    await page.getByLabel('Project').fill(PROJECT);
    await page.getByLabel('Token').fill(`cnr_${'x'.repeat(43)}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'UNAUTHENTICATED' }).waitFor();
    await page.getByLabel('Token').fill(t.olivia);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('[data-live="live"]').waitFor();

    const card = (id: string) => page.locator(`article[data-object-id="${id}"]`);
    await card('ui.colour').waitFor();
    expect(await card('ui.colour').getAttribute('data-authority')).toBe('decision');
    expect(await card('build.runtime').getAttribute('data-authority')).toBe('proposal');
    expect(await card('build.runtime').textContent()).toContain('model proposal');
    expect(await card('ui.colour').textContent()).toContain('decision · olivia (owner)');
    const groups = await page.locator('.type-group h3').allTextContents();
    expect(groups).toEqual(['Decision (1)', 'Preference (1)', 'Fact (1)']);
    expect(await page.locator('.pending li').count()).toBe(2);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'board');
    await context.close();
  });

  it('reviews and accepts a proposal; the board changes, and a second browser sees it live', async () => {
    const watcher = await signedIn(t.vera);
    const watched = watcher.page.locator('article[data-object-id="ui.colour"] .note-text');
    expect(await watched.textContent()).toBe('The interface is red.');
    // Gone if the page reloads: the change must come over the feed, not a reload.
    await watcher.page.evaluate(() => {
      (globalThis as unknown as { unreloaded: boolean }).unreloaded = true;
    });

    const { context, page } = await signedIn(t.olivia);
    await page.locator(`.pending li[data-proposal-id="${pendingColour}"] a`).click();
    const review = page.locator(`article.review[data-proposal-id="${pendingColour}"]`);
    await review.waitFor();
    expect(await page.locator('[data-side="current"] .note-text').textContent()).toBe(
      'The interface is red.',
    );
    expect(await page.locator('[data-side="candidate"] .note-text').textContent()).toBe(
      'The interface is blue, for accessibility.',
    );
    expect(await page.locator('table.checks tbody tr').count()).toBe(8);
    expect(await page.locator('.gate').textContent()).toContain('signature verified');
    expect(await page.locator('.gate').textContent()).toContain('REQUIRE_CONFIRMATION');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'review');

    await page.getByRole('button', { name: 'Accept' }).click();
    await page.locator(`article.review[data-status="committed"]`).waitFor();
    await page.getByRole('link', { name: 'Board' }).click();
    const blue = 'The interface is blue, for accessibility.';
    await page
      .locator('article[data-object-id="ui.colour"] .note-text')
      .filter({ hasText: blue })
      .waitFor();
    expect(await page.locator(`.pending li[data-proposal-id="${pendingColour}"]`).count()).toBe(0);

    // The viewer never reloaded: the journal feed moved its board.
    await watched.filter({ hasText: blue }).waitFor();
    expect(await watched.textContent()).toBe(blue);
    expect(await watcher.page.evaluate(() => 'unreloaded' in globalThis)).toBe(true);
    expect(
      await watcher.page
        .locator('article[data-object-id="ui.colour"]')
        .getAttribute('data-authority'),
    ).toBe('decision');
    await context.close();

    // A viewer reviewing sees no control to decide with.
    await watcher.page.goto(`${url}/review/${pendingDeadline}`);
    await watcher.page.locator('article.review').waitFor();
    expect(await watcher.page.getByRole('button', { name: 'Accept' }).count()).toBe(0);
    expect(await watcher.page.getByRole('button', { name: 'Reject' }).count()).toBe(0);
    await watcher.context.close();
  });

  it('refetches what an entry can move: a relay session leaves the board alone, a proposal does not', async () => {
    const { context, page } = await signedIn(t.vera);
    await page.locator('article[data-object-id="ui.colour"]').waitFor();
    const boardReads: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === `/v1/projects/${PROJECT}/board`) boardReads.push(r.url());
    });
    const seqMoved = async (past: number) => {
      const live = page.locator('[data-live="live"]');
      await expect
        .poll(async () => Number(await live.getAttribute('data-seq')), { timeout: 10_000 })
        .toBeGreaterThan(past);
      return Number(await live.getAttribute('data-seq'));
    };
    const before = Number(await page.locator('[data-live="live"]').getAttribute('data-seq'));

    // A relay session's start is a relay.session entry: the feed moves, the board is not read again.
    await api(t['agent-7'], 'POST', '/relay/sessions', {
      mode: 'DOCUMENT',
      objective: 'Write the release note',
      remaining: ['Summary'],
    });
    const afterRelay = await seqMoved(before);
    await page.waitForTimeout(500);
    expect(boardReads).toEqual([]);

    // An agent's proposal is a canon entry: the board is read again and shows it pending.
    await api(t['agent-7'], 'POST', '/proposals', {
      object_id: 'docs.tone',
      intent: 'create',
      base_version: null,
      candidate: note('Docs tone', 'The docs speak plainly.'),
    });
    await seqMoved(afterRelay);
    await expect.poll(() => boardReads.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await context.close();
  });

  it('gives an agent token no approve control, and the server refuses its forged approval', async () => {
    const { context, page } = await signedIn(t['agent-7'], `/review/${pendingDeadline}`);
    await page.locator('article.review[data-status="pending"]').waitFor();
    expect(await page.getByRole('button', { name: 'Accept' }).count()).toBe(0);
    // Its own proposal: it may withdraw it, not approve it.
    expect(await page.getByRole('button', { name: 'Withdraw' }).count()).toBe(1);
    const forged = await page.evaluate(
      async ({ project, id, token }) => {
        const res = await fetch(`/v1/projects/${project}/proposals/${id}/approve`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{}',
        });
        return { status: res.status, body: (await res.json()) as any };
      },
      { project: PROJECT, id: pendingDeadline, token: t['agent-7'] },
    );
    expect(forged.status).toBe(403);
    expect(forged.body.error.code).toBe('FORBIDDEN');
    const still = await api(t.olivia, 'GET', `/proposals/${pendingDeadline}`);
    expect(still.status).toBe('pending');
    await context.close();
  });

  it('signs the page out as soon as its token is revoked, without a reload', async () => {
    const made = await api(t.olivia, 'POST', '/tokens', { principal: 'temp', role: 'viewer' });
    const { context, page } = await signedIn(made.token);
    await page.locator('article[data-object-id="ui.colour"]').waitFor();
    await api(t.olivia, 'DELETE', `/tokens/${made.info.token_id}`);
    // The feed ends at the revocation; the next read is refused, and the session ends with it.
    await page.getByText('The token was refused; sign in again.').waitFor({ timeout: 15_000 });
    expect(await page.getByLabel('Token').isVisible()).toBe(true);
    expect(
      await page.evaluate(() =>
        JSON.stringify((globalThis as { sessionStorage?: unknown }).sessionStorage),
      ),
    ).not.toContain(made.token);
    await context.close();
  });
});
