import { createHash } from 'node:crypto';
import { canonicalize, isCanonryError } from '../core/index.js';
import type { JournalEntry } from '../journal/index.js';
import { hmacCheck } from '../trust/index.js';
import { applyChange } from './cso-change.js';
import { csoDigest } from './cso-digest.js';
import { checkChain, csoBytes } from './cso-seal.js';
import { sessionEntryOf, windowEntryOf } from './entry-kinds.js';
import type { Relay } from './relay.js';
import {
  projectedWindow,
  type RelaySessionRecord,
  type RelayWindowEntry,
} from './session-types.js';
import type { CognitiveStateObject } from './types.js';

/**
 * What checking a session found: the first window that breaks, if any (window 0: the session itself,
 * as the projection serves it, is not the one journaled).
 */
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

/** A journaled entry of the session whose body is not its kind's (window 0: the session's own). */
interface UnreadableWindow {
  readonly window_number: number;
  readonly detail: string;
}

/**
 * The window a journal entry whose body failed its kind's check was of, read loosely from the body
 * (`window.session_id`, `window.window_number`): null when it is not one of `sessionId`'s.
 */
function unreadableOf(entry: JournalEntry, sessionId: string, err: Error): UnreadableWindow | null {
  const body = entry.body as {
    window?: { session_id?: unknown; window_number?: unknown };
    session?: { session_id?: unknown };
  } | null;
  // The session's own entry (window 0), or one of its windows.
  if (body?.session?.session_id === sessionId) return { window_number: 0, detail: err.message };
  const window = body?.window;
  if (window?.session_id !== sessionId) return null;
  const n = window.window_number;
  return { window_number: Number.isSafeInteger(n) ? (n as number) : 0, detail: err.message };
}

/**
 * The session as the journal holds it (its `relay.session` entry), its window entries in order,
 * and the first of its window entries whose body does not pass its kind's check (a tampered row).
 */
async function journaled(
  relay: Relay,
  project: string,
  sessionId: string,
): Promise<{
  session: RelaySessionRecord | null;
  windows: RelayWindowEntry[];
  unreadable: UnreadableWindow | null;
}> {
  const windows: RelayWindowEntry[] = [];
  let session: RelaySessionRecord | null = null;
  let unreadable: UnreadableWindow | null = null;
  let after = 0;
  for (;;) {
    const page = await relay.canon.journal.read(project, { after, limit: 1_000 });
    for (const entry of page) {
      let window: RelayWindowEntry | null;
      let started: RelaySessionRecord | null;
      try {
        window = windowEntryOf(entry);
        started = window ? null : sessionEntryOf(entry);
      } catch (err) {
        if (!isCanonryError(err, 'ENTRY_BODY_INVALID')) throw err;
        unreadable ??= unreadableOf(entry, sessionId, err);
        continue;
      }
      if (window?.session_id === sessionId) windows.push(window);
      if (started?.session_id === sessionId) session = started;
    }
    if (page.length < 1_000) return { session, windows, unreadable };
    after = page.at(-1)!.seq;
  }
}

/**
 * Each window's CSO folded from the journaled changes, in order; a change that does not fold
 * (its base missing) leaves the rest unfolded, and the chain check names that window.
 */
function fold(entries: readonly RelayWindowEntry[]): unknown[] {
  const out: unknown[] = [];
  let prior: CognitiveStateObject | null = null;
  for (const entry of entries) {
    try {
      prior = applyChange(prior, entry.state);
      out.push(prior);
    } catch (err) {
      out.push({ unfolded: (err as Error).message });
      prior = null;
    }
  }
  return out;
}

/**
 * Checks a session from the journal: every window's CSO — folded from the journaled changes — is
 * sealed by the project's key over its own digest (canonical bytes for version 1 entries), linked
 * to its predecessor (window 1 to the session's genesis), numbered in order, and the projection
 * serves exactly what the journal holds (each window's entry; and the last window's CSO as its
 * reader makes it from those entries' changes — an earlier window's is made from a prefix of the
 * same entries). Names the first window that breaks.
 */
export async function verifySession(
  relay: Relay,
  project: string,
  served: { readonly session: RelaySessionRecord; readonly windows: number },
): Promise<ChainReport> {
  const sessionId = served.session.session_id;
  const { session, windows: entries, unreadable } = await journaled(relay, project, sessionId);
  const base = { session_id: sessionId, windows: entries.length };
  const broken = (
    window_number: number,
    reason: NonNullable<ChainReport['broken']>['reason'],
    detail: string,
  ): ChainReport => ({ ...base, ok: false, broken: { window_number, reason, detail } });
  const projection = (window_number: number, detail: string) =>
    broken(window_number, 'projection', detail);
  if (unreadable !== null) return broken(unreadable.window_number, 'schema', unreadable.detail);
  // What the session's next windows are asked with: the projection's row, so it must be the
  // journal's, and so must its count of windows (a window after them is numbered from it).
  if (session === null || canonicalize(session) !== canonicalize(served.session)) {
    return projection(0, 'the session the projection serves is not the session journaled');
  }
  if (served.windows !== entries.length) {
    return projection(
      Math.min(served.windows, entries.length) + 1,
      `the projection counts ${served.windows} windows; the journal holds ${entries.length}`,
    );
  }
  const csos = fold(entries);
  const sealedOver = (cso: CognitiveStateObject, i: number) =>
    entries[i]?.sealed_over === 'bytes' ? csoBytes(cso) : csoDigest(cso);
  // The keys are checked first (reading a retired key may touch the disk); the chain walk then
  // looks each seal's verdict up by the bytes it covers.
  const verdicts = new Map<string, { ok: boolean; reason?: string }>();
  const keyOf = (bytes: Uint8Array, seal: string) =>
    `${seal} ${createHash('sha256').update(bytes).digest('hex')}`;
  for (const [i, cso] of csos.entries()) {
    const c = cso as CognitiveStateObject;
    if (typeof c.cso_hmac !== 'string' || !Array.isArray(c.established_facts)) continue;
    let bytes: Uint8Array;
    try {
      bytes = sealedOver(c, i);
    } catch {
      continue; // not a CSO: the chain check names it
    }
    verdicts.set(keyOf(bytes, c.cso_hmac), await hmacCheck(relay.hmac, project, bytes, c.cso_hmac));
  }
  const chain = checkChain(
    csos,
    (bytes, seal) => verdicts.get(keyOf(bytes, seal)) ?? { ok: false, reason: 'mismatch' },
    session.genesis,
    { session_id: sessionId, sealedOver },
  );
  if (!chain.ok) return broken(chain.window_number, chain.reason, chain.detail ?? chain.reason);
  const reader = relay.reader(project);
  try {
    const rows = await reader.entries(sessionId);
    const last = Math.max(rows.length, entries.length) - 1;
    for (let i = 0; i <= last; i++) {
      const a = entries[i];
      const b = rows[i];
      const same =
        a !== undefined &&
        b !== undefined &&
        canonicalize(projectedWindow(a)) === canonicalize(b) &&
        (i < last || canonicalize(await reader.cso(b)) === canonicalize(csos[i]));
      if (!same) {
        return projection(
          (a ?? b)!.window_number,
          'the projection does not serve what the journal holds',
        );
      }
    }
  } catch (err) {
    // A row that does not parse: the window it belongs to, named as any other projection break.
    if (!isCanonryError(err, 'STORE_CORRUPT')) throw err;
    const n = err.details?.window_number;
    return projection(typeof n === 'number' ? n : 0, err.message);
  }
  return { ...base, ok: true, broken: null };
}
