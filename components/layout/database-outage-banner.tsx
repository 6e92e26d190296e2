'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { Alert } from '@/components/ui/feedback';
import { isDatabaseOutage } from '@/lib/client/api';

/**
 * One line above any page whose data failed because the database is away. The failed queries
 * retry by themselves (AppProviders' refetchInterval); the line goes once one of them answers.
 */
export function DatabaseOutageBanner() {
  const queryCache = useQueryClient().getQueryCache();
  const subscribe = useCallback((onChange: () => void) => queryCache.subscribe(onChange), [queryCache]);
  const isOutage = useSyncExternalStore(
    subscribe,
    () => queryCache.getAll().some((query) => isDatabaseOutage(query.state.error)),
    () => false,
  );
  if (!isOutage) return null;
  return (
    <div className="mb-4" data-testid="database-outage">
      <Alert tone="warning" title="The database cannot be reached right now; retrying…">
        You are still signed in; this page fills in by itself as soon as the database answers again.
      </Alert>
    </div>
  );
}
