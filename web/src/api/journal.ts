/**
 * One journal entry as `GET …/journal?summary=true` tells it: its place in the chain, who acted
 * under which authority, and its kind's policy-safe summary (never a body).
 */
export interface SummaryEntry {
  readonly seq: number;
  readonly kind: string;
  readonly at: string;
  readonly actor: string;
  readonly authority: Readonly<Record<string, string>>;
  readonly hash: string;
  readonly prev_hash: string;
  readonly summary: Readonly<Record<string, unknown>> | null;
}

/** An entry the signed-in principal may not read (another's personal plane, LCSM §14): its place only. */
export interface RedactedEntry {
  readonly seq: number;
  readonly hash: string;
  readonly prev_hash: string;
  readonly redacted: true;
}

export type JournalLine = SummaryEntry | RedactedEntry;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function strings(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof value !== 'object' || value === null) return out;
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** Reads one entry of the page as untrusted JSON; null when it is not one. */
export function journalLine(value: unknown): JournalLine | null {
  if (typeof value !== 'object' || value === null) return null;
  const e = value as Record<string, unknown>;
  if (typeof e.seq !== 'number' || !Number.isSafeInteger(e.seq)) return null;
  const place = { seq: e.seq, hash: str(e.hash), prev_hash: str(e.prev_hash) };
  if (e.redacted === true) return { ...place, redacted: true };
  const summary = e.summary;
  return {
    ...place,
    kind: str(e.kind),
    at: str(e.at),
    actor: str(e.actor),
    authority: strings(e.authority),
    summary:
      typeof summary === 'object' && summary !== null && !Array.isArray(summary)
        ? (summary as Record<string, unknown>)
        : null,
  };
}

/** The head of a journal page (`{ seq, hash }`), read as untrusted JSON. */
export function headOf(value: unknown): { seq: number; hash: string } {
  const h = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return { seq: typeof h.seq === 'number' ? h.seq : 0, hash: str(h.hash) };
}
