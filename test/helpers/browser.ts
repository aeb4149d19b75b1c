// Headless Chromium for the workbench's browser tests: Debian's chromium driven by playwright-core,
// one launch per test file, and the workbench built from the current sources for each file's server.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { ROOT, tempDir } from './runtime.js';

/** Debian's chromium (`apt-get install chromium`; `.ci/run` installs it when missing). */
export const CHROMIUM = process.env.CANONRY_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Whether the browser tests run: always in CI (where a missing chromium must fail them, not skip
 * them), elsewhere when chromium is installed.
 */
export const BROWSER_TESTS = process.env.CI === 'true' || existsSync(CHROMIUM);

/**
 * Launches chromium headless. Playwright gives every launch a fresh temporary `--user-data-dir` of
 * its own (and refuses one in `args`), removed on close; the flags keep it off the network and
 * quiet on a shared 2-core machine.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Builds the workbench from `web/` into a fresh directory (about a second); returns it and its cleanup. */
export function buildWorkbench(): { dir: string; cleanup: () => void } {
  const out = tempDir('canonry-web-build-');
  const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  execFileSync(
    process.execPath,
    [vite, 'build', '--config', 'web/vite.config.ts', '--outDir', out.dir, '--logLevel', 'error'],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return out;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8');

/** axe-core's serious and critical violations on the page as it stands (ids and where). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated over the DevTools protocol, so the page's Content-Security-Policy does not block it.
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<any> } }).axe;
    return axe.run();
  });
  return (result.violations as any[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
}

/** Full-page screenshots of the page at 1280 px and at 390 px (a phone) under test-results/. */
export async function screenshots(page: Page, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 1280 ? 800 : 844 });
    await page.screenshot({
      path: join(ROOT, 'test-results', 'workbench', `${name}-${width}.png`),
      fullPage: true,
    });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}
