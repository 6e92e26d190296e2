'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { KIND_LABELS } from '@/components/tables/template-table';
import { Button } from '@/components/ui/button';
import { Field, Select, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { fieldErrorMessage, fieldOfError } from '@/lib/client/api';
import { createTemplateSchema, TEMPLATE_KINDS, type TemplateKind } from '@/lib/core/templates/schemas';

// The dialog asks only what a new draft needs; the editor does the rest.
const schema = createTemplateSchema.pick({ name: true, kind: true });
type Values = z.input<typeof schema>;
const FIELDS = ['name', 'kind'] as const;

/** A new template's name and kind, validated by the API's own schema; server errors land on their field. */
export function CreateTemplateForm({
  onSubmit,
  onCancel,
}: {
  onSubmit: (values: { name: string; kind: TemplateKind }) => Promise<void>;
  onCancel: () => void;
}) {
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { name: '', kind: 'transactional' } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit({ name: values.name.trim(), kind: values.kind ?? 'transactional' });
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
        htmlFor="template-name"
        hint="Only people in this account see it."
        error={errors.name?.message}
      >
        <TextInput id="template-name" autoComplete="off" isInvalid={Boolean(errors.name)} {...form.register('name')} />
      </Field>
      <Field
        label="Kind"
        htmlFor="template-kind"
        hint="Transactional templates are sent one message at a time through the API; campaign templates go to lists."
        error={errors.kind?.message}
      >
        <Select id="template-kind" {...form.register('kind')}>
          {TEMPLATE_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {KIND_LABELS[kind]}
            </option>
          ))}
        </Select>
      </Field>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" isBusy={isSubmitting}>
          Create template
        </Button>
      </div>
    </form>
  );
}
