import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/runtime.js';

/** What `npm pack` would publish (from the current dist/: `npm test` builds first). */
let files: string[];
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

beforeAll(() => {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  files = (JSON.parse(out)[0].files as { path: string }[]).map((f) => f.path);
});

describe('the published package', () => {
  it('ships the Apache-2.0 LICENSE it declares', () => {
    expect(pkg.license).toBe('Apache-2.0');
    expect(files).toContain('LICENSE');
    const license = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
    expect(license).toContain(
      'Apache License\n                           Version 2.0, January 2004',
    );
    expect(license).toContain('END OF TERMS AND CONDITIONS');
  });

  it('ships no source maps and no compiled file that points to one', () => {
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('src/'))).toEqual([]);
    const js = files.filter((f) => f.endsWith('.js') && f.startsWith('dist/'));
    expect(js.length).toBeGreaterThan(100);
    const pointing = js.filter((f) =>
      readFileSync(join(ROOT, f), 'utf8').includes('//# sourceMappingURL='),
    );
    expect(pointing).toEqual([]);
  });

  it('ships every entry point it declares', () => {
    const targets = [
      ...Object.values(pkg.exports as Record<string, string>),
      ...Object.values(pkg.bin as Record<string, string>),
    ].map((t) => t.replace(/^\.\//, ''));
    for (const target of targets) expect(files, target).toContain(target);
  });
});
