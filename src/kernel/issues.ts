/** One problem found in an agentic protocol bundle, located by a JSON pointer into the bundle. */
export interface ProtocolIssue {
  /** RFC 6901 JSON pointer into the bundle as submitted ('' is the bundle itself). */
  path: string;
  /** What is wrong, for the protocol author; never shown to artifact submitters. */
  message: string;
}

/** Appends reference tokens to a JSON pointer, escaping `~` and `/` as RFC 6901 requires. */
export function pointer(base: string, ...tokens: (string | number)[]): string {
  let out = base;
  for (const token of tokens)
    out += `/${String(token).replaceAll('~', '~0').replaceAll('/', '~1')}`;
  return out;
}

/** Renders any thrown value as a short, single-line message without calling user-controlled code. */
export function describeThrown(value: unknown): string {
  let text: string;
  if (value instanceof Error) text = `${value.name}: ${value.message}`;
  else if (typeof value === 'number' && Number.isNaN(value)) text = 'NaN';
  else if (
    value !== null &&
    typeof value === 'object' &&
    typeof Reflect.get(value, 'type') === 'string'
  ) {
    text = String(Reflect.get(value, 'type'));
  } else if (value === null || typeof value !== 'object') text = String(value);
  else text = 'a non-Error object was thrown';
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
