import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { SignInForm } from '@/components/forms/sign-in-form';
import { authOptions } from '@/lib/dashboard/auth-options';
import { dashboardAuth } from '@/lib/dashboard/server-auth';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ error?: string; email?: string }> }) {
  if (await dashboardAuth().needsSetup()) redirect('/setup');
  const session = await getServerSession(authOptions);
  if (session?.user) redirect('/');
  const { error, email } = await searchParams;
  return <SignInForm initialError={error ?? null} initialEmail={email ?? ''} />;
}
