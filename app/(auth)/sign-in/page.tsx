import { redirect } from 'next/navigation';
import { SignInForm } from '@/components/forms/sign-in-form';
import { SingleSignOnButton } from '@/components/forms/single-sign-on-button';
import { singleSignOnMessage } from '@/components/forms/single-sign-on-messages';
import { DatabaseOutageNotice } from '@/components/layout/database-outage-notice';
import { safeCallbackPath } from '@/lib/dashboard/callback-path';
import { readDashboardSession } from '@/lib/dashboard/read-dashboard-session';
import { dashboardAuth } from '@/lib/dashboard/server-auth';
import { DATABASE_UNAVAILABLE } from '@/lib/dashboard/session-check';
import { isDatabaseUnavailable } from '@/lib/shared/database-unavailable';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Sign in' };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string; email?: string; callbackUrl?: string }>;
}) {
  const needsSetup = await dashboardAuth()
    .needsSetup()
    .catch((failure: unknown) => {
      if (isDatabaseUnavailable(failure)) return DATABASE_UNAVAILABLE;
      throw failure;
    });
  if (needsSetup === DATABASE_UNAVAILABLE) return <DatabaseOutageNotice />;
  if (needsSetup) redirect('/setup');
  const { error, email, callbackUrl } = await searchParams;
  const returnTo = safeCallbackPath(callbackUrl);
  const session = await readDashboardSession();
  if (session === DATABASE_UNAVAILABLE) return <DatabaseOutageNotice />;
  if (session?.user) redirect(returnTo ?? '/');
  const singleSignOn = dashboardAuth().singleSignOn;
  // Single sign-on's errors show beside its button; the password form's, above the fields.
  const singleSignOnProblem = singleSignOn ? singleSignOnMessage(error) : null;
  return (
    <SignInForm
      initialError={singleSignOnProblem ? null : (error ?? null)}
      initialEmail={email ?? ''}
      returnTo={returnTo}
      singleSignOn={
        singleSignOn ? (
          <SingleSignOnButton label={singleSignOn.buttonLabel} errorMessage={singleSignOnProblem} returnTo={returnTo} />
        ) : null
      }
    />
  );
}
