'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from './use-query';
import { deliveryKeys } from './delivery-queries';
import { callEndpoint, type RequestOf } from './endpoints';

const COLLECTION = '/v2/accounts/{account_id}/routes';
const ITEM = '/v2/accounts/{account_id}/routes/{route_id}';

/** What create sends (the contract's CreateRouteRequest); update sends only what changed. */
export type RouteInput = RequestOf<`POST ${typeof COLLECTION}`>;

/** The account's routes, or with `domain` those whose recipient is at that domain. */
export function useRoutes(accountId: string, options: { domain?: string; enabled?: boolean } = {}) {
  const { domain, ...rest } = options;
  const query = new URLSearchParams({ limit: '100', ...(domain ? { domain } : {}) });
  return useQuery({
    queryKey: ['routes', accountId, domain ?? null],
    queryFn: () => callEndpoint(`GET ${COLLECTION}`, { account_id: accountId }, { query }),
    refetchInterval: 30_000,
    ...rest,
  });
}

export function useRoute(accountId: string, routeId: string) {
  return useQuery({
    queryKey: ['route', accountId, routeId],
    queryFn: () => callEndpoint(`GET ${ITEM}`, { account_id: accountId, route_id: routeId }),
    refetchInterval: 15_000,
  });
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
  return useRouteMutation(accountId, (body: RouteInput) =>
    callEndpoint(`POST ${COLLECTION}`, { account_id: accountId }, { body }),
  );
}

export function useUpdateRoute(accountId: string) {
  return useRouteMutation(accountId, ({ id, ...body }: RequestOf<`PUT ${typeof ITEM}`> & { id: string }) =>
    callEndpoint(`PUT ${ITEM}`, { account_id: accountId, route_id: id }, { body }),
  );
}

export function useDeleteRoute(accountId: string) {
  return useRouteMutation(accountId, (id: string) =>
    callEndpoint(`DELETE ${ITEM}`, { account_id: accountId, route_id: id }),
  );
}

/** A sample inbound message, POSTed to the route now as `message.routing` (the CLI's `routes trigger`). */
export function useTriggerRoute(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      callEndpoint(`POST ${ITEM}/trigger`, { account_id: accountId, route_id: id }, { body: {} }),
    onSuccess: (_result, id) => {
      void client.invalidateQueries({ queryKey: deliveryKeys.list(accountId, { kind: 'route', id }) });
      void client.invalidateQueries({ queryKey: ['route', accountId, id] });
    },
  });
}
