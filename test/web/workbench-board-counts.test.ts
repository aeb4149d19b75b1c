// The Board over a project with more of each group than the board holds, in a real browser against
// a real server: one board read shows each group's total, the first notes of a status, and reaches
// the rest through the paged reads (the next notes after the group's last id on request; Review
// and Artifacts for proposals and artifacts), never the whole project in one response.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TESTS } from '../helpers/browser.js';
import { openWorkbench, type WorkbenchUnderTest } from '../helpers/workbench.js';

const PROJECT = 'hall';
const ROLES = { olivia: 'owner', agent: 'agent' } as const;
/** Each group holds 50 on the board: the scenario makes more of each. */
const NOTES = 57;
const PENDING = 53;
const ARTIFACTS = 52;

let wb: WorkbenchUnderTest<keyof typeof ROLES>;
let t: Record<keyof typeof ROLES, string>;
/** The active notes made, in id (byte) order. */
const ids: string[] = [];

const id = (i: number) => `hall.n${String(i).padStart(3, '0')}`;

async function seed(): Promise<void> {
  let first = '';
  // Made out of id order: the board's order is the ids', not the journal's.
  for (const i of Array.from({ length: NOTES }, (_, k) => (k * 23) % NOTES)) {
    const made = await wb.api(t.olivia, 'POST', '/proposals', {
      object_id: id(i),
      intent: 'create',
      base_version: null,
      candidate: { object_type: 'preference', title: `Rule ${i}`, text: `Rule number ${i}.` },
    });
    expect(made.proposal.status).toBe('committed');
    if (i === 0) first = made.committed.version_hash;
  }
  for (let i = 0; i < NOTES; i++) ids.push(id(i));
  for (let i = 0; i < PENDING; i++) {
    const held = await wb.api(t.agent, 'POST', '/proposals', {
      object_id: `hall.d${String(i).padStart(3, '0')}`,
      intent: 'create',
      base_version: null,
      candidate: { object_type: 'decision', title: `Decision ${i}`, text: `We decide ${i}.` },
    });
    expect(held.proposal.status).toBe('pending');
  }
  for (let i = 0; i < ARTIFACTS; i++) {
    await wb.api(t.olivia, 'POST', '/artifacts', {
      artifact_id: `hall.a${String(i).padStart(3, '0')}`,
      canonical_note_versions: [{ object_id: id(0), version_hash: first }],
      output_digest: `sha256:${'c'.repeat(64)}`,
    });
  }
}

describe.skipIf(!BROWSER_TESTS)('the Board: counts, and the rest on request', () => {
  beforeAll(async () => {
    wb = await openWorkbench(PROJECT, ROLES);
    t = wb.tokens;
    await seed();
  }, 240_000);

  afterAll(() => wb?.close());

  it("shows each group's total and reads the notes past the board's first only when asked", async () => {
    const { context, page } = await wb.signedIn(t.olivia);
    const reads: { url: URL; body: any }[] = [];
    page.on('response', async (r) => {
      const url = new URL(r.url());
      if (!/\/objects$/.test(url.pathname)) return;
      reads.push({ url, body: await r.json().catch(() => null) });
    });
    const count = (group: string) =>
      page.locator(`[data-board-count="${group}"]`).textContent({ timeout: 30_000 });
    expect(await count('current')).toBe(String(NOTES));
    expect(await count('pending')).toBe(String(PENDING));
    expect(await count('artifacts')).toBe(String(ARTIFACTS));
    // What the board answers holds 50 of each group, not the project.
    const body = await wb.api(t.olivia, 'GET', '/board');
    expect([body.objects.active.length, body.pending.length, body.artifacts.length]).toEqual([
      50, 50, 50,
    ]);
    const cards = () =>
      page
        .locator('article[data-object-id]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-object-id')));
    // The board's 50, of which a type group draws its first 48 until asked (`Limited`).
    expect(await cards()).toEqual(ids.slice(0, 48));
    expect(await page.locator('[data-board-more="pending"]').textContent()).toBe(
      `${PENDING - 50} more awaiting review: see Review`,
    );
    expect(await page.locator('[data-board-more="artifacts"]').getAttribute('href')).toBe(
      '/artifacts',
    );
    expect(reads.filter((r) => r.url.pathname.endsWith('/objects'))).toEqual([]);

    const more = page.locator('[data-more-status="active"]');
    expect(await more.textContent()).toBe(
      `Show active notes past the first 50 (${NOTES - 50} more)`,
    );
    await more.click();
    await page
      .locator('[data-more-notes="active"] li[data-object-id]')
      .nth(NOTES - 51)
      .waitFor();
    const rest = await page
      .locator('[data-more-notes="active"] li[data-object-id]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-object-id')));
    expect(rest).toEqual(ids.slice(50));
    const pages = reads.filter((r) => r.url.pathname.endsWith('/objects'));
    expect(pages.map((r) => Object.fromEntries(r.url.searchParams))).toEqual([
      { status: 'active', limit: '50', after: ids[49] },
    ]);
    expect(pages[0]!.body.objects).toHaveLength(NOTES - 50);
    await context.close();
  });
});
