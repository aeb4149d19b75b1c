import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/runtime.js';

// No Docker daemon in CI: these check the Dockerfile and compose.yaml for what an image and a
// stack need, and that every CANONRY_* variable they set is one canonry reads.

type Yaml = string | Yaml[] | { [key: string]: Yaml };

/**
 * Reads the block-style YAML subset compose.yaml is written in: nested maps, lists of scalars,
 * flow lists in JSON syntax, quoted or plain scalars, comments. Anything else throws.
 */
function readYaml(text: string): Yaml {
  const lines = text
    .split('\n')
    .map((raw) => raw.replace(/\s+#.*$/, '').replace(/^\s*#.*$/, ''))
    .filter((line) => line.trim() !== '')
    .map((line) => ({ indent: line.length - line.trimStart().length, text: line.trim() }));
  let at = 0;
  const scalar = (value: string): Yaml =>
    value.startsWith('"') || value.startsWith('[') ? (JSON.parse(value) as Yaml) : value;
  function block(indent: number): Yaml {
    if (lines[at]!.text.startsWith('- ')) {
      const list: Yaml[] = [];
      while (
        at < lines.length &&
        lines[at]!.indent === indent &&
        lines[at]!.text.startsWith('- ')
      ) {
        list.push(scalar(lines[at++]!.text.slice(2).trim()));
      }
      return list;
    }
    const map: Record<string, Yaml> = {};
    while (at < lines.length && lines[at]!.indent === indent) {
      const match = /^([A-Za-z0-9_.-]+):(?:\s+(.*))?$/.exec(lines[at]!.text);
      if (!match) throw new Error(`unsupported YAML: ${lines[at]!.text}`);
      at++;
      const [, key, value] = match as unknown as [string, string, string | undefined];
      if (value !== undefined) map[key] = scalar(value);
      else if (at < lines.length && lines[at]!.indent > indent) map[key] = block(lines[at]!.indent);
      else map[key] = {};
    }
    if (at < lines.length && lines[at]!.indent > indent) {
      throw new Error(`bad indentation: ${lines[at]!.text}`);
    }
    return map;
  }
  return block(0);
}

/** Every CANONRY_* variable named in canonry's sources: the ones its configuration reads. */
function knownVariables(): Set<string> {
  const known = new Set<string>();
  for (const file of ['src/app/config.ts', 'src/models/env.ts']) {
    for (const m of readFileSync(join(ROOT, file), 'utf8').matchAll(/CANONRY_[A-Z_]+/g)) {
      known.add(m[0]);
    }
  }
  return known;
}

/** The Dockerfile as instructions (continuation lines joined, comments dropped). */
function dockerInstructions(): { op: string; args: string }[] {
  const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [op, ...rest] = line.split(/\s+/);
      return { op: op!.toUpperCase(), args: rest.join(' ') };
    });
}

describe('Dockerfile', () => {
  const steps = dockerInstructions();
  const stages = steps.filter((s) => s.op === 'FROM');
  const finalAt = steps.lastIndexOf(stages.at(-1)!);
  const final = steps.slice(finalAt);

  it('builds in stages on node:20-slim, the image from production dependencies only', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage.args).toMatch(/^node:20-slim\b/);
    const run = steps.filter((s) => s.op === 'RUN').map((s) => s.args);
    expect(run.some((r) => /npm ci --omit=dev/.test(r))).toBe(true);
    expect(run.some((r) => /\bnpm ci\b(?!.*--omit)/.test(r))).toBe(true);
    expect(run.some((r) => /npm run build/.test(r))).toBe(true);
    // The final stage installs nothing and compiles nothing: it copies.
    expect(final.filter((s) => s.op === 'RUN').map((s) => s.args)).toEqual([
      'mkdir -p /data && chown node:node /data',
    ]);
    const names = new Set(stages.map((s) => /\bAS\s+(\S+)/i.exec(s.args)?.[1]).filter(Boolean));
    for (const copy of final.filter((s) => s.op === 'COPY' && s.args.includes('--from='))) {
      expect(names.has(/--from=(\S+)/.exec(copy.args)![1]!)).toBe(true);
    }
  });

  it('copies only what exists and keeps the local state out of the build context', () => {
    for (const copy of steps.filter((s) => s.op === 'COPY' && !s.args.includes('--from='))) {
      const sources = copy.args.split(/\s+/).slice(0, -1);
      for (const source of sources) expect(existsSync(join(ROOT, source)), source).toBe(true);
    }
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const path of ['node_modules', 'dist', '.canonry']) expect(ignored).toContain(path);
  });

  it('runs `canonry serve` as a non-root user, data in a volume, health on /healthz', () => {
    const user = final.filter((s) => s.op === 'USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    expect(final.find((s) => s.op === 'VOLUME')?.args).toBe('["/data"]');
    expect(final.find((s) => s.op === 'EXPOSE')?.args).toBe('7070');
    expect(final.find((s) => s.op === 'HEALTHCHECK')?.args).toContain('/healthz');
    expect(JSON.parse(final.find((s) => s.op === 'ENTRYPOINT')!.args)).toEqual([
      'node',
      '/app/dist/cli/main.js',
    ]);
    expect(JSON.parse(final.find((s) => s.op === 'CMD')!.args)).toEqual(['serve']);
    const env = final
      .filter((s) => s.op === 'ENV')
      .flatMap((s) => s.args.split(/\s+/))
      .map((pair) => pair.split('='));
    const vars = Object.fromEntries(env);
    expect(vars).toEqual(
      expect.objectContaining({ CANONRY_DATA: '/data', CANONRY_HOST: '0.0.0.0' }),
    );
    const known = knownVariables();
    for (const name of Object.keys(vars).filter((n) => n.startsWith('CANONRY_'))) {
      expect(known.has(name), name).toBe(true);
    }
  });
});

describe('compose.yaml', () => {
  const compose = readYaml(readFileSync(join(ROOT, 'compose.yaml'), 'utf8')) as any;

  it('runs canonry on PostgreSQL once the database is healthy', () => {
    const { canonry, postgres } = compose.services;
    expect(postgres.image).toMatch(/^postgres:\d+/);
    expect(postgres.healthcheck.test).toEqual(['CMD-SHELL', 'pg_isready -U canonry -d canonry']);
    expect(canonry.build).toBe('.');
    expect(canonry.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(canonry.environment.CANONRY_DB).toMatch(
      /^postgres:\/\/canonry:\$\{PG_PASSWORD:-canonry\}@postgres:5432\/canonry$/,
    );
    expect(postgres.environment.POSTGRES_PASSWORD).toMatch(/^\$\{PG_PASSWORD:-canonry\}$/);
    expect(canonry.ports).toEqual(['127.0.0.1:7070:7070']);
    expect(canonry.volumes).toEqual(['canonry-data:/data']);
    expect(Object.keys(compose.volumes).sort()).toEqual(['canonry-data', 'postgres-data']);
  });

  it('sets only variables canonry reads', () => {
    const known = knownVariables();
    for (const name of Object.keys(compose.services.canonry.environment)) {
      expect(known.has(name), name).toBe(true);
    }
  });

  it('is what the README documents', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('docker compose up --build');
    expect(readme).toContain('docker build -t canonry .');
  });
});
