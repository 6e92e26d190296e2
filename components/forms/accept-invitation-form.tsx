'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@/lib/client/use-query';
import { signIn } from 'next-auth/react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Field, TextInput } from '@/components/ui/field';
import { Alert, LoadingState } from '@/components/ui/feedback';
import { apiRequest, fieldOfError } from '@/lib/client/api';
import { acceptInvitationSchema } from '@/lib/core/members/schemas';

type Values = z.input<typeof acceptInvitationSchema>;
type Invitation = { email: string; name: string | null; role: string; account_name: string; expires_at: string };
const FIELDS = ['name', 'password'] as const;

/**
 * The invitation link's page: who it is for, then a password (once), then signed in. The token
 * travels in request bodies only. A used, revoked or expired link says so and offers sign-in.
 */
export function AcceptInvitationForm({ token }: { token: string }) {
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => apiRequest<Invitation>('/internal/invitations/inspect', { method: 'POST', body: { token } }),
    retry: false,
    refetchOnWindowFocus: false,
  });
  if (invitation.isPending) return <LoadingState label="Checking the invitation…" />;
  if (invitation.error) {
    return (
      <div className="space-y-4">
        <h1 className="text-lg font-semibold">This invitation cannot be used</h1>
        <Alert tone="error">{invitation.error.message}</Alert>
        <Link href="/sign-in" className="text-sm font-medium text-brand-700 hover:underline">
          Go to sign-in
        </Link>
      </div>
    );
  }
  return <JoinForm token={token} invitation={invitation.data} />;
}

function JoinForm({ token, invitation }: { token: string; invitation: Invitation }) {
  const router = useRouter();
  const form = useForm<Values>({
    resolver: zodResolver(acceptInvitationSchema),
    defaultValues: { token, name: invitation.name ?? '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const accepted = await apiRequest<{ account_id: string; email: string }>('/internal/invitations/accept', {
        method: 'POST',
        body: { ...values, name: values.name || null },
      });
      const signedIn = await signIn('credentials', {
        email: accepted.email,
        password: values.password,
        redirect: false,
      });
      router.replace(signedIn?.ok ? `/${accepted.account_id}` : `/sign-in?email=${encodeURIComponent(accepted.email)}`);
      router.refresh();
    } catch (error) {
      const field = fieldOfError(error, FIELDS);
      form.setError((field ?? 'root') as keyof Values | 'root', {
        message: (error as Error).message.replace(/^password: /, ''),
      });
    }
  });

  const { email, role, account_name: accountName } = invitation;
  return (
    <form className="space-y-5" onSubmit={onSubmit} noValidate>
      <div>
        <h1 className="text-lg font-semibold wrap-anywhere">Join {accountName}</h1>
        <p className="mt-1 text-sm text-slate-600">
          You are invited as <strong>{role}</strong>. Choose a password for{' '}
          <span className="font-medium wrap-anywhere">{email}</span>; you will use it to sign in.
        </p>
      </div>
      {errors.root ? <Alert tone="error">{errors.root.message}</Alert> : null}
      <Field label="Email" htmlFor="invite-email">
        <TextInput id="invite-email" type="email" autoComplete="username" value={email} readOnly />
      </Field>
      <Field label="Your name (optional)" htmlFor="invite-name" error={errors.name?.message}>
        <TextInput id="invite-name" autoComplete="name" isInvalid={Boolean(errors.name)} {...form.register('name')} />
      </Field>
      <Field
        label="Password"
        htmlFor="invite-password"
        hint="At least 10 characters. If this address already has a Mailstead user, enter its password."
        error={errors.password?.message}
      >
        <TextInput
          id="invite-password"
          type="password"
          autoComplete="new-password"
          autoFocus
          isInvalid={Boolean(errors.password)}
          {...form.register('password')}
        />
      </Field>
      <Button type="submit" className="w-full" isBusy={isSubmitting}>
        Join and sign in
      </Button>
    </form>
  );
}
