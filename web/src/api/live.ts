import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type Api, ApiError } from './client.js';
import { readEvents } from './sse.js';

/** Where the live feed stands: `seq` is the last journal entry seen. */
export interface LiveState {
  readonly status: 'connecting' | 'live' | 'reconnecting' | 'refused';
  readonly seq: number | null;
}

const RETRY_MS = [500, 1_000, 2_000, 5_000];

/**
 * Follows the project's journal (`GET …/events`) and refetches the shown queries whenever it moves,
 * so every view follows canon without a reload. The feed needs the bearer token in the
 * Authorization header, which `EventSource` cannot send, so it is read with `fetch` as a stream;
 * the token never goes into a URL. It starts at the journal's head (not replaying history),
 * refetches once when connected (whatever moved before that), and resumes after the last seq
 * it saw when the stream drops.
 */
export function useLiveJournal(api: Api): LiveState {
  const queries = useQueryClient();
  const [state, setState] = useState<LiveState>({ status: 'connecting', seq: null });

  useEffect(() => {
    const abort = new AbortController();
    let after: number | null = null;
    let pending = false;
    const refresh = () => {
      // A burst of entries (a commit is several) refetches once.
      if (pending) return;
      pending = true;
      setTimeout(() => {
        pending = false;
        void queries.invalidateQueries();
      }, 30);
    };
    const run = async () => {
      for (let attempt = 0; !abort.signal.aborted; attempt++) {
        try {
          const from: number = after ?? (await api.journalHead());
          after = from;
          const stream = await api.events(from, abort.signal);
          attempt = 0;
          setState({ status: 'live', seq: after });
          refresh();
          for await (const event of readEvents(stream)) {
            if (event.id !== null && /^\d+$/.test(event.id)) after = Number(event.id);
            setState({ status: 'live', seq: after });
            refresh();
          }
        } catch (err) {
          if (abort.signal.aborted) return;
          if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
            setState({ status: 'refused', seq: after });
            return;
          }
        }
        if (abort.signal.aborted) return;
        setState({ status: 'reconnecting', seq: after });
        await new Promise((done) => setTimeout(done, RETRY_MS[Math.min(attempt, 3)]));
      }
    };
    void run();
    return () => abort.abort();
  }, [api, queries]);

  return state;
}
