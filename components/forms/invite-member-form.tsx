'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Field, Select, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { MEMBER_ROLES } from '@/lib/auth/roles';
import { fieldErrorMessage, fieldOfError } from '@/lib/client/api';
import type { AddMemberInput } from '@/lib/client/member-queries';
import { addMemberSchema } from '@/lib/core/members/schemas';

const FIELDS = ['email', 'name', 'role'] as const;

/** Email and role (the API's own schema); a person who already has a Mailstead user joins at once. */
export function InviteMemberForm({
  onSubmit,
  onCancel,
}: {
  onSubmit: (values: AddMemberInput) => Promise<void>;
  onCancel: () => void;
}) {
  const form = useForm<AddMemberInput>({
    resolver: zodResolver(addMemberSchema),
    defaultValues: { email: '', name: '', role: 'Developer' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit({ ...values, name: values.name || null });
    } catch (error) {
      const field = fieldOfError(error, FIELDS);
      form.setError((field ?? 'root') as keyof AddMemberInput | 'root', { message: fieldErrorMessage(error, field) });
    }
  });
  return (
    <form onSubmit={submit} className="space-y-5" noValidate>
      {errors.root ? <Alert tone="error">{errors.root.message}</Alert> : null}
      <Field label="Email" htmlFor="member-email" error={errors.email?.message}>
        <TextInput
          id="member-email"
          type="email"
          autoComplete="off"
          isInvalid={Boolean(errors.email)}
          {...form.register('email')}
        />
      </Field>
      <Field
        label="Name (optional)"
        htmlFor="member-name"
        hint="Used in the invitation; the person can change it."
        error={errors.name?.message}
      >
        <TextInput id="member-name" autoComplete="off" isInvalid={Boolean(errors.name)} {...form.register('name')} />
      </Field>
      <Field
        label="Role"
        htmlFor="member-role"
        hint="What each role may do is listed under “Roles and scopes”."
        error={errors.role?.message}
      >
        <Select id="member-role" {...form.register('role')}>
          {MEMBER_ROLES.map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
        </Select>
      </Field>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" isBusy={isSubmitting}>
          Invite member
        </Button>
      </div>
    </form>
  );
}
