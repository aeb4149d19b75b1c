// The Evolution view in a real browser against a real server whose runtime runs the evolution
// coordinator over a real SQLite data directory: a canon commit and a piece of feedback become
// signed events shown with their effective governance, signer and deliveries; verification marks
// each verified; a webhook that was down is dead-lettered, and an editor — never a viewer — retries
// it; no serious accessibility violation; screenshots at 1280 px and 390 px.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanonry, type ReplayCase, useReplayCases } from '../../src/app/index.js';
import {
  assembleQualifiedEvent,
  KERNEL_VERDICT_CLASS,
  kernelVerdictOutcomeOf,
} from '../../src/evolution/index.js';
import { EMPTY_METADATA_HASH } from '../../src/kernel/index.js';
import { asset, draft, userPrivate } from '../evolution/assets.js';
import { BROWSER_TESTS, screenshots, seriousViolations } from '../helpers/browser.js';
import { readRepoJson, tempDir } from '../helpers/runtime.js';
import { openWorkbench, type WorkbenchUnderTest } from '../helpers/workbench.js';

const ROLES = { olivia: 'owner', eddie: 'editor', vera: 'viewer', 'agent-7': 'agent' } as const;

let wb: WorkbenchUnderTest<keyof typeof ROLES>;
let t: Record<keyof typeof ROLES, string>;
/** Whether the webhook receiver answers 2xx; it is down until the retry test brings it up. */
let hookUp = false;
let hookCalls = 0;
const closers: (() => Promise<unknown> | unknown)[] = [];

const api = (token: string, method: string, path: string, body?: unknown) =>
  wb.api(token, method, path, body);

async function webhookReceiver(): Promise<string> {
  const srv: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hookCalls++;
      res.statusCode = hookUp ? 204 : 503;
      res.end();
    });
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => srv.close(() => resolve())));
  return `http://127.0.0.1:${(srv.address() as AddressInfo).port}/hook`;
}

/**
 * A runtime that runs the evolution coordinator, retries instantly and twice, and sends memory
 * events to a webhook as well as to the memory target.
 */
async function evolutionRuntime(hook: string) {
  const { dir, cleanup } = tempDir();
  const runtime = await createCanonry(
    { dataDir: dir, evolution: 'on', logLevel: 'silent' },
    {
      evolution: {
        sleep: async () => undefined,
        retry: { maxAttempts: 2, backoffMs: 1 },
        webhooks: [{ name: 'lab-hook', url: hook, secret: 'hook-secret', eventTypes: ['memory'] }],
      },
    },
  );
  return {
    runtime,
    close: async () => {
      await runtime.close();
      cleanup();
    },
  };
}

async function signedIn(token: string): Promise<{ context: BrowserContext; page: Page }> {
  const signed = await wb.signedIn(token, '/evolution');
  await signed.page.getByRole('heading', { name: 'Evolution', level: 1 }).waitFor();
  return signed;
}

/**
 * Two AIR-settings promotions taken to their canary over one recorded, replayable kernel verdict:
 * `air-worse` whose canary falls below the baseline and rolls back on its own, `air-open` still in
 * its canary; and `air-bad`, which names no recorded event and stops at replay validation.
 */
async function promotions(): Promise<void> {
  const rt = wb.runtime;
  // The pilot's owner admits this project's promotions: the canaries below name it.
  await rt.promotions.admit('pilot', { actor: 'pilot-owner', role: 'owner' }, wb.project, true);
  const cases = new Map<string, ReplayCase>();
  useReplayCases(rt, (_project, id) => cases.get(id));
  const { protocol } = await rt.kernel.registry.register(
    readRepoJson('examples/refund/protocol.json'),
  );
  const artifact = { amount: 20 };
  const evaluation = rt.kernel.evaluate(artifact, protocol, EMPTY_METADATA_HASH);
  const made = assembleQualifiedEvent(
    draft({
      outcome: kernelVerdictOutcomeOf(evaluation, EMPTY_METADATA_HASH),
      replay: { execution_class: KERNEL_VERDICT_CLASS },
    }),
    [asset('a:1', userPrivate('alice'))],
    { signer: rt.keyring.signer() },
  );
  if (!made.ok) throw new Error(made.issues[0]!.message);
  cases.set('v1', { event: made.value, artifact });
  const candidate = (id: string, replay = 'v1') => ({
    promotion_id: id,
    artifact_kind: 'air_settings',
    artifact: { mode: 'aggressive', iap_budget: 256 },
    baseline: null,
    canary: { share: 0.1, projects: ['pilot'] },
    metric: { name: 'session_iq', margin: 0.02, min_samples: 5 },
    replay_events: [replay],
  });
  const observe = (id: string, arm: string, value: number, samples: number) =>
    api(t.eddie, 'POST', `/evolution/promotions/${id}/observations`, { arm, value, samples });
  await api(t.eddie, 'POST', '/evolution/promotions', candidate('air-bad', 'missing'));
  await api(t.eddie, 'POST', '/evolution/promotions', candidate('air-worse'));
  await observe('air-worse', 'baseline', 0.8, 2);
  await observe('air-worse', 'canary', 0.78, 2);
  await observe('air-worse', 'baseline', 0.82, 3);
  await observe('air-worse', 'canary', 0.75, 3);
  // A third report on each arm: no canary decides on fewer.
  await observe('air-worse', 'baseline', 0.82, 1);
  await observe('air-worse', 'canary', 0.75, 1);
  await api(t.eddie, 'POST', '/evolution/promotions', candidate('air-open'));
  await observe('air-open', 'baseline', 0.7, 2);
  await observe('air-open', 'canary', 0.74, 2);
}

const row = (page: Page, type: string) => page.locator(`li.evo-event[data-event-type="${type}"]`);

/** Opens an event's governance, signer and deliveries. */
async function open(page: Page, type: string) {
  const r = row(page, type);
  await r.locator('summary').click();
  await r.getByRole('heading', { name: 'Effective governance' }).waitFor();
  return r;
}

describe.skipIf(!BROWSER_TESTS)('the Evolution view in chromium', () => {
  beforeAll(async () => {
    const hook = await webhookReceiver();
    wb = await openWorkbench('lab', ROLES, () => evolutionRuntime(hook));
    closers.unshift(() => wb.close());
    t = wb.tokens;
    // A person's decision committed to canon (an arbitration event), and an agent's feedback (a
    // memory event, routed to the memory target and to the webhook, which is down).
    await api(t.olivia, 'POST', '/proposals', {
      object_id: 'ui.colour',
      intent: 'create',
      base_version: null,
      candidate: { object_type: 'preference', title: 'Interface colour', text: 'Red.' },
    });
    await api(t['agent-7'], 'POST', '/evolution/feedback', { subject: 'ui.colour', score: 0.8 });
    await wb.runtime.evolution!.idle();
    await promotions();
  });

  afterAll(async () => {
    for (const close of closers) await close();
  });

  it('shows each event newest first with its effective governance and signer; verifies them all', async () => {
    const { context, page } = await signedIn(t.vera);
    await row(page, 'memory').waitFor();
    const types = await page
      .locator('li.evo-event')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-event-type')));
    expect(types).toEqual(['memory', 'arbitration']);
    expect(await row(page, 'arbitration').textContent()).toContain('canon.commit');

    const arbitration = await open(page, 'arbitration');
    const gov = arbitration.getByRole('region', { name: /Governance of event/ });
    const text = (await gov.textContent()) ?? '';
    expect(text).toContain('shared — shared within its boundary');
    expect(text).toContain('project lab');
    expect(text).toContain('none — never replicated');
    expect(text).toContain('local_only — on this node only');
    expect(text).toContain('approval_required — only with an approval');
    expect(text).toContain('kept indefinitely');
    expect(await gov.locator('dt').allTextContents()).toEqual([
      'Privacy scope',
      'Boundary',
      'Principals',
      'Roles',
      'Replication',
      'Inference',
      'Training',
      'Export',
      'Retention',
      'Tags',
      'Policy hash',
      'Source policies',
    ]);
    // The hashes are the server's: the event as getEvent answers it.
    const stored = await api(t.vera, 'GET', '/evolution/events?event_type=arbitration');
    const one = await api(t.vera, 'GET', `/evolution/events/${stored.events[0].event_id}`);
    expect(await gov.locator('code.hash').first().getAttribute('title')).toBe(
      one.event.policy_hash,
    );
    const signer = arbitration.getByRole('region', { name: /Signer and origin/ });
    expect(await signer.locator('code.hash').getAttribute('title')).toBe(
      one.event.signing_identity,
    );
    expect(await signer.textContent()).toContain('Ed25519');
    // Never the raw event: no signature, no outcome member on the page.
    expect(await page.content()).not.toContain(one.event.signature);

    // Verification: every event checked from the server's root, each row marked.
    await page.getByRole('button', { name: 'Verify every event' }).click();
    await page.locator('.verify-result[data-ok="true"]').waitFor();
    expect(await page.locator('.verify-result').textContent()).toContain('2 of 2 events verified');
    expect(await row(page, 'arbitration').getAttribute('data-verdict')).toBe('verified');
    expect(await row(page, 'memory').getAttribute('data-verdict')).toBe('verified');

    // Filters: by type.
    await page.getByLabel('Event type').selectOption('arbitration');
    await page.locator('li.evo-event[data-event-type="memory"]').waitFor({ state: 'detached' });
    expect(await page.locator('li.evo-event').count()).toBe(1);
    await page.getByLabel('Event type').selectOption('');
    await row(page, 'memory').waitFor();

    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'evolution');
    await context.close();
  });

  it('shows each promotion with its stages as a stepper and its canary against the baseline', async () => {
    const { context, page } = await signedIn(t.vera);
    const promo = (id: string) => page.locator(`article.promotion[data-promotion-id="${id}"]`);
    await promo('air-worse').waitFor();
    // Newest first.
    expect(
      await page
        .locator('article.promotion')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-promotion-id'))),
    ).toEqual(['air-open', 'air-worse', 'air-bad']);

    const steps = async (id: string) =>
      promo(id)
        .locator('.stepper-step')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-state')));
    // Rolled back on its own after its canary: every stage passed, the end failed and final.
    expect(await promo('air-worse').getAttribute('data-stage')).toBe('rolled_back');
    expect(await steps('air-worse')).toEqual(['done', 'done', 'done', 'done', 'done', 'failed']);
    expect(await promo('air-worse').locator('[aria-current="step"]').textContent()).toContain(
      'Rolled back',
    );
    expect(await steps('air-open')).toEqual(['done', 'done', 'done', 'done', 'current', 'todo']);
    expect(await promo('air-open').locator('[aria-current="step"]').textContent()).toContain(
      'Canary',
    );
    expect(await steps('air-bad')).toEqual(['done', 'failed', 'todo', 'todo', 'todo', 'todo']);

    // The chart: an image named for what it shows, one line per arm, a point per observation.
    const chart = promo('air-worse').getByRole('img', { name: /session_iq of air-worse/ });
    await chart.waitFor();
    expect(await chart.locator('[data-series="canary"] circle').count()).toBe(3);
    expect(await chart.locator('[data-series="baseline"] rect').count()).toBe(3);
    // …and the same numbers as a table: each arm's mean after each observation.
    await promo('air-worse').getByText('The observations of air-worse as a table').click();
    const cells = await promo('air-worse')
      .locator('table.observations tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent)),
      );
    expect(cells).toEqual([
      ['1', 'baseline', '0.8', '2', '—', '0.800'],
      ['2', 'canary', '0.78', '2', '0.780', '0.800'],
      ['3', 'baseline', '0.82', '3', '0.780', '0.812'],
      ['4', 'canary', '0.75', '3', '0.762', '0.812'],
      ['5', 'baseline', '0.82', '1', '0.762', '0.813'],
      ['6', 'canary', '0.75', '1', '0.760', '0.813'],
    ]);
    expect(await promo('air-worse').textContent()).toContain('canary 0.760, baseline 0.813');
    expect(await promo('air-open').getByRole('img').count()).toBe(1);
    expect(await promo('air-bad').textContent()).toContain('No canary observation yet.');

    expect(await seriousViolations(page)).toEqual([]);
    await page.locator('#evo-promotions-h').scrollIntoViewIfNeeded();
    await screenshots(page, 'evolution-promotions');
    await context.close();
  });

  it('a viewer sees the dead letter but no retry control', async () => {
    const { context, page } = await signedIn(t.vera);
    const memory = await open(page, 'memory');
    const dead = memory.locator('tr[data-target="lab-hook"]');
    expect(await dead.getAttribute('data-outcome')).toBe('dead_letter');
    expect(await dead.textContent()).toContain('dead letter');
    expect(await memory.locator('tr[data-target="memory"]').getAttribute('data-outcome')).toBe(
      'delivered',
    );
    expect(await page.getByRole('button', { name: /Retry delivery/ }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('an editor retries the dead letter once the receiver is up, and sees it delivered', async () => {
    const { context, page } = await signedIn(t.eddie);
    const memory = await open(page, 'memory');
    const retry = memory.getByRole('button', { name: 'Retry delivery to lab-hook' });
    await retry.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'evolution-dead-letter');
    // Readable on a phone: the open event, its table included, fits 390 px without sideways scroll.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 800 });
    const before = hookCalls;
    hookUp = true;
    await retry.click();
    await memory.locator('tr[data-target="lab-hook"][data-outcome="delivered"]').waitFor();
    expect(hookCalls).toBe(before + 1);
    expect(await memory.getByRole('status').last().textContent()).toContain(
      'Retried lab-hook: delivered',
    );
    expect(await page.getByRole('button', { name: /Retry delivery/ }).count()).toBe(0);
    await context.close();
  });
});
