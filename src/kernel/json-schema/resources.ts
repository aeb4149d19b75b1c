import { isObject } from './equal.js';
import { BUILTIN_DOCUMENTS } from './meta.js';
import { SchemaError } from './schema-error.js';
import { subschemas } from './subschemas.js';
import type { NodeInfo, Resource, SchemaDocument } from './types.js';
import { appendPointer, parsePointer, resolveUri, splitFragment } from './uri.js';

/** A schema found by a reference, with where it sits. */
export interface Target {
  readonly value: unknown;
  readonly info: NodeInfo;
}

/** Pointer into the root schema for errors ('' for other documents). */
export function errorPath(info: NodeInfo): string {
  return info.resource.document.isRoot ? info.pointer : '';
}

/** The schema resources of a compilation, indexed by URI, and where every schema object sits. */
export class Registry {
  private readonly resources = new Map<string, Resource>();
  private readonly nodes = new Map<object, NodeInfo>();

  /** Registers a document under `uri` (and under its root `$id`); earlier registrations win. */
  addDocument(root: unknown, uri: string, isRoot: boolean): Resource {
    const document: SchemaDocument = { uri, label: isRoot ? '' : uri, root, isRoot };
    const resource = this.index(root, uri, null, '', document);
    if (!this.resources.has(uri)) this.resources.set(uri, resource);
    return resource;
  }

  /** The resource with this absolute URI (no fragment); built-in meta-schemas load on demand. */
  resource(uri: string): Resource | undefined {
    const known = this.resources.get(uri);
    if (known !== undefined || !BUILTIN_DOCUMENTS.has(uri)) return known;
    return this.addDocument(BUILTIN_DOCUMENTS.get(uri), uri, false);
  }

  /** Where an indexed schema object sits. */
  info(node: object): NodeInfo | undefined {
    return this.nodes.get(node);
  }

  /** Resolves a `$ref` value against a base URI; throws SchemaError (at `from`) when nothing matches. */
  resolve(reference: string, base: string, from: NodeInfo): Target & { anchor: string | null } {
    const fail = (why: string): never => {
      throw new SchemaError(
        errorPath(from),
        `cannot resolve $ref ${JSON.stringify(reference)}: ${why}`,
      );
    };
    // A fragment-only reference (the usual `#/$defs/x`) needs no RFC 3986 resolution.
    const [uri, raw] = reference.startsWith('#')
      ? [splitFragment(base)[0], reference.slice(1)]
      : splitFragment(resolveUri(reference, base));
    const resource = this.resource(uri) ?? fail(`no schema is registered as ${uri}`);
    let fragment = '';
    try {
      fragment = decodeURIComponent(raw);
    } catch {
      fail('the fragment is not valid percent-encoding');
    }
    if (fragment !== '' && !fragment.startsWith('/')) {
      const value = resource.anchors.get(fragment) ?? fail(`no anchor ${fragment} in ${uri}`);
      return { value, info: this.nodes.get(value)!, anchor: fragment };
    }
    const tokens = parsePointer(fragment) ?? fail('malformed JSON pointer');
    let value = resource.root;
    let owner = isObject(value) ? this.nodes.get(value) : undefined;
    let pointer = owner?.pointer ?? '';
    for (const token of tokens) {
      if (Array.isArray(value) && /^(?:0|[1-9]\d*)$/.test(token) && Number(token) < value.length) {
        value = value[Number(token)];
      } else if (isObject(value) && Object.hasOwn(value, token)) value = value[token];
      else fail(`${uri}#${fragment} does not exist`);
      pointer = appendPointer(pointer, token);
      if (typeof value === 'object' && value !== null) owner = this.nodes.get(value) ?? owner;
    }
    if (typeof value === 'object' && value !== null && !this.nodes.has(value)) {
      // A schema inside data or an unknown keyword: indexed now, inheriting its base URI.
      this.index(
        value,
        owner?.base ?? uri,
        owner?.resource ?? resource,
        pointer,
        resource.document,
      );
    }
    const info = (typeof value === 'object' && value !== null && this.nodes.get(value)) || {
      base: owner?.base ?? uri,
      resource: owner?.resource ?? resource,
      pointer,
    };
    return { value, info, anchor: null };
  }

  /** Indexes a schema and its subschemas: base URIs, `$id` resources and anchors. */
  index(
    value: unknown,
    base: string,
    parent: Resource | null,
    pointer: string,
    document: SchemaDocument,
  ): Resource {
    let top: Resource | undefined;
    const pending: [unknown, string, Resource | null, string][] = [[value, base, parent, pointer]];
    while (pending.length > 0) {
      const [node, inherited, outer, at] = pending.pop()!;
      if (isObject(node) && this.nodes.has(node)) continue;
      let here = inherited;
      let resource = outer;
      const id = isObject(node) && typeof node.$id === 'string' ? node.$id : undefined;
      if (id !== undefined || resource === null) {
        if (id !== undefined) here = splitFragment(resolveUri(id, inherited))[0];
        resource = this.newResource(here, node, outer, document);
      }
      top ??= resource;
      if (!isObject(node)) continue;
      this.nodes.set(node, { base: here, resource, pointer: at });
      if (typeof node.$anchor === 'string' && !resource.anchors.has(node.$anchor))
        resource.anchors.set(node.$anchor, node);
      if (typeof node.$dynamicAnchor === 'string') {
        if (!resource.anchors.has(node.$dynamicAnchor))
          resource.anchors.set(node.$dynamicAnchor, node);
        if (!resource.dynamicAnchors.has(node.$dynamicAnchor))
          resource.dynamicAnchors.set(node.$dynamicAnchor, node);
      }
      for (const [tokens, child] of subschemas(node))
        pending.push([child, here, resource, tokens.reduce(appendPointer, at)]);
    }
    return top!;
  }

  private newResource(
    uri: string,
    root: unknown,
    parent: Resource | null,
    document: SchemaDocument,
  ): Resource {
    const declared = isObject(root) && typeof root.$schema === 'string' ? root.$schema : undefined;
    const resource: Resource = {
      uri,
      root,
      parent,
      dialect: declared === undefined ? null : splitFragment(resolveUri(declared, uri))[0],
      document,
      anchors: new Map(),
      dynamicAnchors: new Map(),
      dynamic: new Map(),
      vocabularies: null,
    };
    if (!this.resources.has(uri)) this.resources.set(uri, resource);
    return resource;
  }
}
