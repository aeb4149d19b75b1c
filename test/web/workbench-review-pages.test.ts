// The Review view over a project with more proposals than a page, in a real browser against a real
// server: each list reads one page of proposals (never the project's whole history), pending ones
// oldest first and decided ones newest first, and the next page only when asked for.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TESTS } from '../helpers/browser.js';
import { openWorkbench, type WorkbenchUnderTest } from '../helpers/workbench.js';

const PROJECT = 'backlog';
const ROLES = { olivia: 'owner', 'agent-7': 'agent' } as const;
const CREATED = 120;
const HELD = 60;

let wb: WorkbenchUnderTest<keyof typeof ROLES>;
let t: Record<keyof typeof ROLES, string>;
/** The owner's committed creations and the agent's held-back updates, in the order they were made. */
const committed: string[] = [];
const pending: string[] = [];

const id = (i: number) => `item.n${String(i).padStart(3, '0')}`;

async function seed(): Promise<void> {
  const heads: string[] = [];
  for (let i = 0; i < CREATED; i++) {
    const made = await wb.api(t.olivia, 'POST', '/proposals', {
      object_id: id(i),
      intent: 'create',
      base_version: null,
      candidate: { object_type: 'preference', title: id(i), text: `Item ${i} is kept.` },
    });
    committed.push(made.proposal.proposal_id);
    heads.push(made.committed.version_hash);
  }
  for (let i = 0; i < HELD; i++) {
    const held = await wb.api(t['agent-7'], 'POST', '/proposals', {
      object_id: id(i),
      intent: 'update',
      base_version: heads[i],
      candidate: { object_type: 'preference', title: id(i), text: `Item ${i} is dropped.` },
    });
    expect(held.proposal.status).toBe('pending');
    pending.push(held.proposal.proposal_id);
  }
}

const rows = (page: Page, status: string) =>
  page
    .locator(`section[data-proposals="${status}"] li[data-proposal-id]`)
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-proposal-id')));

describe.skipIf(!BROWSER_TESTS)('the Review view, a page at a time', () => {
  beforeAll(async () => {
    wb = await openWorkbench(PROJECT, ROLES);
    t = wb.tokens;
    await seed();
  }, 120_000);

  afterAll(() => wb?.close());

  it('reads one page of each list, and the next on request', async () => {
    const { context, page } = await wb.signedIn(t.olivia);
    const reads: { url: string; rows: number }[] = [];
    page.on('response', async (r) => {
      if (!/\/proposals(\?|$)/.test(new URL(r.url()).pathname + new URL(r.url()).search)) return;
      const body = await r.json().catch(() => null);
      reads.push({ url: r.url(), rows: body?.proposals?.length ?? -1 });
    });
    await page.getByRole('link', { name: 'Review', exact: true }).click();
    const section = (status: string) => page.locator(`section[data-proposals="${status}"]`);
    await section('pending').locator('li').nth(49).waitFor();
    await section('decided').locator('li').nth(49).waitFor();

    expect(await rows(page, 'pending')).toEqual(pending.slice(0, 50));
    expect(await rows(page, 'decided')).toEqual([...committed].reverse().slice(0, 50));
    expect(await section('pending').locator('h2').textContent()).toBe('Pending (50+)');
    // Every read of the list asks for a page and gets at most one.
    expect(reads.length).toBeGreaterThanOrEqual(2);
    for (const r of reads) {
      expect(new URL(r.url).searchParams.get('limit'), r.url).toBe('50');
      expect(r.rows).toBeGreaterThanOrEqual(0);
      expect(r.rows).toBeLessThanOrEqual(50);
    }

    // The pending list's second page is its last: the button goes.
    await section('pending').getByRole('button', { name: 'Show 50 more' }).click();
    await section('pending')
      .locator('li')
      .nth(HELD - 1)
      .waitFor();
    expect(await rows(page, 'pending')).toEqual(pending);
    expect(await section('pending').getByRole('button').count()).toBe(0);
    expect(await section('pending').locator('h2').textContent()).toBe(`Pending (${HELD})`);

    // The decided list, newest first, page by page to the first proposal.
    const more = section('decided').getByRole('button', { name: 'Show 50 more' });
    await more.click();
    await section('decided').locator('li').nth(99).waitFor();
    await more.click();
    await section('decided')
      .locator('li')
      .nth(CREATED - 1)
      .waitFor();
    expect(await rows(page, 'decided')).toEqual([...committed].reverse());
    expect(await section('decided').getByRole('button').count()).toBe(0);
    for (const r of reads) expect(r.rows).toBeLessThanOrEqual(50);
    await context.close();
  });
});
