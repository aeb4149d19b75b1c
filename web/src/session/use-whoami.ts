import { useQuery } from '@tanstack/react-query';
import type { Api } from '../api/client.js';

/**
 * Who the session's token stands for. A token the server refuses ends the session through
 * `useSignOutOnRefusal`, as any other read's refusal does.
 */
export function useWhoami(api: Api) {
  return useQuery({
    queryKey: ['whoami', api.session.project, api.session.token],
    queryFn: api.whoami,
    retry: false,
  });
}
