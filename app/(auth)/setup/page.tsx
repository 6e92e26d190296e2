import { redirect } from 'next/navigation';
import { SetupForm } from '@/components/forms/setup-form';
import { dashboardAuth } from '@/lib/dashboard/server-auth';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Set up Mailstead' };

export default async function SetupPage() {
  if (!(await dashboardAuth().needsSetup())) redirect('/sign-in');
  return <SetupForm />;
}
