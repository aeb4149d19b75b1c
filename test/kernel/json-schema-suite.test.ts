import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../src/core/index.js';
import { compileConstraints } from '../../src/kernel/constraints.js';
import { compileSchema } from '../../src/kernel/json-schema/index.js';
import { conformanceDir } from '../conformance-path.js';

interface SchemaCase {
  description: string;
  schema: JsonObject | boolean;
  tests: { description: string; data: unknown; valid: boolean }[];
}

const root = conformanceDir('JSON-Schema-Test-Suite');
const draft = join(root, 'tests/draft2020-12');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

const remotes: Record<string, JsonValue> = {};
for (const path of files(join(root, 'remotes'))) {
  remotes[`http://localhost:1234/${relative(join(root, 'remotes'), path)}`] = JSON.parse(
    readFileSync(path, 'utf8'),
  );
}

/**
 * Measured pass counts of the optional suites (ajv 8.20, ajv-formats 3.0.1); never lower them. Ajv
 * alone passed 152/162 and 652/764. The hybrid passes more optional tests because the schemas Ajv
 * gets wrong run on the interpreter; it still fails the cross-draft test (no 2019-09 dialect) and the
 * four format-assertion tests (Ajv's meta-schema check cannot resolve meta/format-assertion). The
 * interpreter alone fails only the cross-draft test. Both use ajv-formats' format checks.
 */
const FLOORS = {
  hybrid: { optional: 157, format: 652 },
  interpreter: { optional: 161, format: 652 },
};

type Engine = keyof typeof FLOORS;
type Compile = (
  schema: JsonObject | boolean,
  formatAssertion: boolean,
) => (value: unknown) => boolean;

const ENGINES: Record<Engine, Compile> = {
  hybrid: (schema, formatAssertion) => {
    const check = compileConstraints(schema, { formatAssertion, remotes });
    return (value) => check(value).valid;
  },
  interpreter: (schema, formatAssertion) => {
    const validator = compileSchema(schema, { formatAssertion, remotes });
    return (value) => validator.validate(value).valid;
  },
};

interface Outcome {
  id: string;
  passed: boolean;
}

function runFile(path: string, compile: Compile, formatAssertion: boolean): Outcome[] {
  const cases: SchemaCase[] = JSON.parse(readFileSync(path, 'utf8'));
  const name = relative(draft, path);
  return cases.flatMap((c) => {
    let check: ((value: unknown) => boolean) | undefined;
    try {
      check = compile(c.schema, formatAssertion);
    } catch {
      check = undefined; // a refused schema fails every one of its tests
    }
    return c.tests.map((t) => ({
      id: `${name} | ${c.description} | ${t.description}`,
      passed: check?.(t.data) === t.valid,
    }));
  });
}

function jsonFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => join(dir, f));
}

function run(dir: string, engine: Engine, formatAssertion: boolean): Outcome[] {
  return jsonFiles(dir).flatMap((path) => runFile(path, ENGINES[engine], formatAssertion));
}

for (const engine of ['hybrid', 'interpreter'] as const) {
  const label =
    engine === 'hybrid'
      ? 'compileConstraints (Ajv + interpreter)'
      : 'the canonry interpreter alone';
  describe(`JSON-Schema-Test-Suite draft2020-12 through ${label}`, () => {
    it('passes every required test', () => {
      expect(jsonFiles(draft)).toHaveLength(46);
      const outcomes = run(draft, engine, false);
      const failed = outcomes.filter((o) => !o.passed).map((o) => o.id);
      console.log(
        `json-schema required (${engine}): passed ${outcomes.length - failed.length}/${outcomes.length}`,
      );
      expect(outcomes).toHaveLength(1299);
      expect(failed).toEqual([]);
    });

    it('optional tests', () => {
      const outcomes = run(join(draft, 'optional'), engine, false);
      const passed = outcomes.filter((o) => o.passed).length;
      console.log(`json-schema optional (${engine}): passed ${passed}/${outcomes.length}`);
      expect(outcomes).toHaveLength(162);
      expect(passed).toBeGreaterThanOrEqual(FLOORS[engine].optional);
    });

    it('optional format tests, with format assertion on', () => {
      const outcomes = run(join(draft, 'optional/format'), engine, true);
      const passed = outcomes.filter((o) => o.passed).length;
      console.log(`json-schema optional/format (${engine}): passed ${passed}/${outcomes.length}`);
      expect(outcomes).toHaveLength(764);
      expect(passed).toBeGreaterThanOrEqual(FLOORS[engine].format);
    });
  });
}

/** Ajv as compileConstraints configures it, alone: the reference for which schemas it gets wrong. */
function ajvAlone(schema: JsonObject | boolean): ((value: unknown) => boolean) | undefined {
  const ajv = new Ajv2020({
    strict: false,
    logger: false,
    ownProperties: true,
    validateSchema: false,
  });
  for (const [uri, remote] of Object.entries(remotes)) ajv.addSchema(remote as object, uri);
  try {
    const validate = ajv.compile(schema);
    return (value) => {
      try {
        return validate(value) === true;
      } catch {
        return false;
      }
    };
  } catch {
    return undefined;
  }
}

describe('routing of the required suite', () => {
  it('sends every schema Ajv alone gets wrong to the interpreter', () => {
    let onAjv = 0;
    let wrongOnAjv = 0;
    const misrouted: string[] = [];
    for (const path of jsonFiles(draft)) {
      const cases: SchemaCase[] = JSON.parse(readFileSync(path, 'utf8'));
      for (const c of cases) {
        const { engine } = compileConstraints(c.schema, { remotes });
        if (engine === 'ajv') onAjv++;
        const ajv = ajvAlone(c.schema);
        if (c.tests.every((t) => ajv?.(t.data) === t.valid)) continue;
        wrongOnAjv++;
        if (engine !== 'canonry') misrouted.push(`${relative(draft, path)} | ${c.description}`);
      }
    }
    console.log(
      `json-schema required cases: ${onAjv}/383 on Ajv; ${wrongOnAjv} that Ajv alone gets wrong, all on the interpreter`,
    );
    expect(wrongOnAjv).toBeGreaterThan(0);
    expect(misrouted).toEqual([]);
  });
});
