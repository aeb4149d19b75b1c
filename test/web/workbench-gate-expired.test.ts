// The Review view of a proposal whose gate verdict was signed by an issuer that has expired since:
// the server answers ISSUER_EXPIRED with the instant it verifies at, and the workbench says the
// verdict held as recorded — a warning, not the failure a forged or revoked signature shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanonry } from '../../src/app/index.js';
import { BROWSER_TESTS, seriousViolations } from '../helpers/browser.js';
import { dataDirWithExpiredGate, type ExpiredGate } from '../helpers/past-issuers.js';
import { tempDir } from '../helpers/runtime.js';
import { openWorkbench, type WorkbenchUnderTest } from '../helpers/workbench.js';

const ROLES = { olivia: 'owner' } as const;

describe.skipIf(!BROWSER_TESTS)('a gate verdict whose issuer expired, in chromium', () => {
  let wb: WorkbenchUnderTest<keyof typeof ROLES>;
  let gate: ExpiredGate;

  beforeAll(async () => {
    const { dir, cleanup } = tempDir('canonry-gate-expired-');
    gate = await dataDirWithExpiredGate(dir);
    wb = await openWorkbench('atelier', ROLES, async () => {
      const runtime = await createCanonry({ dataDir: dir, logLevel: 'silent' });
      return {
        runtime,
        close: async () => {
          await runtime.close();
          cleanup();
        },
      };
    });
  }, 120_000);
  afterAll(() => wb?.close());

  it('shows the verdict as held when recorded, with the instant it verifies at', async () => {
    const view = await wb.api(wb.tokens.olivia, 'GET', `/proposals/${gate.proposal_id}`);
    expect(view.gate.verification).toMatchObject({ ok: false, issue: 'ISSUER_EXPIRED' });
    const validAt = view.gate.verification.valid_at as string;
    expect(new Date(validAt).getTime()).toBeGreaterThanOrEqual(gate.recorded.getTime());
    const { context, page } = await wb.signedIn(wb.tokens.olivia, `/review/${gate.proposal_id}`);
    const badge = page.locator('section.gate .badges').getByText(/verified as recorded/);
    await badge.waitFor();
    expect(await badge.textContent()).toBe(
      `verified as recorded; its issuer has expired since (valid at ${validAt})`,
    );
    expect(await page.locator('section.gate').textContent()).not.toContain('not verified');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
