'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { createRouteSchema } from '@/lib/core/routes/schemas';
import { apiRequest } from './api';
import { deliveryKeys } from './delivery-queries';
import type { ListEnvelope, RouteObject } from './types';

const routePath = (accountId: string, routeId?: string) => `/v2/accounts/${accountId}/routes${routeId ? `/${routeId}` : ''}`;

/** What create sends (the contract's CreateRouteRequest); update sends only what changed. */
export type RouteInput = z.input<typeof createRouteSchema>;

/** The account's routes, or with `domain` those whose recipient is at that domain. */
export function useRoutes(accountId: string, options: { domain?: string; enabled?: boolean } = {}) {
  const { domain, ...rest } = options;
  const query = new URLSearchParams({ limit: '100', ...(domain ? { domain } : {}) });
  return useQuery({ queryKey: ['routes', accountId, domain ?? null], queryFn: () => apiRequest<ListEnvelope<RouteObject>>(`${routePath(accountId)}?${query}`), refetchInterval: 30_000, ...rest });
}

export function useRoute(accountId: string, routeId: string) {
  return useQuery({ queryKey: ['route', accountId, routeId], queryFn: () => apiRequest<RouteObject>(routePath(accountId, routeId)), refetchInterval: 15_000 });
}

function useRouteMutation<TInput, TResult>(accountId: string, request: (input: TInput) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['routes', accountId] });
      void client.invalidateQueries({ queryKey: ['route', accountId] });
    },
  });
}

export function useCreateRoute(accountId: string) {
  return useRouteMutation(accountId, (body: RouteInput) => apiRequest<RouteObject & { secret: string }>(routePath(accountId), { method: 'POST', body }));
}

export function useUpdateRoute(accountId: string) {
  return useRouteMutation(accountId, ({ id, ...body }: Partial<RouteInput> & { id: string }) => apiRequest<RouteObject>(routePath(accountId, id), { method: 'PUT', body }));
}

export function useDeleteRoute(accountId: string) {
  return useRouteMutation(accountId, (id: string) => apiRequest<{ message: string }>(routePath(accountId, id), { method: 'DELETE' }));
}

type TriggerResult = { message: string; data: { id: string; event_type: string; status: string; response_status: number | null; error: string | null }[] };

/** A sample inbound message, POSTed to the route now as `message.routing` (the CLI's `routes trigger`). */
export function useTriggerRoute(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<TriggerResult>(`${routePath(accountId, id)}/trigger`, { method: 'POST', body: {} }),
    onSuccess: (_result, id) => {
      void client.invalidateQueries({ queryKey: deliveryKeys.list(accountId, { kind: 'route', id }) });
      void client.invalidateQueries({ queryKey: ['route', accountId, id] });
    },
  });
}
