import { createHash } from 'node:crypto';
import { canonicalize } from '../core/index.js';
import { hmacCheck } from '../trust/index.js';
import { checkChain, csoBytes } from './cso-seal.js';
import { RELAY_WINDOW } from './entry-kinds.js';
import type { Relay } from './relay.js';
import type { RelaySessionRecord, RelayWindowRecord } from './session-types.js';

/** What checking a session found: the first window that breaks, if any. */
export interface ChainReport {
  readonly session_id: string;
  readonly ok: boolean;
  /** Windows checked. */
  readonly windows: number;
  readonly broken: {
    readonly window_number: number;
    readonly reason: 'hmac' | 'link' | 'numbering' | 'schema' | 'projection';
    readonly detail: string;
  } | null;
}

/** The session's window records as the journal holds them, in order. */
async function journaled(
  relay: Relay,
  project: string,
  sessionId: string,
): Promise<RelayWindowRecord[]> {
  const out: RelayWindowRecord[] = [];
  let after = 0;
  for (;;) {
    const page = await relay.canon.journal.read(project, { after, limit: 1_000 });
    for (const entry of page) {
      if (RELAY_WINDOW.is(entry) && entry.body.window.session_id === sessionId)
        out.push(entry.body.window);
    }
    if (page.length < 1_000) return out;
    after = page.at(-1)!.seq;
  }
}

/**
 * Checks a session from the journal: every window's CSO is sealed by the project's key over its own
 * bytes, linked to its predecessor (window 1 to the session's genesis), numbered in order, and the
 * projection serves exactly what the journal holds. Names the first window that breaks.
 */
export async function verifySession(
  relay: Relay,
  project: string,
  session: RelaySessionRecord,
): Promise<ChainReport> {
  const records = await journaled(relay, project, session.session_id);
  // The keys are checked first (reading a retired key may touch the disk); the chain walk then
  // looks each seal's verdict up by the bytes it covers.
  const verdicts = new Map<string, { ok: boolean; reason?: string }>();
  const keyOf = (bytes: Uint8Array, seal: string) =>
    `${seal} ${createHash('sha256').update(bytes).digest('hex')}`;
  for (const { cso } of records) {
    const bytes = csoBytes(cso);
    verdicts.set(
      keyOf(bytes, cso.cso_hmac),
      await hmacCheck(relay.hmac, project, bytes, cso.cso_hmac),
    );
  }
  const chain = checkChain(
    records.map((r) => r.cso),
    (bytes, seal) => verdicts.get(keyOf(bytes, seal)) ?? { ok: false, reason: 'mismatch' },
    session.genesis,
    { session_id: session.session_id },
  );
  const base = { session_id: session.session_id, windows: records.length };
  if (!chain.ok) {
    return {
      ...base,
      ok: false,
      broken: {
        window_number: chain.window_number,
        reason: chain.reason,
        detail: chain.detail ?? chain.reason,
      },
    };
  }
  const served = await relay.reader(project).windows(session.session_id);
  for (let i = 0; i < Math.max(served.length, records.length); i++) {
    const a = records[i];
    const b = served[i];
    if (!a || !b || canonicalize(a) !== canonicalize(b)) {
      return {
        ...base,
        ok: false,
        broken: {
          window_number: (a ?? b)!.window_number,
          reason: 'projection',
          detail: 'the projection does not serve what the journal holds',
        },
      };
    }
  }
  return { ...base, ok: true, broken: null };
}
