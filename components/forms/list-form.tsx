'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Field, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { fieldErrorMessage, fieldOfError } from '@/lib/client/api';
import type { ListInput } from '@/lib/client/list-queries';
import { createListSchema } from '@/lib/core/lists/schemas';

type Values = z.input<typeof createListSchema>;
const FIELDS = ['name', 'description'] as const;

/** Create and rename a list, validated by the API's own schema; server errors land on their field. */
export function ListForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial?: ListInput;
  submitLabel: string;
  onSubmit: (values: ListInput) => Promise<void>;
  onCancel: () => void;
}) {
  const form = useForm<Values>({
    resolver: zodResolver(createListSchema),
    defaultValues: { name: initial?.name ?? '', description: initial?.description ?? '' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit({ name: values.name, description: values.description?.trim() ? values.description.trim() : null });
    } catch (error) {
      const field = fieldOfError(error, FIELDS);
      form.setError((field ?? 'root') as keyof Values | 'root', { message: fieldErrorMessage(error, field) });
    }
  });
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      {errors.root ? <Alert tone="error">{errors.root.message}</Alert> : null}
      <Field label="Name" htmlFor="list-name" hint="Only people in this account see it." error={errors.name?.message}>
        <TextInput id="list-name" autoComplete="off" isInvalid={Boolean(errors.name)} {...form.register('name')} />
      </Field>
      <Field
        label="Description"
        htmlFor="list-description"
        hint="Optional: who is on it and why."
        error={errors.description?.message}
      >
        <TextInput
          id="list-description"
          autoComplete="off"
          isInvalid={Boolean(errors.description)}
          {...form.register('description')}
        />
      </Field>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" isBusy={isSubmitting}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
