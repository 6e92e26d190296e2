import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { SignInForm } from '@/components/forms/sign-in-form';
import { authOptions } from '@/lib/dashboard/auth-options';
import { safeCallbackPath } from '@/lib/dashboard/callback-path';
import { dashboardAuth } from '@/lib/dashboard/server-auth';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ error?: string; email?: string; callbackUrl?: string }> }) {
  if (await dashboardAuth().needsSetup()) redirect('/setup');
  const { error, email, callbackUrl } = await searchParams;
  const returnTo = safeCallbackPath(callbackUrl);
  const session = await getServerSession(authOptions);
  if (session?.user) redirect(returnTo ?? '/');
  return <SignInForm initialError={error ?? null} initialEmail={email ?? ''} returnTo={returnTo} />;
}
