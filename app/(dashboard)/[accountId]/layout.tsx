import { getServerSession } from 'next-auth';
import { headers } from 'next/headers';
import { notFound, redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { AppShell } from '@/components/layout/app-shell';
import { authOptions } from '@/lib/dashboard/auth-options';
import { REQUESTED_PATH_HEADER, safeCallbackPath } from '@/lib/dashboard/callback-path';
import { dashboardAuth } from '@/lib/dashboard/server-auth';

export const dynamic = 'force-dynamic';

/** Every account page: a signed-in member of that account, or sign-in (and back here) / not found. */
export default async function AccountLayout({ children, params }: { children: ReactNode; params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  const session = await getServerSession(authOptions);
  if (!session?.user) {
    const requested = safeCallbackPath((await headers()).get(REQUESTED_PATH_HEADER));
    redirect(requested ? `/sign-in?callbackUrl=${encodeURIComponent(requested)}` : '/sign-in');
  }
  if (!/^[0-9a-f-]{36}$/i.test(accountId)) notFound();
  const role = await dashboardAuth().membershipRole(session.user.id, accountId);
  if (!role) notFound();
  return <AppShell accountId={accountId}>{children}</AppShell>;
}
