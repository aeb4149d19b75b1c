// The Artifacts view over a project with more artifacts than a page, in a real browser against a
// real server: it reads one page of artifacts (never the project's every one), in id order, and the
// next page only when asked for.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TESTS } from '../helpers/browser.js';
import { openWorkbench, type WorkbenchUnderTest } from '../helpers/workbench.js';

const PROJECT = 'shelf';
const ROLES = { olivia: 'owner' } as const;
const REGISTERED = 70;

let wb: WorkbenchUnderTest<keyof typeof ROLES>;
let t: Record<keyof typeof ROLES, string>;
/** The artifacts registered, in id (byte) order. */
const ids: string[] = [];

const id = (i: number) => `art.n${String(i).padStart(3, '0')}`;

async function seed(): Promise<void> {
  const made = await wb.api(t.olivia, 'POST', '/proposals', {
    object_id: 'shelf.rule',
    intent: 'create',
    base_version: null,
    candidate: { object_type: 'preference', title: 'Rule', text: 'Books stand upright.' },
  });
  // Registered out of id order: the view's order is the ids', not the journal's.
  for (const i of Array.from({ length: REGISTERED }, (_, k) => (k * 37) % REGISTERED)) {
    await wb.api(t.olivia, 'POST', '/artifacts', {
      artifact_id: id(i),
      canonical_note_versions: [
        { object_id: 'shelf.rule', version_hash: made.committed.version_hash },
      ],
      output_digest: `sha256:${'b'.repeat(64)}`,
    });
  }
  for (let i = 0; i < REGISTERED; i++) ids.push(id(i));
}

const shown = (page: Page) =>
  page
    .locator('article[data-artifact-id]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-artifact-id')));

describe.skipIf(!BROWSER_TESTS)('the Artifacts view, a page at a time', () => {
  beforeAll(async () => {
    wb = await openWorkbench(PROJECT, ROLES);
    t = wb.tokens;
    await seed();
  }, 120_000);

  afterAll(() => wb?.close());

  it('reads one page of artifacts, and the next on request', async () => {
    const { context, page } = await wb.signedIn(t.olivia);
    const reads: { url: URL; rows: number }[] = [];
    page.on('response', async (r) => {
      const url = new URL(r.url());
      if (!/\/artifacts$/.test(url.pathname)) return;
      const body = await r.json().catch(() => null);
      reads.push({ url, rows: body?.artifacts?.length ?? -1 });
    });
    await page.getByRole('link', { name: 'Artifacts', exact: true }).click();
    await page.locator('article[data-artifact-id]').nth(49).waitFor();
    // The first read asked for a page, and got one.
    expect(reads.map((r) => [r.url.searchParams.get('limit'), r.rows])).toEqual([['50', 50]]);
    expect(await shown(page)).toEqual(ids.slice(0, 50));
    expect(await page.locator('[data-artifact-count]').textContent()).toBe('50+ artifacts');

    const more = page.getByRole('button', { name: 'Show 50 more' });
    await more.click();
    await page
      .locator('article[data-artifact-id]')
      .nth(REGISTERED - 1)
      .waitFor();
    expect(await shown(page)).toEqual(ids);
    expect(await more.count()).toBe(0);
    expect(await page.locator('[data-artifact-count]').textContent()).toBe(
      `${REGISTERED} artifacts`,
    );
    // Every read asks for a page and gets at most one; the second starts after the first's last.
    expect(reads.length).toBeGreaterThanOrEqual(2);
    for (const r of reads) {
      expect(r.url.searchParams.get('limit'), String(r.url)).toBe('50');
      expect(r.rows).toBeGreaterThanOrEqual(0);
      expect(r.rows).toBeLessThanOrEqual(50);
    }
    expect(reads.some((r) => r.url.searchParams.get('after') === ids[49])).toBe(true);
    await context.close();
  });
});
