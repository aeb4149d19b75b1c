/** RFC 3986 URI references (§5.2 resolution) and RFC 6901 JSON pointers, as `$ref` needs them. */

interface UriParts {
  scheme: string | undefined;
  authority: string | undefined;
  path: string;
  query: string | undefined;
  fragment: string | undefined;
}

// RFC 3986 appendix B; it matches every string.
const URI_PATTERN = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;

function parse(reference: string): UriParts {
  const m = URI_PATTERN.exec(reference) ?? [];
  return {
    scheme: m[1]?.toLowerCase(),
    authority: m[2],
    path: m[3] ?? '',
    query: m[4],
    fragment: m[5],
  };
}

function format(u: UriParts): string {
  let out = u.scheme === undefined ? '' : `${u.scheme}:`;
  if (u.authority !== undefined) out += `//${u.authority}`;
  out += u.path;
  if (u.query !== undefined) out += `?${u.query}`;
  if (u.fragment !== undefined) out += `#${u.fragment}`;
  return out;
}

function removeDotSegments(path: string): string {
  const output: string[] = [];
  const keep = path.startsWith('/') ? 1 : 0; // the empty segment before a leading '/'
  const segments = path.split('/');
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const last = i === segments.length - 1;
    if (segment === '.' || segment === '..') {
      if (segment === '..' && output.length > keep) output.pop();
      if (last) output.push('');
    } else output.push(segment);
  }
  return output.join('/');
}

function merge(base: UriParts, path: string): string {
  if (base.authority !== undefined && base.path === '') return `/${path}`;
  const slash = base.path.lastIndexOf('/');
  return slash < 0 ? path : base.path.slice(0, slash + 1) + path;
}

/** Resolves a URI reference against an absolute base URI (RFC 3986 §5.2.2, strict). */
export function resolveUri(reference: string, base: string): string {
  const r = parse(reference);
  if (r.scheme !== undefined) return format({ ...r, path: removeDotSegments(r.path) });
  const b = parse(base);
  const target: UriParts = { ...b, fragment: r.fragment };
  if (r.authority !== undefined) {
    target.authority = r.authority;
    target.path = removeDotSegments(r.path);
    target.query = r.query;
  } else if (r.path === '') {
    target.query = r.query ?? b.query;
  } else {
    target.path = removeDotSegments(r.path.startsWith('/') ? r.path : merge(b, r.path));
    target.query = r.query;
  }
  return format(target);
}

/** Whether a URI reference is absolute (has a scheme). */
export function isAbsoluteUri(reference: string): boolean {
  return parse(reference).scheme !== undefined;
}

/** Splits a URI into the part before `#` and the raw (still percent-encoded) fragment. */
export function splitFragment(uri: string): [string, string] {
  const hash = uri.indexOf('#');
  return hash < 0 ? [uri, ''] : [uri.slice(0, hash), uri.slice(hash + 1)];
}

/** Parses an RFC 6901 pointer into reference tokens; undefined when malformed. */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/') || /~(?![01])/.test(pointer)) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** Appends one reference token to a JSON pointer, escaping `~` and `/`. */
export function appendPointer(pointer: string, token: string | number): string {
  return `${pointer}/${String(token).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}
