'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Field, TextInput } from '@/components/ui/field';
import type { TwoFactorSetup } from '@/lib/client/two-factor-queries';

/** Step two of setup: scan (or type) the secret, then prove it with a code. Only a right code turns it on. */
export function TwoFactorSetupPanel({
  setup,
  error,
  isBusy,
  onConfirm,
  onCancel,
}: {
  setup: TwoFactorSetup;
  error: string | null;
  isBusy: boolean;
  onConfirm: (code: string) => void;
  onCancel: () => void;
}) {
  const [code, setCode] = useState('');
  const grouped = setup.secret.match(/.{1,4}/g)?.join(' ') ?? setup.secret;
  return (
    <div className="space-y-4">
      <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
        <li>Scan the QR code with an authenticator app (1Password, Google Authenticator, Authy, …).</li>
        <li>Enter the 6-digit code the app shows to turn two-factor sign-in on.</li>
      </ol>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <img
          src={setup.qr_code}
          alt="QR code for your authenticator app"
          width={176}
          height={176}
          className="size-44 shrink-0 rounded-md ring-1 ring-slate-200"
        />
        <div className="min-w-0 space-y-2 text-sm">
          <p className="text-slate-600">Cannot scan it? Enter this key in the app instead:</p>
          <div className="flex items-start gap-2">
            <code className="min-w-0 font-mono text-sm wrap-anywhere" data-testid="two-factor-secret">
              {grouped}
            </code>
            <CopyButton value={setup.secret} what="two-factor secret key" />
          </div>
        </div>
      </div>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          onConfirm(code.trim());
        }}
      >
        <div className="w-48">
          <Field label="Code from the app" htmlFor="two-factor-code" error={error ?? undefined}>
            <TextInput
              id="two-factor-code"
              name="code"
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={7}
              required
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
            />
          </Field>
        </div>
        <Button type="submit" isBusy={isBusy}>
          Turn on
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </form>
    </div>
  );
}
