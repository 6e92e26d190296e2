'use client';

import { ChangePasswordForm } from '@/components/forms/change-password-form';

export function PasswordSection() {
  return (
    <>
      <p className="text-sm text-slate-600">
        Changing your password signs you out on every other device; this one stays signed in.
      </p>
      <ChangePasswordForm />
    </>
  );
}
