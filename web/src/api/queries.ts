import {
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useApi } from '../session/session-context.js';
import { type Api, ApiError } from './client.js';
import { headOf, type JournalLine, journalLine } from './journal.js';

/** Query keys: one per read, so the live feed and mutations can refresh them. */
export const keys = {
  board: ['board'] as const,
  /** Pages of proposals with one status, in one order, `size` to a page. */
  proposals: (status: string, order: string, size: number) =>
    ['proposals', status, order, size] as const,
  proposal: (id: string) => ['proposal', id] as const,
  provenance: (id: string) => ['provenance', id] as const,
  graph: (id: string) => ['graph', id] as const,
  versions: (id: string, before: number, size: number) => ['versions', id, before, size] as const,
  object: (id: string) => ['object', id] as const,
  /** A version never changes; the key is under `versions`, which the live feed refreshes anyway. */
  version: (id: string, hash: string) => ['versions', id, hash] as const,
  /** Pages of the objects of one status in id order after `start`, `size` to a page. */
  objects: (status: string, start: string, size: number) =>
    ['objects', status, start, size] as const,
  /** Pages of artifacts in id order, `size` to a page. */
  artifacts: (size: number) => ['artifacts', size] as const,
  /** A page of the journal ending at seq `upTo` (null: at the head), newest first. */
  journal: (upTo: number | null, size: number) => ['journal', upTo, size] as const,
  receipt: (seq: number) => ['receipt', seq] as const,
  relaySessions: ['relay', 'sessions'] as const,
  relaySession: (id: string) => ['relay', 'session', id] as const,
  relayQuality: (id: string) => ['relay', 'quality', id] as const,
  relayWindow: (id: string, n: number) => ['relay', 'window', id, n] as const,
  relayChain: (id: string) => ['relay', 'chain', id] as const,
  trust: ['trust'] as const,
};

/**
 * Starts the board's read before the view mounts (the board is the first page, and the view waits
 * for whoami too); `useBoard` then shares the request in flight. Call only once the live feed is
 * `ready` (the journal's head read), like every view's read.
 */
export function prefetchBoard(queries: QueryClient, api: Api): void {
  void queries.prefetchQuery({ queryKey: keys.board, queryFn: api.board });
}

export function useBoard() {
  const api = useApi();
  return useQuery({ queryKey: keys.board, queryFn: api.board });
}

/**
 * Proposals a page of `size` at a time (`fetchNextPage` for the next): pending ones oldest first,
 * decided ones newest first. A page shorter than `size` is the last.
 */
export function useProposalPages(status: 'pending' | 'decided', size: number) {
  const api = useApi();
  const order = status === 'pending' ? 'oldest' : 'newest';
  return useInfiniteQuery({
    queryKey: keys.proposals(status, order, size),
    queryFn: ({ pageParam }) => api.proposals({ status, order, limit: size, cursor: pageParam }),
    initialPageParam: null as number | null,
    getNextPageParam: (last) =>
      last.proposals.length < size ? undefined : (last.proposals.at(-1)?.seq ?? undefined),
  });
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

export function useProvenance(id: string) {
  const api = useApi();
  return useQuery({ queryKey: keys.provenance(id), queryFn: () => api.provenance(id) });
}

export function useGraph(id: string) {
  const api = useApi();
  return useQuery({ queryKey: keys.graph(id), queryFn: () => api.graph(id) });
}

export function useObject(id: string) {
  const api = useApi();
  return useQuery({ queryKey: keys.object(id), queryFn: () => api.object(id) });
}

export function useVersion(id: string, hash: string) {
  const api = useApi();
  return useQuery({
    queryKey: keys.version(id, hash),
    queryFn: () => api.version(id, hash),
    // A version the viewer may not read is refused for good: no second try.
    retry: (count, error) => count < 1 && !(error instanceof ApiError && error.status < 500),
  });
}

/**
 * An object's versions older than the version number `before` (where the provenance walk's history
 * ends), newest first, a page of `size` at a time, read only once `enabled`.
 */
export function useOlderVersions(id: string, before: number, size: number, enabled: boolean) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: keys.versions(id, before, size),
    queryFn: ({ pageParam }) => api.versions(id, pageParam, size),
    initialPageParam: before,
    getNextPageParam: (last) =>
      last.versions.length < size ? undefined : (last.versions.at(-1)?.version_id ?? undefined),
    enabled,
  });
}

/** Artifacts a page of `size` at a time in id order (`fetchNextPage` for the next). */
export function useArtifactPages(size: number) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: keys.artifacts(size),
    queryFn: ({ pageParam }) => api.artifacts(size, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) =>
      last.artifacts.length < size
        ? undefined
        : (last.artifacts.at(-1)?.manifest.artifact_id ?? undefined),
  });
}

/**
 * The objects of `status` a page of `size` at a time in id order after the id `start` (where the
 * board's group ends), read only once `enabled`.
 */
export function useObjectPages(status: string, start: string, size: number, enabled: boolean) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: keys.objects(status, start, size),
    queryFn: ({ pageParam }) => api.objects(status, size, pageParam),
    initialPageParam: start,
    getNextPageParam: (last) =>
      last.objects.length < size ? undefined : (last.objects.at(-1)?.object_id ?? undefined),
    enabled,
  });
}

/**
 * The `size` journal entries up to seq `upTo` (null: the head), newest first, each as its kind's
 * policy-safe summary; `older` is where the next (older) page ends, null at the chain's start.
 */
export function useJournalPage(upTo: number | null, size: number) {
  const api = useApi();
  return useQuery({
    queryKey: keys.journal(upTo, size),
    queryFn: async () => {
      const endSeq = upTo ?? headOf((await api.journalSummaries(0, 1)).head).seq;
      const after = Math.max(0, endSeq - size);
      const page = endSeq === 0 ? null : await api.journalSummaries(after, endSeq - after);
      const entries = (page?.entries ?? [])
        .map(journalLine)
        .filter((e): e is JournalLine => e !== null && e.seq <= endSeq)
        .reverse();
      return { head: headOf(page?.head), entries, older: after > 0 ? after : null };
    },
  });
}

export function useReceipt(seq: number) {
  const api = useApi();
  return useQuery({ queryKey: keys.receipt(seq), queryFn: () => api.receipt(seq) });
}

/** Restores a version of an object (it appends); everything shown is refetched after. */
export function useRestore(id: string) {
  const api = useApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: ({ version, rationale }: { version: number; rationale: string }) =>
      api.restore(id, version, rationale),
    onSettled: () => queries.invalidateQueries(),
  });
}

/** Verifies the journal on request (it walks the whole chain: never on a refetch). */
export function useVerifyJournal() {
  const api = useApi();
  return useMutation({ mutationFn: api.verifyJournal });
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
