// The workbench's Relay and Kernel views in a real browser against a real server on loopback over a
// real SQLite data directory: the demo's relay session (a repaired window, a revision window) opened
// in the Relay view with its charts, whose data table holds the values getRelayQuality returns, its
// CSO drawn as a graph and each window's IAP; a validation run in the Kernel view, its signed event
// verified against the pinned root and, tampered, refused; both views loaded only when visited; no
// serious accessibility violation, and screenshots at 1280 px and 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import { scriptedAuthor } from '../../src/cli/relay/author.js';
import { BROWSER_TESTS, screenshots, seriousViolations } from '../helpers/browser.js';
import { openWorkbench, type WorkbenchUnderTest } from '../helpers/workbench.js';

const PROJECT = 'relayroom';
const ROLES = { olivia: 'owner', vera: 'viewer' } as const;

let wb: WorkbenchUnderTest<keyof typeof ROLES>;
let t: Record<keyof typeof ROLES, string>;
let session: string;

const api = (token: string, method: string, path: string, body?: unknown) =>
  wb.api(token, method, path, body);

/** `canonry demo relay`'s session: window 3 drops a fact (repaired), window 5 revises a decision. */
async function demoSession(runtime: CanonryRuntime): Promise<string> {
  const started = await api(t.olivia, 'POST', `/v1/projects/${PROJECT}/relay/sessions`, {
    mode: 'DOCUMENT',
    objective: 'A design note for moving the billing service to two regions',
    remaining: ['Context', 'Constraints', 'Decision', 'Consequences'],
  });
  const id = started.session.session_id as string;
  const principal = { id: 'olivia', project: PROJECT, role: 'owner' as const, token_id: '' };
  const model = scriptedAuthor(
    {
      prepare: () => runtime.relay.prepareWindow(principal, id),
      state: () => runtime.relay.state(principal, id),
    },
    { dropAt: 3, supersedeAt: 4 },
  );
  const run = await runtime.relay.run(principal, id, model, { maxWindows: 10 });
  expect(run.status).toBe('complete');
  return id;
}

const signedIn = (token: string, path?: string) => wb.signedIn(token, path);

const fixed = (v: number | null, digits: number) => (v === null ? '—' : v.toFixed(digits));

describe.skipIf(!BROWSER_TESTS)('the Relay and Kernel views in chromium', () => {
  beforeAll(async () => {
    wb = await openWorkbench(PROJECT, ROLES);
    ({ tokens: t } = wb);
    session = await demoSession(wb.runtime);
  });

  afterAll(() => wb?.close());

  it('loads neither view with the board, and each when it is visited', async () => {
    const { context, page } = await signedIn(t.vera);
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    await page.locator('h1', { hasText: 'Board' }).waitFor();
    expect(scripts.filter((s) => /relay|kernel/.test(s))).toEqual([]);
    await page.getByRole('link', { name: 'Kernel' }).click();
    await page.locator('h1', { hasText: 'Kernel' }).waitFor();
    expect(scripts.some((s) => /kernel-view/.test(s))).toBe(true);
    expect(scripts.some((s) => /relay-session/.test(s))).toBe(false);
    await context.close();
  });

  it("opens the demo's session: charts, their values in the table, the CSO graph and each IAP", async () => {
    const quality = await api(
      t.vera,
      'GET',
      `/v1/projects/${PROJECT}/relay/sessions/${session}/quality`,
    );
    const rows = quality.windows as any[];
    expect(rows.map((r) => r.kind)).toEqual(['work', 'work', 'work', 'work', 'revision']);

    const { context, page } = await signedIn(t.vera);
    await page.getByRole('link', { name: 'Relay' }).click();
    const link = page.locator(`li[data-session="${session}"] a`);
    await link.waitFor();
    expect(await page.locator(`li[data-session="${session}"]`).textContent()).toContain('complete');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'relay-list');

    await link.click();
    await page.locator(`article.relay[data-session="${session}"]`).waitFor();
    const figures = page.locator('figure[data-chart]');
    await figures.first().locator('canvas').waitFor();
    expect(
      await page
        .locator('figure[data-chart]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-chart'))),
    ).toEqual(['preservation', 'repetition', 'fabrications', 'completeness', 'session-iq']);
    for (const chart of await figures.all()) {
      expect(await chart.locator('canvas').count()).toBeGreaterThan(0);
      expect((await chart.locator('figcaption').textContent())?.length).toBeGreaterThan(10);
    }

    // The data table holds exactly the operation's values, window by window.
    const table = page.locator('table.quality-table');
    expect(await table.locator('tbody tr').count()).toBe(rows.length);
    for (const r of rows) {
      const row = table.locator(`tr[data-window="${r.window_number}"]`);
      const cell = async (metric: string) => row.locator(`[data-metric="${metric}"]`).textContent();
      expect(await cell('preservation')).toBe(fixed(r.preservation, 2));
      expect(await cell('repaired')).toBe(String(r.repaired));
      expect(await cell('repetition')).toBe(fixed(r.repetition_ratio, 3));
      expect(await cell('fabrications')).toBe(String(r.fabrication_count));
      expect(await cell('distortions')).toBe(String(r.distortion_count));
      expect(await cell('completeness')).toBe(fixed(r.completeness, 2));
      expect(await cell('session-iq')).toBe(fixed(r.session_iq, 1));
    }
    // Window 3 dropped a fact and was repaired: the chart's value is below 1.
    expect(rows[2].repaired).toBeGreaterThan(0);
    expect(rows[2].preservation).toBeLessThan(1);

    // The latest window is shown: its CSO as a graph, its decisions and facts in words.
    const state = await api(t.vera, 'GET', `/v1/projects/${PROJECT}/relay/sessions/${session}`);
    const detail = page.locator('section.relay-window[data-window="5"]');
    await detail.locator('figure.graph svg').waitFor();
    const nodes = await detail
      .locator('.graph-node')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-node-id')));
    for (const d of state.cso.decisions) expect(nodes).toContain(d.decision_id);
    for (const f of state.cso.established_facts) expect(nodes).toContain(f.fact_id);
    expect(await detail.locator('path.graph-edge').count()).toBe(state.cso.dependency_graph.length);
    expect(await detail.locator('.cso-list li[data-decision]').count()).toBe(
      state.cso.decisions.length,
    );
    expect(await page.locator('.badges').first().textContent()).toContain('chain verified');
    // The AIR settings it runs under (the demo sets none, so no promotion's arm either).
    const air = page.locator('.badges').first().locator('[data-air-arm]');
    expect(await air.textContent()).toBe(
      `AIR ${state.session.air.mode}, budget ${state.session.air.iap_budget}`,
    );
    expect(await air.getAttribute('data-air-arm')).toBe('');
    expect(await seriousViolations(page)).toEqual([]);
    // At phone width the tables and the graph scroll in their own regions.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshots(page, 'relay-session');

    // Another window by keyboard: its own state and its IAP.
    const withIap = rows.find((r) => r.air?.injection) ?? rows[0];
    const pick = page.getByRole('button', { name: `Window ${withIap.window_number}`, exact: true });
    await pick.focus();
    await page.keyboard.press('Enter');
    const chosen = page.locator(`section.relay-window[data-window="${withIap.window_number}"]`);
    await chosen.locator('figure.graph svg').waitFor();
    expect(await pick.getAttribute('aria-pressed')).toBe('true');
    const iap = chosen.locator(`.iap[data-window="${withIap.window_number}"]`);
    if (withIap.air?.injection) {
      expect(await iap.locator('.iap-text').textContent()).toBe(withIap.air.injection);
    } else {
      expect(await iap.textContent()).toContain('nothing injected');
    }
    await context.close();
  });

  it('validates in the Kernel view, verifies the signed event, and refuses it tampered', async () => {
    const trust = await api(t.vera, 'GET', '/v1/trust');
    const { context, page } = await signedIn(t.vera, '/kernel');
    await page.locator(`[data-root="${trust.root_fingerprint}"]`).waitFor();

    // A non-conformant artifact: a verdict with its failure code and no event.
    await page.getByLabel('Artifact (JSON)').fill('{ "amount": "forty" }');
    await page.getByRole('button', { name: 'Validate' }).click();
    const verdict = page.locator('.verdict');
    await verdict.waitFor();
    expect(await verdict.getAttribute('data-conformant')).toBe('false');
    expect(await verdict.textContent()).toContain('INVALID_REQUEST');

    // Not JSON: said as it is typed, and nothing can be sent.
    await page.getByLabel('Artifact (JSON)').fill('{ "amount": ');
    expect(await page.locator('.json-field .error').first().textContent()).toContain('Not JSON');
    expect(await page.getByRole('button', { name: 'Validate' }).isDisabled()).toBe(true);

    await page.getByLabel('Artifact (JSON)').fill('{ "amount": 40 }');
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.locator('.verdict[data-conformant="true"]').waitFor();
    expect(await page.locator('.verdict').textContent()).toContain('label AUTO_APPROVE');
    const eventField = page.getByLabel('Signed conformance event (JSON)');
    const event = JSON.parse(await eventField.inputValue());
    expect(event.label).toBe('AUTO_APPROVE');
    expect(event.signature).toBeTruthy();

    await page.getByRole('button', { name: 'Verify against the pinned root' }).click();
    const verified = page.locator('.verification');
    await verified.waitFor();
    expect(await verified.getAttribute('data-verified')).toBe('true');
    expect(await verified.textContent()).toContain('verified');
    expect(await verified.textContent()).toContain('label AUTO_APPROVE');
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshots(page, 'kernel');

    // The same event with its label changed: the signature no longer holds.
    await eventField.fill(JSON.stringify({ ...event, label: 'MANAGER_REVIEW' }, null, 2));
    await page.getByRole('button', { name: 'Verify against the pinned root' }).click();
    await page.locator('.verification[data-verified="false"]').waitFor();
    expect(await page.locator('.verification').textContent()).toContain('not verified');

    // The untouched event no longer binds an artifact edited after it was signed.
    await eventField.fill(JSON.stringify(event, null, 2));
    await page.getByLabel('Artifact (JSON)').fill('{ "amount": 41 }');
    await page.getByRole('button', { name: 'Verify against the pinned root' }).click();
    await page.locator('.verification[data-verified="false"]').waitFor();
    expect(await page.locator('.verification').textContent()).toContain('MISMATCH');
    await context.close();
  });
});
