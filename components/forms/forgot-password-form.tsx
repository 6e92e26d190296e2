'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import Link from 'next/link';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Field, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { apiRequest, fieldOfError } from '@/lib/client/api';
import { requestPasswordResetSchema } from '@/lib/core/passwords/schemas';

type Values = z.input<typeof requestPasswordResetSchema>;

const SIGN_IN = (
  <Link href="/sign-in" className="text-sm font-medium text-brand-700 hover:underline">
    Back to sign-in
  </Link>
);

/**
 * "Forgot password?": with a system sender, a form that mails a link (the answer never says whether
 * the address is a user); without one, how an operator makes a link instead.
 */
export function ForgotPasswordForm({ isMailed }: { isMailed: boolean }) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  // No default value: what was typed before the page came to life is kept, not reset to ''.
  const form = useForm<Values>({ resolver: zodResolver(requestPasswordResetSchema) });
  const { errors, isSubmitting } = form.formState;

  if (!isMailed) {
    return (
      <div className="space-y-4">
        <h1 className="text-lg font-semibold">Forgot your password?</h1>
        <p className="text-sm text-slate-700">
          This Mailstead server sends no mail of its own, so it cannot mail you a reset link. Ask its operator to make
          one for you; on the server they run:
        </p>
        <pre className="overflow-x-auto rounded-md bg-slate-900 px-3 py-2 text-xs text-slate-100">
          npx mailstead users reset-password YOUR-EMAIL
        </pre>
        <p className="text-sm text-slate-700">The link it prints works once, for an hour.</p>
        {SIGN_IN}
      </div>
    );
  }
  if (sentTo) {
    return (
      <div className="space-y-4">
        <h1 className="text-lg font-semibold">Check your mailbox</h1>
        <Alert tone="success">
          If <strong className="wrap-anywhere">{sentTo}</strong> belongs to a Mailstead user, a link to choose a new
          password is on its way. It works once, for an hour.
        </Alert>
        {SIGN_IN}
      </div>
    );
  }
  const submit = form.handleSubmit(async (values) => {
    try {
      await apiRequest('/internal/password-resets', { method: 'POST', body: values });
      setSentTo(values.email.trim());
    } catch (error) {
      const field = fieldOfError(error, ['email']);
      form.setError(field ? 'email' : 'root', { message: (error as Error).message.replace(/^email: /, '') });
    }
  });
  return (
    <form className="space-y-5" onSubmit={submit} noValidate>
      <div>
        <h1 className="text-lg font-semibold">Forgot your password?</h1>
        <p className="mt-1 text-sm text-slate-600">
          Enter the email you sign in with: we mail you a link to choose a new one.
        </p>
      </div>
      {errors.root ? <Alert tone="error">{errors.root.message}</Alert> : null}
      <Field label="Email" htmlFor="reset-email" error={errors.email?.message}>
        <TextInput id="reset-email" type="email" autoComplete="username" autoFocus {...form.register('email')} />
      </Field>
      <Button type="submit" className="w-full" isBusy={isSubmitting}>
        Mail me a reset link
      </Button>
      {SIGN_IN}
    </form>
  );
}
