import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../session/session-context.js';

/** Query keys: one per read, so the live feed and mutations can refresh them. */
export const keys = {
  board: ['board'] as const,
  proposals: ['proposals'] as const,
  proposal: (id: string) => ['proposal', id] as const,
  relaySessions: ['relay', 'sessions'] as const,
  relaySession: (id: string) => ['relay', 'session', id] as const,
  relayQuality: (id: string) => ['relay', 'quality', id] as const,
  relayWindow: (id: string, n: number) => ['relay', 'window', id, n] as const,
  relayChain: (id: string) => ['relay', 'chain', id] as const,
  trust: ['trust'] as const,
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

export function useRelaySessions() {
  const api = useApi();
  return useQuery({ queryKey: keys.relaySessions, queryFn: api.relaySessions });
}

export function useRelaySession(id: string) {
  const api = useApi();
  return useQuery({ queryKey: keys.relaySession(id), queryFn: () => api.relaySession(id) });
}

export function useRelayQuality(id: string) {
  const api = useApi();
  return useQuery({ queryKey: keys.relayQuality(id), queryFn: () => api.relayQuality(id) });
}

/** One window with its CSO; null asks for nothing (no window chosen yet). */
export function useRelayWindow(id: string, window: number | null) {
  const api = useApi();
  return useQuery({
    queryKey: keys.relayWindow(id, window ?? 0),
    queryFn: () => api.relayWindow(id, window!),
    enabled: window !== null,
  });
}

export function useRelayChain(id: string) {
  const api = useApi();
  return useQuery({ queryKey: keys.relayChain(id), queryFn: () => api.relayChain(id) });
}

export function useTrust() {
  const api = useApi();
  return useQuery({ queryKey: keys.trust, queryFn: api.trust });
}

/** TCP/AP §6 on the public endpoint: the verdict's envelope (a refusal is a verdict, not an error). */
export function useValidate() {
  const api = useApi();
  return useMutation({ mutationFn: api.validate });
}

/** A signed event checked against the server's pinned root (§7); writes nothing. */
export function useVerifyEvent() {
  const api = useApi();
  return useMutation({ mutationFn: api.verifyEvent });
}
