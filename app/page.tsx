import { redirect } from 'next/navigation';
import { DatabaseOutageNotice } from '@/components/layout/database-outage-notice';
import { readDashboardSession } from '@/lib/dashboard/read-dashboard-session';
import { dashboardAuth } from '@/lib/dashboard/server-auth';
import { DATABASE_UNAVAILABLE } from '@/lib/dashboard/session-check';
import { isDatabaseUnavailable } from '@/lib/shared/database-unavailable';

export const dynamic = 'force-dynamic';

/** The front door: first-run setup, sign-in, or the user's first account (or the outage notice). */
export default async function HomePage() {
  const destination = await chooseDestination().catch((error: unknown) => {
    if (isDatabaseUnavailable(error)) return DATABASE_UNAVAILABLE;
    throw error;
  });
  if (destination === DATABASE_UNAVAILABLE) return <DatabaseOutageNotice />;
  redirect(destination);
}

async function chooseDestination(): Promise<string> {
  if (await dashboardAuth().needsSetup()) return '/setup';
  const session = await readDashboardSession();
  if (session === DATABASE_UNAVAILABLE) return DATABASE_UNAVAILABLE;
  if (!session?.user) return '/sign-in';
  const accountId = await dashboardAuth().firstAccountId(session.user.id);
  return accountId ? `/${accountId}` : '/sign-in?error=NoAccount';
}
