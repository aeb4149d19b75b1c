// @ts-check
/**
 * The workbench's board on a large project (issue 16): from navigation to the board being
 * interactive, in headless chromium against `canonry serve`, and the JavaScript the workbench ships.
 *
 * Seed (in process, through the public runtime API, `createCanonry` from `canonry/app`): one project
 * of 2,000 current notes proposed by an owner through `canon.propose` (64 in flight at a time, so
 * group commit shares their transactions; each auto-committed: a `canon.proposal` and its
 * `canon.commit`), 500 of them then updated once (their earlier version is history), and archived
 * messages (`archiveMessage`, `canon.message`, 256 in flight at a time) until the journal holds
 * 20,000 entries.
 *
 * Then `node dist/cli/main.js serve` over that data directory in a child process (port chosen by the
 * system, read from its start line), chromium (playwright-core, Debian's `/usr/bin/chromium`), one
 * sign-in through the form, and RUNS timed navigations. "Board interactive" is the first animation
 * frame at which the board's notes are rendered (every type group of current notes shows its cards,
 * the count in "Current notes (N)" is 2,000) and the first control of the view takes the keyboard
 * focus; the time is the page's own `performance.now()` then, i.e. since navigation start. Cold: a
 * fresh browser context each run (no cache; the session put in sessionStorage as sign-in leaves
 * it). Warm: reloads of the signed-in tab (assets cached). Medians over the runs, and the server's
 * own `GET …/board` timed from Node for scale.
 *
 * Shipped: the gzip size (zlib, default level) of every file under dist/web/assets, split into what
 * the board loads (the entry's JS and CSS) and what loads only with a view that needs it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createCanonry } from 'canonry/app';
import { archiveMessage, proposalInput } from 'canonry/canon';
import { chromium } from 'playwright-core';
import { fmtInt, median, progress, quantile } from '../lib/measure.js';
import { runIfMain, table } from '../lib/report.js';

const SCOPE = 'web/board';
const QUICK = Boolean(process.env.BENCH_QUICK);
const RUNS = QUICK ? 5 : 9;
const NOTES = 2_000;
const UPDATES = 500;
const ENTRIES = 20_000;
/** Proposals and messages in flight at once: group commit batches their appends. */
const CHUNK = 64;
const PROJECT = 'bench';
const CHROMIUM = process.env.CANONRY_CHROMIUM ?? '/usr/bin/chromium';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TYPES = ['decision', 'fact', 'preference', 'plan', 'question'];

/** @param {number} i */
const candidate = (i, version = 1) => ({
  object_type: TYPES[i % TYPES.length],
  title: `Note ${i}`,
  text:
    version === 1
      ? `Note ${i} of the benchmark project states one thing about component ${i % 97}.`
      : `Note ${i} of the benchmark project, revised: component ${i % 97} changed.`,
});

/**
 * Seeds the data directory; returns the owner's token and how the journal was made.
 * @param {string} dir
 */
async function seed(dir) {
  const runtime = await createCanonry({ dataDir: dir, logLevel: 'silent' });
  try {
    const { token } = await runtime.tokens.create(PROJECT, 'olivia', 'owner');
    const owner = { id: 'olivia', project: PROJECT, role: /** @type {const} */ ('owner') };
    const started = performance.now();
    /** @param {number} count @param {(i: number) => Promise<unknown>} one @param {string} what */
    const chunked = async (count, one, what) => {
      for (let from = 0; from < count; from += CHUNK) {
        const n = Math.min(CHUNK, count - from);
        await Promise.all(Array.from({ length: n }, (_, k) => one(from + k)));
        if ((from / CHUNK) % 8 === 7) progress(SCOPE, `seed: ${from + n} ${what}`);
      }
    };
    await chunked(
      NOTES,
      (i) =>
        runtime.canon.propose(
          owner,
          proposalInput({
            object_id: `bench.note.${i}`,
            intent: 'create',
            base_version: null,
            candidate: candidate(i),
          }),
        ),
      'notes',
    );
    progress(SCOPE, `seed: ${NOTES} notes in ${fmtInt(performance.now() - started)} ms`);
    const reader = runtime.canon.reader(PROJECT);
    await chunked(
      UPDATES,
      async (i) => {
        const current = await reader.object(`bench.note.${i}`);
        return runtime.canon.propose(
          owner,
          proposalInput({
            object_id: `bench.note.${i}`,
            intent: 'update',
            base_version: current?.current_version_ref ?? null,
            candidate: candidate(i, 2),
          }),
        );
      },
      'updates',
    );
    const head = async () => (await runtime.journal.head(PROJECT)).seq;
    const made = await head();
    let messages = 0;
    while ((await head()) < ENTRIES) {
      const room = Math.min(256, ENTRIES - (await head()));
      if (messages % 2_048 === 0) progress(SCOPE, `seed: ${messages} messages`);
      await Promise.all(
        Array.from({ length: room }, () =>
          archiveMessage(runtime.canon, owner, {
            text: `Message ${++messages}: a remark about component ${messages % 97}.`,
            role: 'user',
          }),
        ),
      );
    }
    const entries = await head();
    const seconds = (performance.now() - started) / 1000;
    progress(SCOPE, `seed: ${entries} entries (${messages} messages) in ${seconds.toFixed(1)} s`);
    return { token, entries, messages, canonEntries: made, seconds };
  } finally {
    await runtime.close();
  }
}

/**
 * `canonry serve` on the data directory, on a port the system picks.
 * @param {string} dir
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
function serve(dir) {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'dist/cli/main.js'), 'serve', '--data', dir, '--port', '0'],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CANONRY_LOG_LEVEL: 'error' } },
  );
  const stop = () =>
    new Promise((done) => {
      if (child.exitCode !== null) return done(undefined);
      child.once('exit', () => done(undefined));
      child.kill('SIGTERM');
    }).then(() => undefined);
  return new Promise((done, failed) => {
    let out = '';
    // Its start line (and its warnings) go to stderr.
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m?.[1]) done({ url: m[1], stop });
    });
    child.once('exit', (code) => failed(new Error(`canonry serve exited with ${code}: ${out}`)));
  });
}

/**
 * In the page: the first frame at which the board is interactive, as `performance.now()`.
 * @param {number} notes
 */
function interactive(notes) {
  const doc = /** @type {any} */ (globalThis).document;
  const heading = doc.querySelector('#current-h');
  if (!heading?.textContent.includes(`(${notes})`)) return false;
  const groups = [...doc.querySelectorAll('section.type-group')];
  if (groups.length === 0 || groups.some((g) => !g.querySelector('article.note'))) return false;
  const control = doc.querySelector('main a[href], main button');
  if (!control) return false;
  control.focus();
  if (doc.activeElement !== control) return false;
  control.blur();
  const at = performance.now();
  const board = performance.getEntriesByType('resource').find((e) => /\/board$/.test(e.name));
  const script = performance
    .getEntriesByType('resource')
    .find((e) => /\/assets\/index-[^/]+\.js$/.test(e.name));
  return {
    at,
    scriptEnd: script ? script.responseEnd : 0,
    boardStart: board ? board.startTime : 0,
    boardEnd: board ? board.responseEnd : 0,
  };
}

/** @typedef {{ at: number, scriptEnd: number, boardStart: number, boardEnd: number }} Timing */

/** @param {number[]} xs */
const stats = (xs) => ({
  median: median(xs),
  min: Math.min(...xs),
  max: Math.max(...xs),
  iqr: /** @type {[number, number]} */ ([quantile(xs, 0.25), quantile(xs, 0.75)]),
});

/** The gzip sizes of the built workbench: what the board loads, and the views' own chunks. */
function shipped() {
  const dir = join(ROOT, 'dist/web');
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const files = readdirSync(join(dir, 'assets')).map((name) => {
    const bytes = readFileSync(join(dir, 'assets', name));
    return {
      name,
      raw: bytes.length,
      gzip: gzipSync(bytes).length,
      entry: html.includes(`/assets/${name}`),
      js: name.endsWith('.js'),
    };
  });
  const sum = (/** @type {typeof files} */ fs, /** @type {'raw' | 'gzip'} */ k) =>
    fs.reduce((n, f) => n + f[k], 0);
  return { files, sum };
}

const ms = (/** @type {number} */ x) => `${x.toFixed(0)} ms`;

async function main() {
  const data = mkdtempSync(join(tmpdir(), 'canonry-bench-web-'));
  try {
    const seeded = await seed(data);
    const server = await serve(data);
    progress(SCOPE, `serving at ${server.url}`);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    try {
      const boardUrl = `${server.url}/?project=${PROJECT}`;
      const auth = { authorization: `Bearer ${seeded.token}` };
      /** @type {number[]} */
      const api = [];
      let boardBytes = 0;
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        const res = await fetch(`${server.url}/v1/projects/${PROJECT}/board`, { headers: auth });
        boardBytes = (await res.arrayBuffer()).byteLength;
        api.push(performance.now() - t0);
      }

      // One sign-in as a person does it, through the form.
      const first = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await first.newPage();
      await page.goto(boardUrl);
      await page.getByLabel('Project').fill(PROJECT);
      await page.getByLabel('Token').fill(seeded.token);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForFunction(interactive, NOTES, { polling: 'raf', timeout: 60_000 });
      progress(SCOPE, 'signed in; the board shows every note');

      /** @type {Timing[]} */
      const coldT = [];
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        await context.addInitScript(
          ([key, value]) => /** @type {any} */ (globalThis).sessionStorage.setItem(key, value),
          ['canonry.workbench.session', JSON.stringify({ project: PROJECT, token: seeded.token })],
        );
        const tab = await context.newPage();
        await tab.goto(boardUrl, { waitUntil: 'commit' });
        const at = await tab.waitForFunction(interactive, NOTES, {
          polling: 'raf',
          timeout: 60_000,
        });
        coldT.push(/** @type {Timing} */ (await at.jsonValue()));
        await context.close();
        progress(SCOPE, `cold run ${i + 1}/${RUNS}: ${JSON.stringify(coldT.at(-1))}`);
      }
      /** @type {Timing[]} */
      const warmT = [];
      for (let i = 0; i < RUNS; i++) {
        await page.reload({ waitUntil: 'commit' });
        const at = await page.waitForFunction(interactive, NOTES, {
          polling: 'raf',
          timeout: 60_000,
        });
        warmT.push(/** @type {Timing} */ (await at.jsonValue()));
        progress(SCOPE, `warm run ${i + 1}/${RUNS}: ${JSON.stringify(warmT.at(-1))}`);
      }
      const cold = coldT.map((t) => t.at);
      const warm = warmT.map((t) => t.at);
      /** @param {Timing[]} ts */
      const parts = (ts) => [
        ms(median(ts.map((t) => t.scriptEnd))),
        ms(median(ts.map((t) => t.boardStart))),
        ms(median(ts.map((t) => t.boardEnd))),
        ms(median(ts.map((t) => t.at - t.boardEnd))),
        ms(median(ts.map((t) => t.at))),
      ];
      await first.close();

      const { files, sum } = shipped();
      const entry = files.filter((f) => f.entry);
      const lazy = files.filter((f) => !f.entry);
      const kb = (/** @type {number} */ x) => `${(x / 1024).toFixed(1)} KB`;
      const row = (/** @type {string} */ name, /** @type {number[]} */ xs, target = '< 1 s') => {
        const s = stats(xs);
        return [
          name,
          ms(s.median),
          `${ms(s.iqr[0])}–${ms(s.iqr[1])}`,
          `${ms(s.min)}–${ms(s.max)}`,
          target,
        ];
      };
      const c = stats(cold);
      const w = stats(warm);
      const jsGzip = sum(
        files.filter((f) => f.js),
        'gzip',
      );
      return {
        name: 'board',
        title: `The board of ${fmtInt(NOTES)} notes and ${fmtInt(seeded.entries)} journal entries in chromium, and the JavaScript shipped`,
        tables: [
          table(
            ['navigation → board interactive', 'median', 'IQR', 'range', 'target'],
            [
              row(`cold: fresh context, no cache (${RUNS} runs)`, cold),
              row(`warm: reload of the signed-in tab (${RUNS} runs)`, warm),
              row(`server alone: GET …/board from Node (${kb(boardBytes)})`, api, '—'),
            ],
          ),
          table(
            [
              'where the time goes (medians, since navigation start)',
              'entry JS loaded',
              'GET …/board sent',
              'board received',
              'then rendered in',
              'interactive',
            ],
            [
              ['cold', ...parts(coldT)],
              ['warm', ...parts(warmT)],
            ],
          ),
          table(
            ['shipped (dist/web/assets)', 'files', 'raw', 'gzip', 'target'],
            [
              [
                'loaded by the board (entry JS + CSS)',
                entry.length,
                kb(sum(entry, 'raw')),
                kb(sum(entry, 'gzip')),
                '—',
              ],
              [
                'loaded only with the view that needs it',
                lazy.length,
                kb(sum(lazy, 'raw')),
                kb(sum(lazy, 'gzip')),
                '—',
              ],
              [
                'all JavaScript',
                files.filter((f) => f.js).length,
                kb(
                  sum(
                    files.filter((f) => f.js),
                    'raw',
                  ),
                ),
                kb(jsGzip),
                '< 300 KB',
              ],
            ],
          ),
        ],
        data: {
          seed: seeded,
          runs: RUNS,
          coldMs: cold,
          warmMs: warm,
          coldTimings: coldT,
          warmTimings: warmT,
          boardApiMs: api,
          boardBytes,
          cold: c,
          warm: w,
          files,
          jsGzipBytes: jsGzip,
          met: { interactive: c.median < 1_000, shipped: jsGzip < 300 * 1024 },
        },
      };
    } finally {
      await browser.close();
      await server.stop();
    }
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, main);
