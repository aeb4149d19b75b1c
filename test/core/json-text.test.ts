import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CanonryError,
  DEFAULT_MAX_JSON_KEYS,
  DEFAULT_MAX_JSON_VALUES,
  duplicateMemberName,
  jsonTextDepth,
  jsonTextShape,
  parseJsonText,
} from '../../src/core/index.js';

/** The values of a JSON value: itself and, in containers, every member's. */
function countValues(value: unknown): number {
  if (value === null || typeof value !== 'object') return 1;
  const members = Array.isArray(value) ? value : Object.values(value);
  return 1 + members.reduce((n: number, m) => n + countValues(m), 0);
}

/** The distinct member names of a JSON value. */
function namesOf(value: unknown, into = new Set<string>()): Set<string> {
  if (value === null || typeof value !== 'object') return into;
  if (Array.isArray(value)) for (const m of value) namesOf(m, into);
  else
    for (const [k, m] of Object.entries(value)) {
      into.add(JSON.stringify(k).slice(1, -1));
      namesOf(m, into);
    }
  return into;
}

/** The nesting of arrays and objects of a JSON value. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const members = Array.isArray(value) ? value : Object.values(value);
  return 1 + members.reduce((d: number, m) => Math.max(d, depthOf(m)), 0);
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof CanonryError ? err.code : 'NOT_TYPED';
  }
  return undefined;
}

describe('parseJsonText', () => {
  it('measures depth outside strings only', () => {
    expect(jsonTextDepth('{"a":[1,{"b":"[[[["}]}')).toBe(3);
    expect(jsonTextDepth('"\\"[[["')).toBe(0);
    expect(jsonTextDepth('[]')).toBe(1);
  });

  it('refuses deep nesting before parsing', () => {
    const text = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(codeOf(() => parseJsonText(text, 64))).toBe('NESTING_TOO_DEEP');
    expect(codeOf(() => parseJsonText('[[1]]', 2))).toBeUndefined();
    expect(codeOf(() => parseJsonText('[[[1]]]', 2))).toBe('NESTING_TOO_DEEP');
  });

  it('counts values outside strings (members twice) and distinct member names', () => {
    expect(jsonTextShape('[1,2,3]').values).toBe(4);
    expect(jsonTextShape('{"a":1,"b":[true,null]}', { keys: 100 })).toEqual({
      depth: 2,
      values: 7,
      keys: 2,
      duplicate: null,
    });
    expect(jsonTextShape(String.raw`["a,b,[c]", "\\", "\\\"]", 1]`).values).toBe(5);
    expect(jsonTextShape('[{"k":1},{"k" :2},{"j":"k:"}]', { keys: 100 }).keys).toBe(2);
    expect(jsonTextShape('"unterminated [').values).toBe(1);
    // The count bounds the values JSON.parse makes, and the names it meets, for any text that parses.
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value, null, Math.random() < 0.5 ? 1 : undefined);
        const shape = jsonTextShape(text, { keys: 1e9 });
        expect(shape.values).toBeGreaterThanOrEqual(countValues(value));
        expect(shape.depth).toBe(depthOf(value));
        expect(shape.keys).toBe(namesOf(value).size);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses more values or member names than the bounds before parsing, as PAYLOAD_TOO_LARGE', () => {
    const bounds = { values: DEFAULT_MAX_JSON_VALUES, keys: DEFAULT_MAX_JSON_KEYS };
    const many = JSON.stringify(Array.from({ length: 40_000 }, (_, i) => i));
    expect(codeOf(() => parseJsonText(many, 64, bounds))).toBe('PAYLOAD_TOO_LARGE');
    expect(codeOf(() => parseJsonText(many, 64))).toBeUndefined();
    const fits = JSON.stringify(Array.from({ length: 30_000 }, (_, i) => i));
    expect(codeOf(() => parseJsonText(fits, 64, bounds))).toBeUndefined();
    // Members count twice: 20,000 one-member objects are 60,001 values.
    const members = JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ k: i })));
    expect(codeOf(() => parseJsonText(members, 64, bounds))).toBe('PAYLOAD_TOO_LARGE');
    const names = JSON.stringify(Array.from({ length: 5_000 }, (_, i) => ({ [`k${i}`]: i })));
    expect(codeOf(() => parseJsonText(names, 64, { keys: DEFAULT_MAX_JSON_KEYS }))).toBe(
      'PAYLOAD_TOO_LARGE',
    );
    const same = JSON.stringify(Array.from({ length: 5_000 }, () => ({ k: 1 })));
    expect(codeOf(() => parseJsonText(same, 64, bounds))).toBeUndefined();
  });

  it('refuses text that is not JSON with a typed error', () => {
    expect(codeOf(() => parseJsonText('{"a":'))).toBe('MALFORMED_BODY');
    expect(codeOf(() => parseJsonText("{'a':1}"))).toBe('MALFORMED_BODY');
    expect(codeOf(() => parseJsonText(''))).toBe('MALFORMED_BODY');
  });

  it('refuses an object naming a member twice as MALFORMED_BODY, naming the member', () => {
    const refusal = (text: string): Record<string, unknown> | undefined => {
      try {
        parseJsonText(text, 64, { values: DEFAULT_MAX_JSON_VALUES, keys: DEFAULT_MAX_JSON_KEYS });
      } catch (err) {
        if (err instanceof CanonryError)
          return { code: err.code, message: err.message, ...err.details };
      }
      return undefined;
    };
    expect(refusal('{"label":"BLOCK","amount":1,"label":"AUTO_APPROVE"}')).toEqual({
      code: 'MALFORMED_BODY',
      message: 'an object names member "label" twice',
      member: 'label',
    });
    // Escaped, the name is the same one JSON.parse keeps.
    expect(refusal(String.raw`{"a":1,"\u0061":2}`)?.member).toBe('a');
    expect(refusal(String.raw`{"\"":1,"\u0022":2}`)?.member).toBe('"');
    // Given again after a nested object (which named it too) closed.
    expect(refusal('{"a":{"a":1,"b":2},"c":[{"a":1}],"a":3}')?.member).toBe('a');
    // Past the names an object keeps in a list: 40 members, the first given again last.
    const many = Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`).join(',');
    expect(refusal(`{${many},"k0":0}`)?.member).toBe('k0');
    expect(refusal(`{${many},"k39":0}`)?.member).toBe('k39');
    expect(refusal(`{${many}}`)).toBeUndefined();
    // Siblings at one depth, each with its own names.
    expect(refusal('[{"a":1,"b":2},{"b":1,"a":2},{"c":{"a":1}}]')).toBeUndefined();
    expect(refusal('[{"a":1,"b":2},{"b":1,"c":2,"b":3}]')?.member).toBe('b');
    // A long name is quoted cut, whole code points.
    const long = `${'😀'.repeat(100)}`;
    const cut = refusal(`{${JSON.stringify(long)}:1,${JSON.stringify(long)}:2}`);
    expect(cut?.member).toBe(`${'😀'.repeat(64)}…`);
    expect(cut?.message).toContain(`"${'😀'.repeat(64)}…" twice`);
    // Text that is not JSON is refused as such, though it also names a member twice.
    expect(refusal('{"a":1,"a":')?.message).toBe('the text is not valid JSON');
  });

  it('finds a member given twice wherever it is put in any JSON text, and none in one stringified', () => {
    const object = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), {
      minKeys: 1,
      maxKeys: 30,
    });
    fc.assert(
      fc.property(fc.jsonValue(), object, fc.nat(), fc.boolean(), (value, members, at, escaped) => {
        expect(jsonTextShape(JSON.stringify(value), { unique: true }).duplicate).toBeNull();
        const entries = Object.entries(members).map(
          ([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`,
        );
        const names = Object.keys(members);
        const name = names[at % names.length] as string;
        // The same name once more, its characters escaped or not, somewhere among the members.
        const again = escaped
          ? `"${[...name].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`
          : JSON.stringify(name);
        entries.splice(at % (entries.length + 1), 0, `${again}:null`);
        // The object goes where the array's last element, the placeholder, is: a first match of
        // it could be inside `value` (a string holding `"{`).
        const around = JSON.stringify([value, '{']);
        expect(around.endsWith(',"{"]')).toBe(true);
        const text = `${around.slice(0, -4)}{${entries.join(',')}}]`;
        expect(jsonTextShape(text, { unique: true }).duplicate).toBe(name);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps __proto__ as plain data', () => {
    const value = parseJsonText('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(value)).toEqual(['__proto__']);
  });
});

describe('duplicateMemberName', () => {
  it('finds a name given twice in one object, however it is escaped', () => {
    expect(duplicateMemberName('{"a":1,"a":2}')).toBe('a');
    expect(duplicateMemberName('{"a":1,"\\u0061":2}')).toBe('a');
    expect(duplicateMemberName('{"x":{"b":[1,{"c":1,"c":2}]}}')).toBe('c');
    expect(duplicateMemberName('{ "k" : 1 , "k"\n:\t2 }')).toBe('k');
  });

  it('finds none where each object names each member once', () => {
    expect(duplicateMemberName('{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}')).toBeNull();
    expect(duplicateMemberName('["a","a",{"a":"a"}]')).toBeNull();
    expect(duplicateMemberName('{"a":"\\"a\\":","b":"a"}')).toBeNull();
    expect(duplicateMemberName('"a"')).toBeNull();
  });
});
