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
const FIELDS = ['name', 'description', 'public_name'] as const;
const orNull = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);

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
    defaultValues: {
      name: initial?.name ?? '',
      description: initial?.description ?? '',
      public_name: initial?.public_name ?? '',
    },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit({
        name: values.name,
        description: orNull(values.description),
        public_name: orNull(values.public_name),
      });
    } catch (error) {
      const field = fieldOfError(error, FIELDS);
      form.setError((field ?? 'root') as keyof Values | 'root', { message: fieldErrorMessage(error, field) });
    }
  });
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      {errors.root ? <Alert tone="error">{errors.root.message}</Alert> : null}
      <Field
        label="Name"
        htmlFor="list-name"
        hint="Subscribers see it too, unless you say below what they should see."
        error={errors.name?.message}
      >
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
      <Field
        label="Shown to subscribers as"
        htmlFor="list-public-name"
        hint="Optional: the list's title on subscribers' preferences page. Without it they see the name."
        error={errors.public_name?.message}
      >
        <TextInput
          id="list-public-name"
          autoComplete="off"
          isInvalid={Boolean(errors.public_name)}
          {...form.register('public_name')}
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
