// One workbench under test: the app built from the current sources, a real server on loopback over a
// real SQLite data directory, tokens for the roles a file needs, and one chromium for the file.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { CanonryRuntime } from '../../src/app/index.js';
import type { TokenRole } from '../../src/auth/index.js';
import { buildServer } from '../../src/server/index.js';
import { call, tokensFor } from './auth.js';
import { buildWorkbench, launchChromium } from './browser.js';
import { freshRuntime } from './runtime.js';

export interface WorkbenchUnderTest<K extends string> {
  readonly url: string;
  readonly project: string;
  readonly runtime: CanonryRuntime;
  readonly tokens: Record<K, string>;
  readonly browser: Browser;
  /**
   * The API as `token`: `path` under the project (`/board`), or whole when it starts with `/v1`.
   * A status of 300 or more throws with the body, so a seed never goes on from a refusal.
   */
  api(token: string, method: string, path: string, body?: unknown): Promise<any>;
  /** A fresh browser context signed in with `token` by pasting it, as a person would. */
  signedIn(token: string, path?: string): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

export async function openWorkbench<K extends string>(
  project: string,
  roles: Record<K, TokenRole>,
  runtime?: () => Promise<{ runtime: CanonryRuntime; close: () => Promise<void> }>,
): Promise<WorkbenchUnderTest<K>> {
  const closers: (() => Promise<unknown> | unknown)[] = [];
  const close = async () => {
    for (const step of closers.splice(0)) await step();
  };
  try {
    const build = buildWorkbench();
    closers.unshift(build.cleanup);
    const fresh = await (runtime ?? freshRuntime)();
    closers.unshift(() => fresh.close());
    const app = buildServer(fresh.runtime, { logLevel: 'silent', workbench: build.dir });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    closers.unshift(() => app.close());
    const tokens = await tokensFor(fresh.runtime, project, roles);
    const browser = await launchChromium();
    closers.unshift(() => browser.close());
    return {
      url,
      project,
      runtime: fresh.runtime,
      tokens,
      browser,
      async api(token, method, path, body) {
        const full = path.startsWith('/v1') ? path : `/v1/projects/${project}${path}`;
        const res = await call(url, method, full, token, body);
        if (res.status >= 300)
          throw new Error(`${method} ${full}: ${res.status} ${JSON.stringify(res.body)}`);
        return res.body;
      },
      async signedIn(token, path = '/') {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        await page.goto(`${url}${path}`);
        await page.getByLabel('Project').fill(project);
        await page.getByLabel('Token').fill(token);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.locator('[data-live="live"]').waitFor();
        return { context, page };
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
