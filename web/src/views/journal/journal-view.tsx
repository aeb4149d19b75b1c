import { useState } from 'react';
import { headOf } from '../../api/journal.js';
import { useJournalPage } from '../../api/queries.js';
import { useApi } from '../../session/session-context.js';
import { ErrorNote, QueryState } from '../../ui/query-state.js';
import { EntryRow } from './entry-row.js';
import { download, exportJournal } from './export.js';
import { VerifyPanel } from './verify-panel.js';

/** Entries per page. */
const PAGE = 50;

function Export() {
  const api = useApi();
  const [state, setState] = useState<{ busy: boolean; error: unknown; done: string | null }>({
    busy: false,
    error: null,
    done: null,
  });
  const run = async () => {
    setState({ busy: true, error: null, done: null });
    try {
      const file = await exportJournal(api);
      download(file.name, file.text);
      setState({ busy: false, error: null, done: file.name });
    } catch (error) {
      setState({ busy: false, error, done: null });
    }
  };
  return (
    <section aria-labelledby="export-h">
      <h2 id="export-h">Export</h2>
      <p className="muted">
        Every entry you may read, as JSON Lines: each re-hashes to its hash and links to the one
        before; another principal's personal entries are only their place in the chain.
      </p>
      <button type="button" onClick={run} disabled={state.busy}>
        {state.busy ? 'Exporting…' : 'Download the journal (.jsonl)'}
      </button>
      <span role="status">{state.done ? ` Saved ${state.done}.` : ''}</span>
      {state.error ? <ErrorNote error={state.error} /> : null}
    </section>
  );
}

/**
 * The journal (LCSM §7): entries newest first, each with its kind's policy-safe summary and its
 * receipt on request; the chain's head and a verification of it; an export.
 */
export function JournalView() {
  const [upTo, setUpTo] = useState<number | null>(null);
  const page = useJournalPage(upTo, PAGE);
  return (
    <>
      <h1>Journal</h1>
      <QueryState query={page}>
        {(p) => {
          const head = headOf(p.head);
          const newer = upTo === null ? null : upTo + PAGE >= head.seq ? -1 : upTo + PAGE;
          return (
            <>
              <VerifyPanel head={head} />
              <Export />
              <section aria-labelledby="entries-h">
                <h2 id="entries-h">
                  Entries{' '}
                  {p.entries.length > 0 ? `#${p.entries[0]!.seq}–#${p.entries.at(-1)!.seq}` : ''} of{' '}
                  {head.seq}
                </h2>
                {p.entries.length === 0 ? <p className="muted">The journal is empty.</p> : null}
                <ol className="rows entries">
                  {p.entries.map((e) => (
                    <EntryRow key={e.seq} entry={e} />
                  ))}
                </ol>
                <nav aria-label="Journal pages" className="pager">
                  <button
                    type="button"
                    disabled={newer === null}
                    onClick={() => setUpTo(newer === -1 ? null : newer)}
                  >
                    Newer
                  </button>
                  <button
                    type="button"
                    disabled={p.older === null}
                    onClick={() => setUpTo(p.older)}
                  >
                    Older
                  </button>
                </nav>
              </section>
            </>
          );
        }}
      </QueryState>
    </>
  );
}
