'use client';

import { signIn } from 'next-auth/react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Field, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';

// The error names are thrown by authorize() in lib/dashboard/auth-options.ts.
const MESSAGES: Record<string, string> = {
  CredentialsSignin: 'Wrong email or password.',
  TooManyAttempts: 'Too many failed sign-ins from your address. Wait a few minutes and try again.',
  NoAccount: 'Your user is not a member of any account.',
  SessionRequired: 'Sign in to continue.',
  TwoFactorInvalid: 'That code is not valid, or was already used. Try the current code.',
  TooManyCodeAttempts: 'Too many wrong codes. Wait 15 minutes and try again.',
};

type Credentials = { email: string; password: string };

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
  // Set once the password was right and the person has two-factor sign-in: the code step. The
  // password stays here, in memory, to go with the code.
  const [pending, setPending] = useState<Credentials | null>(null);

  const submit = async (credentials: Credentials, code?: string) => {
    setIsBusy(true);
    setError(null);
    const result = await signIn('credentials', { ...credentials, ...(code ? { code } : {}), redirect: false });
    setIsBusy(false);
    if (result?.error === 'TwoFactorRequired') {
      setPending(credentials);
      return;
    }
    if (!result || result.error) {
      setError(MESSAGES[result?.error ?? ''] ?? 'Sign-in failed.');
      return;
    }
    router.replace(returnTo ?? '/');
    router.refresh();
  };

  if (pending)
    return (
      <CodeStep
        error={error}
        isBusy={isBusy}
        onSubmit={(code) => submit(pending, code)}
        onBack={() => {
          setPending(null);
          setError(null);
        }}
      />
    );

  return (
    <form
      className="space-y-5"
      onSubmit={async (event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        await submit({ email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') });
      }}
    >
      <div>
        <h1 className="text-lg font-semibold">Sign in</h1>
        <p className="mt-1 text-sm text-slate-600">
          {returnTo
            ? 'Sign in to continue to the page you asked for.'
            : singleSignOn
              ? 'Through your organisation, or with the email and password of your Mailstead user.'
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
      <Link href="/forgot-password" className="block text-center text-sm font-medium text-brand-700 hover:underline">
        Forgot password?
      </Link>
    </form>
  );
}

/** The second step: a code from the authenticator app, or one of the recovery codes. */
function CodeStep({
  error,
  isBusy,
  onSubmit,
  onBack,
}: {
  error: string | null;
  isBusy: boolean;
  onSubmit: (code: string) => Promise<void>;
  onBack: () => void;
}) {
  const [isRecovery, setIsRecovery] = useState(false);
  return (
    <form
      className="space-y-5"
      onSubmit={async (event) => {
        event.preventDefault();
        await onSubmit(String(new FormData(event.currentTarget).get('code') ?? '').trim());
      }}
    >
      <div>
        <h1 className="text-lg font-semibold">Two-factor sign-in</h1>
        <p className="mt-1 text-sm text-slate-600">
          {isRecovery
            ? 'Enter one of the recovery codes you saved when you set up two-factor sign-in. Each works once.'
            : 'Enter the 6-digit code from your authenticator app.'}
        </p>
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {isRecovery ? (
        <Field label="Recovery code" htmlFor="code" key="recovery">
          <TextInput
            id="code"
            name="code"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            placeholder="xxxxx-xxxxx"
            required
            autoFocus
          />
        </Field>
      ) : (
        <Field label="Authentication code" htmlFor="code" key="totp">
          <TextInput
            id="code"
            name="code"
            autoComplete="one-time-code"
            inputMode="numeric"
            pattern="[0-9 ]{6,7}"
            maxLength={7}
            placeholder="123456"
            required
            autoFocus
          />
        </Field>
      )}
      <Button type="submit" className="w-full" isBusy={isBusy}>
        Verify
      </Button>
      <div className="flex flex-wrap justify-between gap-2 text-sm">
        <button type="button" className="text-brand-700 underline" onClick={() => setIsRecovery(!isRecovery)}>
          {isRecovery ? 'Use your authenticator app instead' : 'Use a recovery code instead'}
        </button>
        <button type="button" className="text-slate-600 underline" onClick={onBack}>
          Back
        </button>
      </div>
    </form>
  );
}
