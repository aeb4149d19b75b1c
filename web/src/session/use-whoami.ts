import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type Api, ApiError } from '../api/client.js';

/** Who the session's token stands for; a token the server refuses (revoked) ends the session. */
export function useWhoami(api: Api, onRefused: () => void) {
  const query = useQuery({
    queryKey: ['whoami', api.session.project, api.session.token],
    queryFn: api.whoami,
    retry: false,
  });
  const refused = query.error instanceof ApiError && query.error.status === 401;
  useEffect(() => {
    if (refused) onRefused();
  }, [refused, onRefused]);
  return query;
}
