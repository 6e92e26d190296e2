'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Field, Select, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { fieldErrorMessage, fieldOfError } from '@/lib/client/api';
import type { AttributeDefinition } from '@/lib/client/types';
import { ATTRIBUTE_TYPES, describeAttributeType } from '@/lib/core/contacts/attribute-values';
import { createAttributeDefinitionSchema } from '@/lib/core/contacts/schemas';

type Values = z.input<typeof createAttributeDefinitionSchema>;
const FIELDS = ['key', 'type', 'label'] as const;

/**
 * Define an attribute, or change one (its label; its type only while no contact holds a value, which
 * the server checks and explains). The key cannot change: it is how contacts and imports name it.
 */
export function AttributeDefinitionForm({
  definition,
  onSubmit,
  onCancel,
}: {
  definition: AttributeDefinition | null;
  onSubmit: (values: Values) => Promise<void>;
  onCancel: () => void;
}) {
  const form = useForm<Values>({
    resolver: zodResolver(createAttributeDefinitionSchema),
    defaultValues: { key: definition?.key ?? '', type: definition?.type ?? 'string', label: definition?.label ?? '' },
  });
  const { errors, isSubmitting } = form.formState;
  const type = form.watch('type');
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit({ ...values, label: values.label?.trim() ? values.label.trim() : null });
    } catch (error) {
      const field = fieldOfError(error, FIELDS);
      form.setError((field ?? 'root') as keyof Values | 'root', { message: fieldErrorMessage(error, field) });
    }
  });
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      {errors.root ? <Alert tone="error">{errors.root.message}</Alert> : null}
      <Field
        label="Key"
        htmlFor="attribute-key"
        hint="Lowercase letters, digits and _: the CSV column and the template variable, e.g. plan or signup_date."
        error={errors.key?.message}
      >
        <TextInput
          id="attribute-key"
          autoComplete="off"
          readOnly={Boolean(definition)}
          isInvalid={Boolean(errors.key)}
          {...form.register('key')}
        />
      </Field>
      <Field
        label="Type"
        htmlFor="attribute-type"
        hint={`Values are written as ${describeAttributeType(type as AttributeDefinition['type'])}.`}
        error={errors.type?.message}
      >
        <Select id="attribute-type" {...form.register('type')}>
          {ATTRIBUTE_TYPES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </Select>
      </Field>
      <Field
        label="Label"
        htmlFor="attribute-label"
        hint="Optional: how the dashboard names it."
        error={errors.label?.message}
      >
        <TextInput
          id="attribute-label"
          autoComplete="off"
          isInvalid={Boolean(errors.label)}
          {...form.register('label')}
        />
      </Field>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" isBusy={isSubmitting}>
          {definition ? 'Save attribute' : 'Add attribute'}
        </Button>
      </div>
    </form>
  );
}
