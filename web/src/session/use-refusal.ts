import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { ApiError } from '../api/client.js';

/** Whether an error is the server refusing the session's token (revoked, or never valid). */
export const refusedToken = (error: unknown) => error instanceof ApiError && error.status === 401;

/**
 * Ends the session the first time the server refuses its token anywhere: a view's read, an action,
 * or the live feed, so a token revoked while the page is open signs it out at once. `refusedNow`
 * says a refusal already known when the hook runs (whoami's, or the feed's 401).
 */
export function useSignOutOnRefusal(refusedNow: boolean, onRefused: () => void): void {
  const queries = useQueryClient();
  const latest = useRef(onRefused);
  latest.current = onRefused;
  useEffect(() => {
    const refuse = (error: unknown) => {
      if (refusedToken(error)) latest.current();
    };
    const reads = queries.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') refuse(event.action.error);
    });
    const writes = queries.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') refuse(event.action.error);
    });
    return () => {
      reads();
      writes();
    };
  }, [queries]);
  useEffect(() => {
    if (refusedNow) latest.current();
  }, [refusedNow]);
}
