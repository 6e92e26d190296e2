import { redirect } from 'next/navigation';
import { SetupForm } from '@/components/forms/setup-form';
import { dashboardAuth } from '@/lib/dashboard/server-auth';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Set up Mailstead' };

/** The address the server prints at first start carries the token (`/setup?token=...`), so the form starts filled. */
export default async function SetupPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  if (!(await dashboardAuth().needsSetup())) redirect('/sign-in');
  const { token } = await searchParams;
  return <SetupForm initialToken={typeof token === 'string' ? token : ''} />;
}
