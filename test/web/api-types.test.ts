// The workbench's API types are generated from the OpenAPI document the server serves: this test
// renders them again and fails when the committed file differs (`npm run web:api` rewrites it).
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/server/index.js';

const HEADER =
  '// Generated from canonry’s OpenAPI document by test/web/api-types.test.ts; do not edit.\n' +
  '// Rewrite it with `npm run web:api` when an operation changes.\n\n';

describe('the workbench API types', () => {
  it('are the OpenAPI document rendered as TypeScript, as committed', async () => {
    const ast = await openapiTS(openApiDocument() as never);
    await expect(HEADER + astToString(ast)).toMatchFileSnapshot('../../web/src/api/openapi.gen.ts');
  });
});
