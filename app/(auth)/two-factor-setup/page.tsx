import { redirect } from 'next/navigation';
import { DatabaseOutageNotice } from '@/components/layout/database-outage-notice';
import { TwoFactorSetupView } from '@/components/views/two-factor-setup-view';
import { readDashboardSession } from '@/lib/dashboard/read-dashboard-session';
import { DATABASE_UNAVAILABLE } from '@/lib/dashboard/session-check';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Set up two-factor sign-in' };

/**
 * Where a member of an account that requires two-factor sign-in lands (the account layout sends
 * them) until they have set it up: outside the account's pages, which refuse them meanwhile.
 */
export default async function TwoFactorSetupPage({ searchParams }: { searchParams: Promise<{ account?: string }> }) {
  const session = await readDashboardSession();
  if (session === DATABASE_UNAVAILABLE) return <DatabaseOutageNotice />;
  if (!session?.user) redirect('/sign-in?callbackUrl=%2Ftwo-factor-setup');
  const { account } = await searchParams;
  const accountId = account && /^[0-9a-f-]{36}$/i.test(account) ? account.toLowerCase() : null;
  return <TwoFactorSetupView accountId={accountId} />;
}
