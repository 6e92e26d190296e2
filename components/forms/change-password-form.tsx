'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Field, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { fieldOfError } from '@/lib/client/api';
import { useChangePassword } from '@/lib/client/profile-queries';
import { changePasswordSchema } from '@/lib/core/passwords/schemas';

// The form asks for the new password twice; the API takes it once.
const formSchema = changePasswordSchema
  .extend({ confirm_password: z.string() })
  .refine((values) => values.confirm_password === values.new_password, {
    path: ['confirm_password'],
    message: 'does not match the new password',
  });
type Values = z.input<typeof formSchema>;
const FIELDS = ['current_password', 'new_password'] as const;

/** The Profile page's Password section: the current password, then the new one twice. */
export function ChangePasswordForm() {
  const change = useChangePassword();
  const [done, setDone] = useState<string | null>(null);
  // No default values: what was typed before the page came to life is kept, not reset to ''.
  const form = useForm<Values>({ resolver: zodResolver(formSchema) });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ current_password, new_password }) => {
    setDone(null);
    try {
      const result = await change.mutateAsync({ current_password, new_password });
      form.reset({ current_password: '', new_password: '', confirm_password: '' });
      const others = result.other_sessions_ended;
      setDone(
        others > 0
          ? `Password changed. ${others} other session${others === 1 ? '' : 's'} signed out; this one stays signed in.`
          : 'Password changed. You stay signed in here.',
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
      {done ? <Alert tone="success">{done}</Alert> : null}
      {errors.root ? <Alert tone="error">{errors.root.message}</Alert> : null}
      <Field label="Current password" htmlFor="current-password" error={errors.current_password?.message}>
        <TextInput
          id="current-password"
          type="password"
          autoComplete="current-password"
          {...form.register('current_password')}
        />
      </Field>
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
        Change password
      </Button>
    </form>
  );
}
