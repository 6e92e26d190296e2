'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Field, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { fieldErrorMessage, fieldOfError } from '@/lib/client/api';
import type { CreateSubAccountInput } from '@/lib/client/sub-account-queries';
import { createSubAccountSchema } from '@/lib/core/sub-accounts/schemas';

const FIELDS = ['name', 'website', 'monthly_credit'] as const;

/** Name, website domain and the monthly cap (the API's own schema; an empty cap means none). */
export function SubAccountForm({
  onSubmit,
  onCancel,
}: {
  onSubmit: (values: CreateSubAccountInput) => Promise<void>;
  onCancel: () => void;
}) {
  const form = useForm<CreateSubAccountInput>({
    resolver: zodResolver(createSubAccountSchema),
    defaultValues: { name: '', website: '', monthly_credit: 0 },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      const field = fieldOfError(error, FIELDS);
      form.setError((field ?? 'root') as keyof CreateSubAccountInput | 'root', {
        message: fieldErrorMessage(error, field),
      });
    }
  });
  return (
    <form onSubmit={submit} className="space-y-5" noValidate>
      {errors.root ? <Alert tone="error">{errors.root.message}</Alert> : null}
      <Field label="Name" htmlFor="sub-account-name" error={errors.name?.message}>
        <TextInput
          id="sub-account-name"
          autoComplete="off"
          isInvalid={Boolean(errors.name)}
          {...form.register('name')}
        />
      </Field>
      <Field
        label="Website"
        htmlFor="sub-account-website"
        hint="The customer's website: acme.example.com or https://acme.example.com (kept as its domain)."
        error={errors.website?.message}
      >
        <TextInput
          id="sub-account-website"
          autoComplete="off"
          inputMode="url"
          placeholder="acme.example.com"
          isInvalid={Boolean(errors.website)}
          {...form.register('website')}
        />
      </Field>
      <Field
        label="Monthly credit"
        htmlFor="sub-account-credit"
        hint="Messages it may send per calendar month (UTC); 0 means no cap."
        error={errors.monthly_credit?.message}
      >
        <TextInput
          id="sub-account-credit"
          type="number"
          min={0}
          step={1}
          inputMode="numeric"
          isInvalid={Boolean(errors.monthly_credit)}
          {...form.register('monthly_credit', {
            setValueAs: (value: string | number) => (value === '' ? 0 : Number(value)),
          })}
        />
      </Field>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" isBusy={isSubmitting}>
          Create sub account
        </Button>
      </div>
    </form>
  );
}
