import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../session/session-context.js';

/** Query keys: one per read, so the live feed and mutations can refresh them. */
export const keys = {
  board: ['board'] as const,
  proposals: ['proposals'] as const,
  proposal: (id: string) => ['proposal', id] as const,
};

export function useBoard() {
  const api = useApi();
  return useQuery({ queryKey: keys.board, queryFn: api.board });
}

export function useProposals() {
  const api = useApi();
  return useQuery({ queryKey: keys.proposals, queryFn: api.proposals });
}

export function useProposal(id: string) {
  const api = useApi();
  return useQuery({ queryKey: keys.proposal(id), queryFn: () => api.proposal(id) });
}

/** Approve or reject a proposal; everything shown is refetched after, whatever the answer. */
export function useDecision(id: string) {
  const api = useApi();
  const queries = useQueryClient();
  const settle = () => queries.invalidateQueries();
  return {
    approve: useMutation({
      mutationFn: (baseVersion: string | null) => api.approve(id, baseVersion),
      onSettled: settle,
    }),
    reject: useMutation({
      mutationFn: (reason: string) => api.reject(id, reason),
      onSettled: settle,
    }),
  };
}
