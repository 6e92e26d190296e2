'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { Alert } from '@/components/ui/feedback';

const RETRY_MS = 5000;

/**
 * What a server-rendered page shows while the database is away: the session is kept (nothing is
 * shown from the account), and the page asks the server again every few seconds until it answers.
 */
export function DatabaseOutageNotice() {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => router.refresh(), RETRY_MS);
    return () => clearInterval(timer);
  }, [router]);
  return (
    <main className="mx-auto max-w-xl px-4 py-16">
      <p className="mb-6 text-base font-semibold tracking-tight text-brand-900">✉ Mailstead</p>
      <div data-testid="database-outage">
        <Alert tone="warning" title="The database cannot be reached right now; retrying…">
          <p>You are still signed in. This page reloads by itself as soon as the database answers again.</p>
          <p className="mt-2">If this lasts more than a few minutes, the server&apos;s log says why.</p>
        </Alert>
      </div>
    </main>
  );
}
