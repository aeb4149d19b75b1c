import type { Api } from '../../api/client.js';
import { headOf } from '../../api/journal.js';

/** Entries read per request while exporting (the most the journal route answers). */
const PAGE = 1_000;

/**
 * The journal as the signed-in principal may read it, as JSON Lines: a header line, then every
 * entry in seq order — whole, so each re-hashes to its `hash` and links to the one before, or, for
 * another principal's personal plane (LCSM §14), only its place in the chain. The signed segment of
 * the whole chain stays an operator's export (`canonry journal export`): it carries every plane.
 */
export async function exportJournal(api: Api): Promise<{ name: string; text: string }> {
  const lines: string[] = [];
  let after: number | null = 0;
  let head = { seq: 0, hash: '' };
  let redacted = 0;
  while (after !== null) {
    const page: Awaited<ReturnType<Api['journalEntries']>> = await api.journalEntries(after, PAGE);
    head = headOf(page.head);
    for (const e of page.entries) {
      if ((e as { redacted?: unknown }).redacted === true) redacted++;
      lines.push(JSON.stringify(e));
    }
    after = page.next_after ?? null;
  }
  const header = {
    type: 'canonry/journal-view',
    v: 1,
    project: api.session.project,
    head,
    entries: lines.length,
    redacted,
    exported_at: new Date().toISOString(),
  };
  return {
    name: `${api.session.project}-journal-${head.seq}.jsonl`,
    text: `${[JSON.stringify(header), ...lines].join('\n')}\n`,
  };
}

/** Hands `text` to the browser as a file download. */
export function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/jsonl' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
