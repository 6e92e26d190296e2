'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { SessionProvider } from 'next-auth/react';
import { useState, type ReactNode } from 'react';
import { ApiError, isDatabaseOutage } from '@/lib/client/api';

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            staleTime: 10_000,
            // A refusal will not change by asking again.
            retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
            // While the database is away, ask again as often as the server's Retry-After says.
            refetchInterval: (query) =>
              isDatabaseOutage(query.state.error) ? (query.state.error.retryAfterSeconds ?? 5) * 1000 : false,
          },
        },
      }),
  );
  return (
    <SessionProvider>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </SessionProvider>
  );
}
