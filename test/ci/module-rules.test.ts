import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

function cruise(cwd: string, ...args: string[]) {
  return spawnSync(process.execPath, [DEPCRUISE, 'src', '--config', CONFIG, ...args], {
    cwd,
    encoding: 'utf8',
  });
}

interface Violation {
  readonly rule: { readonly name: string };
  readonly from: string;
  readonly to: string;
}

describe('module rules (.dependency-cruiser.cjs)', () => {
  it('refuse each kind of wrong import, naming the rule', () => {
    const fixture = join(ROOT, 'test', 'fixtures', 'module-rules');
    const text = cruise(fixture);
    expect(text.status).not.toBe(0);
    expect(text.stdout).toContain(
      'error kernel-never-reaches-storage: src/kernel/index.ts → src/store/index.ts',
    );

    const json = cruise(fixture, '--output-type', 'json');
    const found = (JSON.parse(json.stdout).summary.violations as Violation[])
      .map(
        (v) => `${v.rule.name}: ${v.from} → ${v.to.replace(/^.*node_modules\//, 'node_modules/')}`,
      )
      .sort();
    // Exactly these: the fixture's allowed imports (store → core, canon → journal's index, relay →
    // canon's index, server → core, a module's own files) raise nothing.
    expect(found).toEqual([
      'drivers-only-in-store: src/models/index.ts → node_modules/pg/esm/index.mjs',
      'evolution-imports-only-below-it: src/evolution/index.ts → src/relay/index.ts',
      'evolution-never-reaches-canon-or-relay: src/evolution/index.ts → src/relay/index.ts',
      'faces-never-import-each-other: src/mcp/index.ts → src/server/index.ts',
      'journal-imports-only-below-it: src/journal/index.ts → src/canon/index.ts',
      'journal-never-reaches-canon: src/journal/index.ts → src/canon/index.ts',
      'kernel-imports-only-below-it: src/kernel/index.ts → src/store/index.ts',
      'kernel-never-reaches-storage: src/kernel/index.ts → src/store/index.ts',
      'mcp-imports-only-below-it: src/mcp/index.ts → src/server/index.ts',
      'no-module-internals: src/canon/index.ts → src/store/driver.ts',
    ]);
  });

  it('pass on canonry itself', () => {
    const result = cruise(ROOT);
    expect(result.stdout).toContain('no dependency violations found');
    expect(result.status).toBe(0);
  });
});
