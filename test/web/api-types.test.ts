// The workbench's API client is checked against the OpenAPI document the server serves: its types
// are the document rendered as TypeScript (this test renders them again and fails when the
// committed file differs; `npm run web:api` rewrites it), and every path and method the client
// calls is a route of the document, with a request body exactly where the document takes one.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/server/index.js';
import { ROOT } from '../helpers/runtime.js';

const HEADER =
  '// Generated from canonry’s OpenAPI document by test/web/api-types.test.ts; do not edit.\n' +
  '// Rewrite it with `npm run web:api` when an operation changes.\n\n';

/** Every `client.METHOD('/path', …)` call in the workbench's sources, with whether it sends a body. */
function clientCalls(): { method: string; path: string; body: boolean; file: string }[] {
  const calls: { method: string; path: string; body: boolean; file: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.gen.ts')) {
        const text = readFileSync(path, 'utf8');
        for (const m of text.matchAll(/client\.(GET|POST|PUT|DELETE|PATCH)\(\s*'([^']+)'/g)) {
          // The call's arguments, up to its closing parenthesis: a body is sent when they name one.
          let depth = 1;
          let end = m.index! + m[0].length - m[2]!.length - 2;
          while (depth > 0 && ++end < text.length) {
            if (text[end] === '(') depth++;
            else if (text[end] === ')') depth--;
          }
          calls.push({
            method: m[1]!.toLowerCase(),
            path: m[2]!,
            body: /\bbody\b/.test(text.slice(m.index!, end)),
            file: path.slice(ROOT.length + 1),
          });
        }
      }
    }
  };
  walk(join(ROOT, 'web', 'src'));
  return calls;
}

describe('the workbench API client', () => {
  it('is typed by the OpenAPI document rendered as TypeScript, as committed', async () => {
    const ast = await openapiTS(openApiDocument() as never);
    await expect(HEADER + astToString(ast)).toMatchFileSnapshot('../../web/src/api/openapi.gen.ts');
  });

  it('calls only documented routes, with a body only where one is taken', () => {
    const doc = openApiDocument() as {
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    };
    const calls = clientCalls();
    expect(calls.length).toBeGreaterThanOrEqual(8);
    for (const call of calls) {
      const op = doc.paths[call.path]?.[call.method];
      expect(op, `${call.method} ${call.path} (${call.file})`).toBeDefined();
      if (call.body) expect(op!.requestBody, `${call.method} ${call.path}`).toBeDefined();
    }
    expect(calls.map((c) => `${c.method} ${c.path}`)).toContain(
      'post /v1/projects/{project}/proposals/{id}/approve',
    );
  });
});
