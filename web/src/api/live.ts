import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type Api, ApiError } from './client.js';
import { staleReads } from './live-scope.js';
import { readEvents } from './sse.js';

/**
 * Where the live feed stands: `seq` is the last journal entry seen. `ready` once the journal's head
 * was read (or could not be): the views read canon only then, so nothing that lands between their
 * reads and the feed's start can be missed.
 */
export interface LiveState {
  readonly status: 'connecting' | 'live' | 'reconnecting' | 'refused';
  readonly seq: number | null;
  readonly ready: boolean;
  /** Refused because the token is not (or no longer) valid (401), not for its scope (403). */
  readonly unauthenticated?: boolean;
}

const RETRY_MS = [500, 1_000, 2_000, 5_000];

/**
 * Follows the project's journal (`GET …/events`) and refetches the shown queries the new entries'
 * kinds can have changed (`staleReads`), so every view follows canon without a reload. The feed needs the bearer token in the
 * Authorization header, which `EventSource` cannot send, so it is read with `fetch` as a stream;
 * the token never goes into a URL. It reads the journal's head first and follows from there (no
 * history replayed); the views fetch after that read, so whatever lands later comes over the feed.
 * When the stream drops it resumes after the last seq it saw.
 */
export function useLiveJournal(api: Api): LiveState {
  const queries = useQueryClient();
  const [state, setState] = useState<LiveState>({
    status: 'connecting',
    seq: null,
    ready: false,
  });

  useEffect(() => {
    const abort = new AbortController();
    let after: number | null = null;
    let kinds: Set<string> | null = null;
    const refresh = (kind: string) => {
      // A burst of entries (a commit is several) refetches once, what any of their kinds moves.
      if (kinds !== null) {
        kinds.add(kind);
        return;
      }
      kinds = new Set([kind]);
      setTimeout(() => {
        const stale = staleReads(kinds ?? []);
        kinds = null;
        void queries.invalidateQueries({ predicate: (q) => stale(q.queryKey) });
      }, 30);
    };
    const run = async () => {
      for (let attempt = 0; !abort.signal.aborted; attempt++) {
        try {
          const from: number = after ?? (await api.journalHead());
          after = from;
          setState({ status: 'connecting', seq: after, ready: true });
          const stream = await api.events(from, abort.signal);
          attempt = 0;
          setState({ status: 'live', seq: after, ready: true });
          for await (const event of readEvents(stream)) {
            if (event.id !== null && /^\d+$/.test(event.id)) after = Number(event.id);
            setState({ status: 'live', seq: after, ready: true });
            refresh(event.event);
          }
        } catch (err) {
          if (abort.signal.aborted) return;
          if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
            setState({
              status: 'refused',
              seq: after,
              ready: true,
              unauthenticated: err.status === 401,
            });
            return;
          }
        }
        if (abort.signal.aborted) return;
        // The views read canon even while the feed is down (a person can reload by hand).
        setState({ status: 'reconnecting', seq: after, ready: true });
        await new Promise((done) => setTimeout(done, RETRY_MS[Math.min(attempt, 3)]));
      }
    };
    void run();
    return () => abort.abort();
  }, [api, queries]);

  return state;
}
