import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { createEvolutionApi, type EventQuery, type EvolutionApi } from '../../api/evolution.js';
import { useApi } from '../../session/session-context.js';
import { verification } from './verification.js';

/** Query keys of the view (the live feed refetches them with every other shown query). */
const keys = {
  events: (q: EventQuery) => ['evolution', 'events', q] as const,
  event: (id: string) => ['evolution', 'event', id] as const,
  promotions: ['evolution', 'promotions'] as const,
};

/** The evolution calls of the signed-in session. */
export function useEvolutionApi(): EvolutionApi {
  const { session } = useApi();
  return useMemo(() => createEvolutionApi(session), [session]);
}

export function useEvents(q: EventQuery) {
  const api = useEvolutionApi();
  // The page shown stays until the next one (another filter or page) has come: no flash of loading.
  return useQuery({
    queryKey: keys.events(q),
    queryFn: () => api.events(q),
    placeholderData: keepPreviousData,
  });
}

/** The project's promotions, as proposed. */
export function usePromotions() {
  const api = useEvolutionApi();
  return useQuery({ queryKey: keys.promotions, queryFn: api.promotions });
}

export function useEvent(id: string) {
  const api = useEvolutionApi();
  return useQuery({ queryKey: keys.event(id), queryFn: () => api.event(id) });
}

/**
 * Verifies every stored event on request (it reads the whole store: never on a refetch). The newest
 * event is read first: every event up to it was in the store when the run began, so was checked.
 */
export function useVerifyEvents() {
  const api = useEvolutionApi();
  return useMutation({
    mutationFn: async () => {
      const newest = await api.events({
        eventType: null,
        eventClass: null,
        before: null,
        limit: 1,
      });
      return verification(await api.verify(), newest.events[0]?.seq ?? 0);
    },
  });
}

/** Retries one dead letter; the event's deliveries are refetched after, whatever the answer. */
export function useRetry(eventId: string) {
  const api = useEvolutionApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (target: string) => api.retry(eventId, target),
    onSettled: () => queries.invalidateQueries({ queryKey: ['evolution'] }),
  });
}
