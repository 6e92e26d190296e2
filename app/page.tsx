import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { authOptions } from '@/lib/dashboard/auth-options';
import { dashboardAuth } from '@/lib/dashboard/server-auth';

export const dynamic = 'force-dynamic';

/** The front door: first-run setup, sign-in, or the user's first account. */
export default async function HomePage() {
  if (await dashboardAuth().needsSetup()) redirect('/setup');
  const session = await getServerSession(authOptions);
  if (!session?.user) redirect('/sign-in');
  const accountId = await dashboardAuth().firstAccountId(session.user.id);
  if (!accountId) redirect('/sign-in?error=NoAccount');
  redirect(`/${accountId}`);
}
