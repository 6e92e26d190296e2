'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Field, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { fieldOfError } from '@/lib/client/api';
import { useChangePassword } from '@/lib/client/profile-queries';
import { changePasswordSchema } from '@/lib/core/passwords/schemas';

// The form asks for the new password twice; the API takes it once. The current one is asked for
// unless the person has none yet (made by single sign-on).
const formSchemaFor = (hasPassword: boolean) =>
  changePasswordSchema
    .extend({
      current_password: hasPassword ? changePasswordSchema.shape.current_password.unwrap() : z.string().optional(),
      confirm_password: z.string(),
    })
    .refine((values) => values.confirm_password === values.new_password, {
      path: ['confirm_password'],
      message: 'does not match the new password',
    });
type Values = z.input<ReturnType<typeof formSchemaFor>>;
const FIELDS = ['current_password', 'new_password'] as const;

/** The Profile page's Password section: the current password (when there is one), then the new one twice. */
export function ChangePasswordForm({
  hasPassword,
  onDone,
}: {
  hasPassword: boolean;
  /** What was done, or null when a new attempt starts: shown by the section (a first password remounts this form). */
  onDone: (message: string | null) => void;
}) {
  const change = useChangePassword();
  const setDone = onDone;
  // No default values: what was typed before the page came to life is kept, not reset to ''.
  const form = useForm<Values>({ resolver: zodResolver(formSchemaFor(hasPassword)) });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ current_password, new_password }) => {
    setDone(null);
    try {
      const result = await change.mutateAsync(hasPassword ? { current_password, new_password } : { new_password });
      form.reset({ current_password: '', new_password: '', confirm_password: '' });
      const others = result.other_sessions_ended;
      const what = hasPassword ? 'Password changed.' : 'Password set: you can also sign in with it now.';
      setDone(
        others > 0
          ? `${what} ${others} other session${others === 1 ? '' : 's'} signed out; this one stays signed in.`
          : `${what} You stay signed in here.`,
      );
    } catch (error) {
      const field = fieldOfError(error, FIELDS);
      form.setError((field ?? 'root') as keyof Values | 'root', {
        message: (error as Error).message.replace(/^[a-z_]+: /, ''),
      });
    }
  });

  return (
    <form onSubmit={submit} className="max-w-md space-y-4" noValidate>
      {errors.root ? <Alert tone="error">{errors.root.message}</Alert> : null}
      {hasPassword ? (
        <Field label="Current password" htmlFor="current-password" error={errors.current_password?.message}>
          <TextInput
            id="current-password"
            type="password"
            autoComplete="current-password"
            {...form.register('current_password')}
          />
        </Field>
      ) : null}
      <Field
        label="New password"
        htmlFor="new-password"
        hint="At least 10 characters."
        error={errors.new_password?.message}
      >
        <TextInput id="new-password" type="password" autoComplete="new-password" {...form.register('new_password')} />
      </Field>
      <Field label="New password again" htmlFor="confirm-password" error={errors.confirm_password?.message}>
        <TextInput
          id="confirm-password"
          type="password"
          autoComplete="new-password"
          {...form.register('confirm_password')}
        />
      </Field>
      <Button type="submit" isBusy={isSubmitting}>
        {hasPassword ? 'Change password' : 'Set password'}
      </Button>
    </form>
  );
}
