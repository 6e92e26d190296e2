'use client';

import { useState } from 'react';
import { ChangePasswordForm } from '@/components/forms/change-password-form';
import { Alert, LoadingState } from '@/components/ui/feedback';
import { useCurrentUser } from '@/lib/client/queries';

export function PasswordSection() {
  const me = useCurrentUser();
  const [done, setDone] = useState<string | null>(null);
  if (me.error) return <Alert tone="error">{me.error.message}</Alert>;
  if (!me.data) return <LoadingState label="Loading…" />;
  const hasPassword = me.data.has_password;
  return (
    <>
      <p className="text-sm text-slate-600">
        {hasPassword
          ? 'Changing your password signs you out on every other device; this one stays signed in.'
          : 'You sign in through single sign-on and have no password yet. Set one to sign in without it too, and to confirm changes such as turning two-factor sign-in off.'}
      </p>
      {done ? <Alert tone="success">{done}</Alert> : null}
      <ChangePasswordForm key={String(hasPassword)} hasPassword={hasPassword} onDone={setDone} />
    </>
  );
}
