import { type CanonryRuntime, KERNEL_AUDIT_PROJECT } from '../../src/app/index.js';
import { type TokenRole, TokenStore } from '../../src/auth/index.js';

/** Issues one token per principal: `{ alice: 'owner', assistant: 'agent' }` → `{ alice: 'cnr_…', … }`. */
export async function tokensFor<K extends string>(
  runtime: CanonryRuntime,
  project: string,
  principals: Record<K, TokenRole>,
): Promise<Record<K, string>> {
  const out = {} as Record<K, string>;
  // Straight into the token table, as an operator with the database would: the suites count the
  // entries of the projects they test, and token issuance is journaled by the runtime's own store.
  const direct = new TokenStore(runtime.store);
  for (const [principal, role] of Object.entries(principals) as [K, TokenRole][]) {
    out[principal] = (await direct.create(project, principal, role)).token;
  }
  return out;
}

/** A response: status, parsed JSON body (null when empty or not JSON) and headers. */
export interface Called {
  readonly status: number;
  readonly body: any;
  readonly headers: Headers;
}

/**
 * Calls the live server. `body` is sent as JSON; a string is sent as-is (to test malformed bodies)
 * with `content-type: application/json` unless `contentType` says otherwise. `token` null sends no
 * Authorization header; `authorization` overrides the header entirely.
 */
export async function call(
  url: string,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
  options: { contentType?: string; authorization?: string; headers?: Record<string, string> } = {},
): Promise<Called> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  else if (token !== null) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  const res = await fetch(`${url}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** The scripted classifier config of the LCSM §1 story (the `ui.colour` subject of `src/app/lcsm-story.ts`). */
export const STORY_SUBJECTS = {
  subjects: {
    'ui.colour': {
      title: 'Interface colour',
      object_type: 'preference',
      keywords: ['red', 'blue', 'colour', 'color', 'palette'],
    },
  },
};

/**
 * Every journal head, every token and the canon rows: equal before and after means nothing was
 * written. The kernel's own audit project is left out: its records of earlier gate evaluations are
 * batched and land asynchronously (a gate evaluation always shows up as a canon proposal anyway).
 */
export async function writeSnapshot(runtime: CanonryRuntime): Promise<unknown> {
  const count = async (table: string) =>
    (await runtime.store.all<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))[0]!.n;
  return {
    heads: await runtime.store.all(
      'SELECT * FROM journal_heads WHERE project <> $1 ORDER BY project',
      [KERNEL_AUDIT_PROJECT],
    ),
    tokens: await runtime.store.all(
      'SELECT token_id, revoked_at FROM auth_tokens ORDER BY token_id',
    ),
    objects: await count('canon_objects'),
    versions: await count('canon_versions'),
    proposals: await runtime.store.all(
      'SELECT proposal_id, status, record FROM canon_proposals ORDER BY proposal_id',
    ),
    messages: await count('canon_messages'),
    artifacts: await runtime.store.all(
      'SELECT artifact_id, seq FROM canon_artifacts ORDER BY artifact_id',
    ),
  };
}
