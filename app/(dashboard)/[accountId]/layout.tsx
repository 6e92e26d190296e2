import { headers } from 'next/headers';
import { notFound, redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { AppShell } from '@/components/layout/app-shell';
import { DatabaseOutageNotice } from '@/components/layout/database-outage-notice';
import { REQUESTED_PATH_HEADER, safeCallbackPath } from '@/lib/dashboard/callback-path';
import { readDashboardSession } from '@/lib/dashboard/read-dashboard-session';
import { dashboardAuth } from '@/lib/dashboard/server-auth';
import { DATABASE_UNAVAILABLE } from '@/lib/dashboard/session-check';
import { isDatabaseUnavailable } from '@/lib/shared/database-unavailable';

export const dynamic = 'force-dynamic';

/** Every account page: a signed-in member of that account, or sign-in (and back here) / not found; or, while the database is away, the outage notice. */
export default async function AccountLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ accountId: string }>;
}) {
  const { accountId } = await params;
  const session = await readDashboardSession();
  if (session === DATABASE_UNAVAILABLE) return <DatabaseOutageNotice />;
  if (!session?.user) {
    const requested = safeCallbackPath((await headers()).get(REQUESTED_PATH_HEADER));
    redirect(requested ? `/sign-in?callbackUrl=${encodeURIComponent(requested)}` : '/sign-in');
  }
  if (!/^[0-9a-f-]{36}$/i.test(accountId)) notFound();
  const access = await dashboardAuth()
    .accountAccess(session.user.id, accountId)
    .catch((error: unknown): typeof DATABASE_UNAVAILABLE => {
      if (isDatabaseUnavailable(error)) return DATABASE_UNAVAILABLE;
      throw error;
    });
  if (access === DATABASE_UNAVAILABLE) return <DatabaseOutageNotice />;
  if (!access) notFound();
  // The account requires two-factor sign-in and this person has none: nothing else until it is set up.
  if (access.isTwoFactorMissing) redirect(`/two-factor-setup?account=${accountId}`);
  return <AppShell accountId={accountId}>{children}</AppShell>;
}
