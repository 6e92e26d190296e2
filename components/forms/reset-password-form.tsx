'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import Link from 'next/link';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Field, TextInput } from '@/components/ui/field';
import { Alert, LoadingState } from '@/components/ui/feedback';
import { apiRequest, fieldOfError } from '@/lib/client/api';
import { useQuery } from '@/lib/client/use-query';
import { completePasswordResetSchema } from '@/lib/core/passwords/schemas';

const formSchema = completePasswordResetSchema
  .extend({ confirm_password: z.string() })
  .refine((values) => values.confirm_password === values.password, {
    path: ['confirm_password'],
    message: 'does not match the new password',
  });
type Values = z.input<typeof formSchema>;

const signInLink = (email?: string) => (
  <Link
    href={email ? `/sign-in?email=${encodeURIComponent(email)}` : '/sign-in'}
    className="text-sm font-medium text-brand-700 hover:underline"
  >
    Go to sign-in
  </Link>
);

/**
 * The reset link's page: whose link it is (or why it no longer works), then the new password twice.
 * Nobody is signed in by it: the person signs in with the new password.
 */
export function ResetPasswordForm({ token }: { token: string }) {
  const reset = useQuery({
    queryKey: ['password-reset', token],
    queryFn: () =>
      apiRequest<{ email: string }>('/internal/password-resets/inspect', { method: 'POST', body: { token } }),
    retry: false,
    refetchOnWindowFocus: false,
  });
  const [doneFor, setDoneFor] = useState<string | null>(null);
  if (doneFor) {
    return (
      <div className="space-y-4">
        <h1 className="text-lg font-semibold">Password changed</h1>
        <Alert tone="success">
          Your new password is set and every session of yours has ended. Sign in with the new password.
        </Alert>
        {signInLink(doneFor)}
      </div>
    );
  }
  if (reset.isPending) return <LoadingState label="Checking the link…" />;
  if (reset.error) {
    return (
      <div className="space-y-4">
        <h1 className="text-lg font-semibold">This reset link cannot be used</h1>
        <Alert tone="error">{reset.error.message}</Alert>
        <Link href="/forgot-password" className="block text-sm font-medium text-brand-700 hover:underline">
          Ask for a new link
        </Link>
        {signInLink()}
      </div>
    );
  }
  return <NewPasswordForm token={token} email={reset.data.email} onDone={setDoneFor} />;
}

function NewPasswordForm({ token, email, onDone }: { token: string; email: string; onDone: (email: string) => void }) {
  const form = useForm<Values>({
    resolver: zodResolver(formSchema),
    defaultValues: { token, password: '', confirm_password: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ password }) => {
    try {
      const done = await apiRequest<{ email: string }>('/internal/password-resets/complete', {
        method: 'POST',
        body: { token, password },
      });
      onDone(done.email);
    } catch (error) {
      const field = fieldOfError(error, ['password']);
      form.setError(field ? 'password' : 'root', { message: (error as Error).message.replace(/^password: /, '') });
    }
  });
  return (
    <form className="space-y-5" onSubmit={submit} noValidate>
      <div>
        <h1 className="text-lg font-semibold">Choose a new password</h1>
        <p className="mt-1 text-sm text-slate-600">
          For <span className="font-medium wrap-anywhere">{email}</span>. Every session of yours ends when it is set.
        </p>
      </div>
      {errors.root ? <Alert tone="error">{errors.root.message}</Alert> : null}
      <Field label="Email" htmlFor="reset-user">
        <TextInput id="reset-user" type="email" autoComplete="username" value={email} readOnly />
      </Field>
      <Field
        label="New password"
        htmlFor="reset-password"
        hint="At least 10 characters."
        error={errors.password?.message}
      >
        <TextInput
          id="reset-password"
          type="password"
          autoComplete="new-password"
          autoFocus
          {...form.register('password')}
        />
      </Field>
      <Field label="New password again" htmlFor="reset-confirm" error={errors.confirm_password?.message}>
        <TextInput
          id="reset-confirm"
          type="password"
          autoComplete="new-password"
          {...form.register('confirm_password')}
        />
      </Field>
      <Button type="submit" className="w-full" isBusy={isSubmitting}>
        Set new password
      </Button>
    </form>
  );
}
