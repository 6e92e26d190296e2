'use client';

import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field, TextInput } from '@/components/ui/field';
import { useDisableTwoFactor, useRegenerateRecoveryCodes } from '@/lib/client/two-factor-queries';

/** Turning two-factor sign-in off: confirmed, with the password. */
export function DisableTwoFactorDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const disable = useDisableTwoFactor();
  const [password, setPassword] = useState('');
  return (
    <ConfirmDialog
      isOpen={isOpen}
      title="Turn off two-factor sign-in"
      confirmLabel="Turn off"
      isConfirmDisabled={!password}
      onConfirm={() => disable.mutateAsync({ password })}
      onClose={() => {
        setPassword('');
        onClose();
      }}
    >
      <p>
        Signing in will need only your password again. Your authenticator app&apos;s entry and your recovery codes stop
        working.
      </p>
      <Field label="Your password" htmlFor="disable-two-factor-password">
        <TextInput
          id="disable-two-factor-password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
        />
      </Field>
    </ConfirmDialog>
  );
}

/** New recovery codes: the password (or a current code) first; the old codes stop working. */
export function RegenerateRecoveryCodesDialog({
  isOpen,
  onClose,
  onCodes,
}: {
  isOpen: boolean;
  onClose: () => void;
  onCodes: (codes: string[]) => void;
}) {
  const regenerate = useRegenerateRecoveryCodes();
  const [password, setPassword] = useState('');
  return (
    <ConfirmDialog
      isOpen={isOpen}
      title="New recovery codes"
      confirmLabel="Make new codes"
      variant="primary"
      isConfirmDisabled={!password}
      onConfirm={() =>
        regenerate.mutateAsync(/^\d{6}$/.test(password.trim()) ? { code: password.trim() } : { password })
      }
      onDone={(result) => onCodes(result.recovery_codes)}
      onClose={() => {
        setPassword('');
        onClose();
      }}
    >
      <p>Your current recovery codes stop working and ten new ones are shown once.</p>
      <Field
        label="Your password, or a code from your app"
        htmlFor="regenerate-codes-proof"
        hint="A 6-digit code is taken as a code from your authenticator app."
      >
        <TextInput
          id="regenerate-codes-proof"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
        />
      </Field>
    </ConfirmDialog>
  );
}
