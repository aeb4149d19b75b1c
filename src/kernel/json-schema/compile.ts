import { KEYWORD_STEPS, NODE_STEPS, ONE, zero } from './cost.js';
import { isObject } from './equal.js';
import type { KeywordContext, KeywordDefinition } from './keyword.js';
import { ARRAY_KEYWORDS } from './keywords-array.js';
import { CORE_KEYWORDS } from './keywords-core.js';
import { PROPERTY_SET_KEYWORDS } from './keywords-dependent.js';
import { LOGIC_KEYWORDS } from './keywords-logic.js';
import { OBJECT_KEYWORDS } from './keywords-object.js';
import { SCALAR_KEYWORDS } from './keywords-scalar.js';
import { PATTERN_LIMITS } from './regex.js';
import { errorPath, type Registry } from './resources.js';
import { SchemaError } from './schema-error.js';
import type { Compiled, NodeInfo, Resource, SchemaNode, Slot } from './types.js';
import { appendPointer } from './uri.js';
import { vocabulariesOf } from './vocabulary.js';

// Evaluation order; unevaluated* must come last, after every keyword that annotates.
const DEFINITIONS: readonly KeywordDefinition[] = [
  ...SCALAR_KEYWORDS,
  ...CORE_KEYWORDS,
  ...LOGIC_KEYWORDS,
  ...ARRAY_KEYWORDS,
  ...PROPERTY_SET_KEYWORDS,
  ...OBJECT_KEYWORDS,
].sort((a, b) => Number(isUnevaluated(a)) - Number(isUnevaluated(b)));

/** Each keyword's definition and its place in the evaluation order. */
const BY_NAME = new Map(DEFINITIONS.map((definition, order) => [definition.name, order] as const));

/** The definitions of the keywords a schema object has, in evaluation order. */
function definitionsOf(schema: Record<string, unknown>): KeywordDefinition[] {
  const found: number[] = [];
  for (const key of Object.keys(schema)) {
    const order = BY_NAME.get(key);
    if (order !== undefined) found.push(order);
  }
  return found.sort((a, b) => a - b).map((order) => DEFINITIONS[order]!);
}

function isUnevaluated(definition: KeywordDefinition): boolean {
  return definition.vocabularies.includes('unevaluated');
}

/**
 * Compiles schema objects into {@link SchemaNode}s from a work list (no recursion, so long `$ref`
 * chains cannot overflow the stack); each object is compiled once, so `$ref` cycles simply link up.
 */
export class Compiler {
  private readonly shells = new Map<object, SchemaNode>();
  private readonly pending: [SchemaNode, Record<string, unknown>, NodeInfo][] = [];
  private readonly dynamicNames = new Set<string>();
  private patternWeight = 0;
  /** Resources holding compiled schemas (the only ones a dynamic scope can contain). */
  readonly resources = new Set<Resource>();
  /** Meta-schemas whose `$vocabulary` was consulted. */
  readonly metaSchemas = new Set<Resource>();

  constructor(
    private readonly registry: Registry,
    readonly formatAssertion: boolean,
  ) {}

  /** Every compiled schema object. */
  nodes(): IterableIterator<SchemaNode> {
    return this.shells.values();
  }

  /** The compiled form of a schema (filled in by {@link drain}). */
  node(value: unknown, info: NodeInfo): Compiled {
    if (typeof value === 'boolean') return value;
    if (!isObject(value))
      throw new SchemaError(errorPath(info), 'a schema must be an object or a boolean');
    let shell = this.shells.get(value);
    if (shell === undefined) {
      const path = `${info.resource.document.label}#${info.pointer}`;
      const cost = zero();
      cost[ONE] = NODE_STEPS;
      shell = {
        checks: [],
        inPlace: [],
        children: [],
        steps: NODE_STEPS,
        cost,
        unbounded: false,
        resource: info.resource,
        path,
        ownMarks: false,
      };
      this.shells.set(value, shell);
      this.pending.push([shell, value, info]);
      this.resources.add(info.resource);
    }
    return shell;
  }

  /** Compiles everything reachable, including `$dynamicAnchor`s a `$dynamicRef` may land on. */
  drain(): void {
    for (;;) {
      while (this.pending.length > 0) this.fill(...this.pending.pop()!);
      for (const resource of this.resources) {
        for (const name of this.dynamicNames) {
          const anchor = resource.dynamicAnchors.get(name);
          if (anchor === undefined || resource.dynamic.has(name)) continue;
          resource.dynamic.set(name, this.node(anchor, this.registry.info(anchor)!));
        }
      }
      if (this.pending.length === 0) return;
    }
  }

  private fill(shell: SchemaNode, schema: Record<string, unknown>, info: NodeInfo): void {
    const vocabularies = vocabulariesOf(info.resource, this.registry, (meta) =>
      this.metaSchemas.add(meta),
    );
    for (const definition of definitionsOf(schema)) {
      if (!definition.vocabularies.some((name) => vocabularies.has(name))) continue;
      const check = definition.compile(
        this.context(schema, definition.name, info, vocabularies, shell),
      );
      if (check !== null) {
        const path = `${shell.path}/${definition.name}`; // built once, not on each failure
        shell.checks.push({ keyword: definition.name, check, path });
        shell.steps += KEYWORD_STEPS;
        shell.cost[ONE]! += KEYWORD_STEPS;
      }
      if (isUnevaluated(definition)) shell.ownMarks = true;
    }
  }

  private context(
    schema: Record<string, unknown>,
    keyword: string,
    info: NodeInfo,
    vocabularies: ReadonlySet<string>,
    shell: SchemaNode,
  ): KeywordContext {
    return new Context(this, schema, keyword, info, vocabularies, shell);
  }

  /** Where a subschema value sits, indexing it (with its base URI and resource) when new. */
  locate(info: NodeInfo, pointer: string, value: unknown): NodeInfo {
    if (typeof value !== 'object' || value === null) return { ...info, pointer };
    const known = this.registry.info(value);
    if (known !== undefined) return known;
    this.registry.index(value, info.base, info.resource, pointer, info.resource.document);
    return this.registry.info(value) ?? { ...info, pointer };
  }

  /** Resolves a `$ref` value from a schema (SchemaError when nothing matches). */
  resolve(reference: string, info: NodeInfo): ReturnType<Registry['resolve']> {
    return this.registry.resolve(reference, info.base, info);
  }

  /** Notes a `$dynamicAnchor` name some `$dynamicRef` may look up. */
  dynamicName(name: string): void {
    this.dynamicNames.add(name);
  }

  /** Adds to the schema's pattern compile weight; false once it passes the limit. */
  addPatternWeight(weight: number): boolean {
    this.patternWeight += weight;
    return this.patternWeight <= PATTERN_LIMITS.maxSchemaCompileWeight;
  }
}

/** One keyword's compile context: one object per keyword, its methods on the prototype. */
class Context implements KeywordContext {
  readonly value: unknown;
  readonly formatAssertion: boolean;
  private readonly here: string;

  constructor(
    private readonly compiler: Compiler,
    readonly schema: Record<string, unknown>,
    readonly keyword: string,
    readonly info: NodeInfo,
    readonly vocabularies: ReadonlySet<string>,
    private readonly shell: SchemaNode,
  ) {
    this.value = schema[keyword];
    this.formatAssertion = compiler.formatAssertion;
    this.here = appendPointer(info.pointer, keyword);
  }

  sub(value: unknown, ...tokens: (string | number)[]): Compiled {
    const pointer = tokens.reduce<string>(appendPointer, this.here);
    return this.compiler.node(value, this.compiler.locate(this.info, pointer, value));
  }

  sibling(name: string): Compiled {
    const value = this.schema[name];
    const pointer = appendPointer(this.info.pointer, name);
    return this.compiler.node(value, this.compiler.locate(this.info, pointer, value));
  }

  ref(reference: string): Compiled {
    const target = this.compiler.resolve(reference, this.info);
    return this.compiler.node(target.value, target.info);
  }

  dynamicRef(reference: string): { target: Compiled; dynamic: string | null } {
    const found = this.compiler.resolve(reference, this.info);
    const target = this.compiler.node(found.value, found.info);
    const name = found.anchor;
    if (name === null || found.info.resource.dynamicAnchors.get(name) !== found.value)
      return { target, dynamic: null };
    this.compiler.dynamicName(name);
    return { target, dynamic: name };
  }

  inPlace(schema: Compiled): Compiled {
    this.shell.inPlace.push(schema);
    return schema;
  }

  child(slot: Slot, schema: Compiled): Compiled {
    this.shell.children.push({ slot, schema });
    return schema;
  }

  cost(component: number, amount: number): void {
    this.shell.cost[component]! += amount;
  }

  unbounded(): void {
    this.shell.unbounded = true;
  }

  patternWeight(weight: number): boolean {
    return this.compiler.addPatternWeight(weight);
  }

  // Located at the keyword (and the member it names) when in the root schema; the message names both.
  fail(message: string, ...tokens: (string | number)[]): never {
    const document = this.info.resource.document;
    const where = document.isRoot ? '' : ` (in ${document.uri})`;
    const what = this.keyword + tokens.map((token) => `[${JSON.stringify(token)}]`).join('');
    const path = document.isRoot ? tokens.reduce<string>(appendPointer, this.here) : '';
    throw new SchemaError(path, `${what}: ${message}${where}`);
  }
}
