'use client';

import {
  useQuery as useTanstackQuery,
  type DefaultError,
  type QueryKey,
  type UseQueryOptions,
  type UseQueryResult,
} from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => undefined;

/** False while React hydrates the server's HTML, true in every render after (and on client-side navigation). */
export function useIsHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}

/**
 * TanStack's useQuery, but hydration always sees what the server rendered: "loading". The server
 * never has the data; a part of the page that hydrates late (a Suspense boundary) could otherwise
 * find it already fetched by the shell, render it, and fail hydration (React #418).
 */
export function useQuery<
  TQueryFnData = unknown,
  TError = DefaultError,
  TData = TQueryFnData,
  TQueryKey extends QueryKey = QueryKey,
>(options: UseQueryOptions<TQueryFnData, TError, TData, TQueryKey>): UseQueryResult<TData, TError> {
  const result = useTanstackQuery(options);
  const isHydrated = useIsHydrated();
  if (isHydrated || result.isPending) return result;
  return {
    ...result,
    data: undefined,
    error: null,
    status: 'pending',
    fetchStatus: 'fetching',
    isPending: true,
    isLoading: true,
    isFetching: true,
    isSuccess: false,
    isError: false,
    isLoadingError: false,
    isRefetchError: false,
    isPlaceholderData: false,
    isFetched: false,
    isFetchedAfterMount: false,
    isRefetching: false,
    isStale: true,
  } as UseQueryResult<TData, TError>;
}
