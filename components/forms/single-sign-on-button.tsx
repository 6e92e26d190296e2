'use client';

import { signIn } from 'next-auth/react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/feedback';

/** "Sign in with SSO" above the password form, with what went wrong the last time (single-sign-on-messages.ts). */
export function SingleSignOnButton({
  label,
  errorMessage,
  returnTo,
}: {
  label: string;
  errorMessage: string | null;
  returnTo: string | null;
}) {
  const [isBusy, setIsBusy] = useState(false);
  return (
    <div className="space-y-4">
      {errorMessage ? <Alert tone="error">{errorMessage}</Alert> : null}
      <Button
        variant="secondary"
        className="w-full"
        isBusy={isBusy}
        onClick={async () => {
          setIsBusy(true);
          // next-auth posts its CSRF token and sends the browser to the provider.
          await signIn('oidc', { callbackUrl: returnTo ?? '/' });
        }}
      >
        {label}
      </Button>
      <div className="flex items-center gap-3 text-xs uppercase tracking-wide text-slate-500" aria-hidden>
        <span className="h-px flex-1 bg-slate-200" />
        or
        <span className="h-px flex-1 bg-slate-200" />
      </div>
    </div>
  );
}
