// Text people and models wrote, shown in the workbench in a real browser: a word of thousands of
// characters with no space wraps inside its box (no view scrolls sideways, no element leaves the
// main column), and bidirectional controls (RIGHT-TO-LEFT OVERRIDE, the isolates U+2066–2069) left
// open in a title, a text or a relay fact cannot reorder the interface's own words after them.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import { scriptedAuthor } from '../../src/cli/relay/author.js';
import { BROWSER_TESTS } from '../helpers/browser.js';
import { openWorkbench, type WorkbenchUnderTest } from '../helpers/workbench.js';

const PROJECT = 'hostile';
const ROLES = { olivia: 'owner' } as const;

/** Words of one unbroken token: the longest a field takes, in letters a browser does not break. */
const word = (n: number) => 'Ab'.repeat(Math.ceil(n / 2)).slice(0, n);
const LONG_TEXT = word(5_000);
const LONG_TITLE = word(190);
/** A right-to-left override and an isolate, neither closed. */
const BIDI = '\u202Eoverride \u2067isolate';

let wb: WorkbenchUnderTest<keyof typeof ROLES>;
let t: Record<keyof typeof ROLES, string>;
let session = '';
/** The long note's update: its two-note review shows the long word on both sides. */
let moved: { proposal: { proposal_id: string } };

async function create(id: string, title: string, text: string) {
  const made = await wb.api(t.olivia, 'POST', '/proposals', {
    object_id: id,
    intent: 'create',
    base_version: null,
    candidate: { object_type: 'fact', title, text },
  });
  return made.committed.version_hash as string;
}

async function relaySession(runtime: CanonryRuntime): Promise<string> {
  const started = await wb.api(t.olivia, 'POST', '/relay/sessions', {
    mode: 'DOCUMENT',
    objective: `A note ${LONG_TITLE}`,
    remaining: [`${BIDI} one`, `long ${LONG_TITLE}`],
  });
  const id = started.session.session_id as string;
  const principal = { id: 'olivia', project: PROJECT, role: 'owner' as const, token_id: '' };
  const model = scriptedAuthor({
    prepare: () => runtime.relay.prepareWindow(principal, id),
    state: () => runtime.relay.state(principal, id),
  });
  await runtime.relay.run(principal, id, model, { maxWindows: 3 });
  return id;
}

/**
 * Nothing scrolls the page sideways, and every element holding part of the long word lies inside
 * the main column (a box that scrolls itself — a table, a graph — holds it inside that box).
 */
async function expectContained(page: Page, where: string): Promise<void> {
  // Run in the page (as source: the tests are typed without the DOM's names).
  const report = (await page.evaluate(`(() => {
    const root = document.scrollingElement;
    const main = document.querySelector('main').getBoundingClientRect();
    const out = [];
    for (const el of document.querySelectorAll('main *')) {
      const own = [...el.childNodes].some(
        (n) => n.nodeType === Node.TEXT_NODE && /(Ab){40}/.test(n.textContent ?? ''),
      );
      if (!own) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0) continue;
      if (r.right > main.right + 1 || r.left < main.left - 1) {
        out.push(el.tagName + '.' + el.className + ' ' + Math.round(r.left) + '–' + Math.round(r.right));
      }
    }
    return { page: [root.scrollWidth, root.clientWidth], out, main: [main.left, main.right] };
  })()`)) as { page: number[]; out: string[]; main: number[] };
  expect(
    report.out,
    `${where}: elements past the main column ${JSON.stringify(report.main)}`,
  ).toEqual([]);
  expect(report.page[0], `${where}: the page scrolls sideways`).toBeLessThanOrEqual(
    report.page[1]!,
  );
}

/**
 * Where `label` (the interface's own text after the hostile one in `scope`) is drawn against the
 * hostile text: on its line, to the right of it, as the interface reads left to right.
 */
async function expectLabelAfter(page: Page, scope: string, label: string): Promise<void> {
  type Box = { left: number; right: number; top: number } | null;
  // Each text node's whole run, however its parts are reordered; run in the page, as source.
  const boxes = (await page.evaluate(`(() => {
    const el = document.querySelector(${JSON.stringify(scope)});
    const rect = (match) => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!match(n.textContent ?? '')) continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        const r = range.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top };
      }
      return null;
    };
    return {
      hostile: rect((s) => s.includes('\\u202E')),
      label: rect((s) => s.includes(${JSON.stringify(label)})),
    };
  })()`)) as { hostile: Box; label: Box };
  expect(boxes.hostile, `${scope}: the hostile text is shown`).not.toBeNull();
  expect(boxes.label, `${scope}: ${label} is shown`).not.toBeNull();
  // On the hostile text's line the label comes after it; else it is on a line below.
  const { hostile, label: after } = boxes;
  expect(
    after!.top > hostile!.top + 2 || after!.left >= hostile!.right - 1,
    `${scope}: ${label} drawn at ${after!.left}, before the text it follows (${hostile!.left}–${hostile!.right})`,
  ).toBe(true);
}

describe.skipIf(!BROWSER_TESTS)('hostile text in the workbench', () => {
  beforeAll(async () => {
    wb = await openWorkbench(PROJECT, ROLES);
    t = wb.tokens;
    const long = await create('hostile.long', LONG_TITLE, `Before ${LONG_TEXT} after.`);
    const bidi = await create('hostile.bidi', `${BIDI} title`, `${BIDI} text`);
    await wb.api(t.olivia, 'POST', '/artifacts', {
      artifact_id: 'hostile.sheet',
      title: `${BIDI} sheet`,
      canonical_note_versions: [
        { object_id: 'hostile.long', version_hash: long },
        { object_id: 'hostile.bidi', version_hash: bidi },
      ],
      output_digest: `sha256:${'1'.repeat(64)}`,
      tool_or_model_refs: [LONG_TITLE],
    });
    await wb.api(t.olivia, 'POST', '/artifacts', {
      artifact_id: 'hostile.wide',
      title: LONG_TITLE,
      canonical_note_versions: [{ object_id: 'hostile.long', version_hash: long }],
      output_digest: `sha256:${'2'.repeat(64)}`,
    });
    // The long note moves, so the artifacts show its text then and now.
    moved = await wb.api(t.olivia, 'POST', '/proposals', {
      object_id: 'hostile.long',
      intent: 'update',
      base_version: long,
      candidate: { object_type: 'fact', title: LONG_TITLE, text: `Now ${LONG_TEXT} after.` },
    });
    session = await relaySession(wb.runtime);
  }, 120_000);

  afterAll(() => wb?.close());

  it('keeps the long word inside its box in every view', async () => {
    const { context, page } = await wb.signedIn(t.olivia);
    await page.locator('article[data-object-id="hostile.long"]').waitFor();
    await expectContained(page, 'board');
    await page.goto(`${wb.url}/notes/hostile.long`);
    await page.locator('h1').first().waitFor();
    await page.getByText('Before', { exact: false }).first().waitFor();
    await expectContained(page, 'note');
    await page.getByRole('link', { name: 'Artifacts', exact: true }).click();
    await page.locator('article[data-artifact-id="hostile.wide"] [data-moved="true"]').waitFor();
    await expectContained(page, 'artifacts');
    await page.getByRole('link', { name: 'Relay' }).click();
    await page.locator(`li[data-session="${session}"] a`).click();
    await page.locator('.cso-list summary').first().click();
    await page.locator('.cso-list li[data-fact]').first().waitFor();
    await expectContained(page, 'relay');
    await page.getByRole('link', { name: 'Review', exact: true }).click();
    await page.locator('section[data-proposals="decided"] li').first().waitFor();
    await expectContained(page, 'review');
    await page.goto(`${wb.url}/review/${moved.proposal.proposal_id}`);
    await page.locator('article.review .two-note').waitFor();
    await expectContained(page, 'two-note review');
    await page.getByRole('link', { name: 'Journal' }).click();
    await page.locator('.entries li').first().waitFor();
    await expectContained(page, 'journal');
    await context.close();
  });

  it('keeps the words after a bidirectional control in their order', async () => {
    const { context, page } = await wb.signedIn(t.olivia);
    await page.getByRole('link', { name: 'Artifacts', exact: true }).click();
    await page.locator('article[data-artifact-id="hostile.sheet"]').waitFor();
    await expectLabelAfter(page, 'article[data-artifact-id="hostile.sheet"] h3', 'hostile.sheet');
    await page.getByRole('link', { name: 'Relay' }).click();
    await page.locator(`li[data-session="${session}"] a`).click();
    await page.locator('.cso-list summary').first().click();
    const fact = page.locator('.cso-list li[data-fact]').filter({ hasText: '\u202E' });
    await fact.first().waitFor();
    const label = await fact.first().locator('span.muted').textContent();
    const factId = await fact.first().getAttribute('data-fact');
    await expectLabelAfter(page, `.cso-list li[data-fact="${factId}"]`, label!.slice(0, 12));
    await context.close();
  });

  it("keeps the Kernel view's words after a protocol's hostile label in their order", async () => {
    const { context, page } = await wb.signedIn(t.olivia, '/kernel');
    const hostile = `${BIDI} approve`;
    const protocol = {
      slug: 'hostile.guard',
      version: '1.0',
      constraints: {
        type: 'object',
        required: ['amount'],
        properties: { amount: { type: 'number' } },
      },
      labels: [hostile, 'BLOCK'],
      rules: [
        { label: hostile, condition: { '<=': [{ var: 'amount' }, 50] } },
        { label: 'BLOCK', condition: true },
      ],
    };
    await page.getByLabel('Agentic protocol (JSON)').fill(JSON.stringify(protocol, null, 2));
    await page.getByLabel('Artifact (JSON)').fill('{ "amount": 40 }');
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.locator('.verdict[data-conformant="true"]').waitFor();
    await page.getByRole('button', { name: 'Verify against the pinned root' }).click();
    await page.locator('.verification[data-verified="true"]').waitFor();
    await expectLabelAfter(page, '.verification', 'signed by issuer');
    await context.close();
  });
});
