'use client';

import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Field, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';

const MESSAGES: Record<string, string> = {
  CredentialsSignin: 'Wrong email or password.',
  TooManyAttempts: 'Too many failed sign-ins from your address. Wait a few minutes and try again.',
  NoAccount: 'Your user is not a member of any account.',
  SessionRequired: 'Sign in to continue.',
};

/** `returnTo` is a page of this dashboard (checked by the page): where the person was going. */
export function SignInForm({
  initialError,
  initialEmail,
  returnTo,
  singleSignOn,
}: {
  initialError: string | null;
  initialEmail: string;
  returnTo: string | null;
  /** The single sign-on button, above the password fields, when the operator configured it. */
  singleSignOn?: ReactNode;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(
    initialError ? (MESSAGES[initialError] ?? 'Sign-in failed.') : null,
  );
  const [isBusy, setIsBusy] = useState(false);

  return (
    <form
      className="space-y-5"
      onSubmit={async (event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        setIsBusy(true);
        setError(null);
        const result = await signIn('credentials', {
          email: form.get('email'),
          password: form.get('password'),
          redirect: false,
        });
        setIsBusy(false);
        if (!result || result.error) {
          setError(MESSAGES[result?.error ?? ''] ?? 'Sign-in failed.');
          return;
        }
        router.replace(returnTo ?? '/');
        router.refresh();
      }}
    >
      <div>
        <h1 className="text-lg font-semibold">Sign in</h1>
        <p className="mt-1 text-sm text-slate-600">
          {returnTo
            ? 'Sign in to continue to the page you asked for.'
            : 'Use the email and password of your Mailstead user.'}
        </p>
      </div>
      {singleSignOn}
      {error ? <Alert tone="error">{error}</Alert> : null}
      <Field label="Email" htmlFor="email">
        <TextInput
          id="email"
          name="email"
          type="email"
          autoComplete="username"
          required
          defaultValue={initialEmail}
          autoFocus={!initialEmail}
        />
      </Field>
      <Field label="Password" htmlFor="password">
        <TextInput
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          autoFocus={Boolean(initialEmail)}
        />
      </Field>
      <Button type="submit" className="w-full" isBusy={isBusy}>
        Sign in
      </Button>
    </form>
  );
}
