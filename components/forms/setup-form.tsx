'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Field, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { apiRequest, fieldOfError } from '@/lib/client/api';
import { completeSetupSchema } from '@/lib/core/setup/schemas';

type SetupValues = z.input<typeof completeSetupSchema>;
const FIELDS = ['token', 'account_name', 'email', 'password'] as const;

/** First run: the setup token from the server's log, then the first account and its owner. */
export function SetupForm({ initialToken = '' }: { initialToken?: string }) {
  const router = useRouter();
  const form = useForm<SetupValues>({
    resolver: zodResolver(completeSetupSchema),
    defaultValues: { token: initialToken, account_name: '', email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const result = await apiRequest<{ account_id: string }>('/internal/setup', { method: 'POST', body: values });
      const signedIn = await signIn('credentials', { email: values.email, password: values.password, redirect: false });
      router.replace(signedIn?.ok ? `/${result.account_id}` : '/sign-in');
      router.refresh();
    } catch (error) {
      const field = fieldOfError(error, FIELDS);
      form.setError((field ?? 'root') as keyof SetupValues | 'root', {
        message: (error as Error).message.replace(/^[a-z_]+: /, ''),
      });
    }
  });

  return (
    <form className="space-y-5" onSubmit={onSubmit} noValidate>
      <div>
        <h1 className="text-lg font-semibold">Set up Mailstead</h1>
        <p className="mt-1 text-sm text-slate-600">
          No account exists yet. Enter the setup token the server printed when it started (also in{' '}
          <code>DATA_DIR/setup-token</code>), then create the first account and its owner.
        </p>
      </div>
      {errors.root ? <Alert tone="error">{errors.root.message}</Alert> : null}
      <Field label="Setup token" htmlFor="token" error={errors.token?.message}>
        <TextInput id="token" autoComplete="off" isInvalid={Boolean(errors.token)} {...form.register('token')} />
      </Field>
      <Field label="Account name" htmlFor="account_name" error={errors.account_name?.message}>
        <TextInput id="account_name" isInvalid={Boolean(errors.account_name)} {...form.register('account_name')} />
      </Field>
      <Field label="Your email" htmlFor="email" error={errors.email?.message}>
        <TextInput
          id="email"
          type="email"
          autoComplete="username"
          isInvalid={Boolean(errors.email)}
          {...form.register('email')}
        />
      </Field>
      <Field label="Password" htmlFor="password" hint="At least 10 characters." error={errors.password?.message}>
        <TextInput
          id="password"
          type="password"
          autoComplete="new-password"
          isInvalid={Boolean(errors.password)}
          {...form.register('password')}
        />
      </Field>
      <Button type="submit" className="w-full" isBusy={isSubmitting}>
        Create account
      </Button>
    </form>
  );
}
