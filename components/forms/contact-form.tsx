'use client';

import { useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@/components/ui/button';
import { Field, Select, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { ApiError, fieldOfError } from '@/lib/client/api';
import { attributeToInput, changedAttributes } from '@/lib/client/attribute-inputs';
import type { ContactInput } from '@/lib/client/contact-queries';
import type { AttributeDefinition, ContactObject } from '@/lib/client/types';
import { checkAttributeValues, describeAttributeType } from '@/lib/core/contacts/attribute-values';
import { createContactSchema, updateContactSchema } from '@/lib/core/contacts/schemas';

type Values = { email: string; first_name: string; last_name: string; attributes: Record<string, string> };
const FIELDS = ['email', 'first_name', 'last_name'] as const;

/** What the form sends: the fields (all on create, the changed ones on update) and the attributes. */
function toBody(values: Values, definitions: AttributeDefinition[], contact: ContactObject | null): ContactInput {
  const initial = contact ? contactValues(contact) : null;
  const body: ContactInput = {};
  for (const field of FIELDS) {
    const value = values[field].trim();
    if (initial && value === initial[field].trim()) continue;
    if (field === 'email') body.email = value;
    else body[field] = value === '' ? null : value;
  }
  const attributes = changedAttributes(definitions, values.attributes, initial?.attributes ?? null);
  if (Object.keys(attributes).length) body.attributes = attributes;
  return body;
}

const contactValues = (contact: ContactObject | null): Values => ({
  email: contact?.email ?? '',
  first_name: contact?.first_name ?? '',
  last_name: contact?.last_name ?? '',
  attributes: Object.fromEntries(
    Object.entries(contact?.attributes ?? {}).map(([key, value]) => [key, attributeToInput(value)]),
  ),
});

/** Attribute messages name their key (`attribute \`plan\` must be…`): put them under that input. */
const attributeKeyOf = (message: string) => /attribute `([^`]+)`/.exec(message)?.[1] ?? null;

/**
 * Create and edit a contact, validated by the API's own schema (create or update) and its attribute
 * check, on the body the form would send; server errors land on their field or attribute.
 */
export function ContactForm({
  contact,
  definitions,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  contact: ContactObject | null;
  definitions: AttributeDefinition[];
  submitLabel: string;
  onSubmit: (body: ContactInput) => Promise<void>;
  onCancel?: () => void;
}) {
  const schema = contact ? updateContactSchema : createContactSchema;
  const resolver: Resolver<Values> = async (values, context, options) => {
    const body = toBody(values, definitions, contact);
    const checked = await zodResolver(schema as never)(body as never, context, options as never);
    const errors: Record<string, unknown> = { ...checked.errors };
    const attributeErrors = checkAttributeValues(definitions, (body.attributes ?? {}) as Record<string, unknown>);
    if (attributeErrors.length)
      errors.attributes = Object.fromEntries(
        attributeErrors.map((error) => [error.key, { type: 'validate', message: error.message }]),
      );
    return Object.keys(errors).length ? { values: {}, errors: errors as never } : { values, errors: {} };
  };
  const form = useForm<Values>({ resolver, defaultValues: contactValues(contact) });
  const { errors, isSubmitting, isDirty } = form.formState;
  const undefinedKeys = Object.keys(contact?.attributes ?? {}).filter(
    (key) => !definitions.some((definition) => definition.key === key),
  );

  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(toBody(values, definitions, contact));
      if (contact) form.reset(values);
    } catch (error) {
      const message = (error as Error).message;
      const key = error instanceof ApiError ? attributeKeyOf(message) : null;
      if (key && definitions.some((definition) => definition.key === key))
        return form.setError(`attributes.${key}`, { message });
      const field = fieldOfError(error, FIELDS);
      form.setError((field ?? 'root') as keyof Values | 'root', { message });
    }
  });

  return (
    <form onSubmit={submit} className="space-y-4" noValidate aria-label={contact ? 'Contact details' : 'New contact'}>
      {errors.root ? <Alert tone="error">{errors.root.message}</Alert> : null}
      <Field label="Email address" htmlFor="contact-email" error={errors.email?.message}>
        <TextInput
          id="contact-email"
          type="email"
          autoComplete="off"
          isInvalid={Boolean(errors.email)}
          {...form.register('email')}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="First name" htmlFor="contact-first-name" error={errors.first_name?.message}>
          <TextInput
            id="contact-first-name"
            autoComplete="off"
            isInvalid={Boolean(errors.first_name)}
            {...form.register('first_name')}
          />
        </Field>
        <Field label="Last name" htmlFor="contact-last-name" error={errors.last_name?.message}>
          <TextInput
            id="contact-last-name"
            autoComplete="off"
            isInvalid={Boolean(errors.last_name)}
            {...form.register('last_name')}
          />
        </Field>
      </div>
      {definitions.length ? (
        <fieldset className="space-y-3 border-t border-slate-100 pt-3">
          <legend className="text-sm font-medium text-slate-800">Attributes</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            {definitions.map((definition) => {
              const id = `contact-attribute-${definition.key}`;
              const error = errors.attributes?.[definition.key]?.message;
              const register = form.register(`attributes.${definition.key}`);
              return (
                <Field
                  key={definition.key}
                  label={definition.label || definition.key}
                  htmlFor={id}
                  hint={`${definition.key}: ${describeAttributeType(definition.type)}`}
                  error={error}
                >
                  {definition.type === 'boolean' ? (
                    <Select id={id} {...register}>
                      <option value="">Not set</option>
                      <option value="true">true</option>
                      <option value="false">false</option>
                    </Select>
                  ) : (
                    <TextInput
                      id={id}
                      type={definition.type === 'date' ? 'date' : 'text'}
                      inputMode={definition.type === 'number' ? 'decimal' : undefined}
                      isInvalid={Boolean(error)}
                      {...register}
                    />
                  )}
                </Field>
              );
            })}
          </div>
        </fieldset>
      ) : null}
      {undefinedKeys.length ? (
        <p className="text-xs text-slate-600">
          Also stored, with no definition (read only):{' '}
          {undefinedKeys.map((key) => `${key} = ${attributeToInput(contact!.attributes[key])}`).join(', ')}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" isBusy={isSubmitting} disabled={Boolean(contact) && !isDirty}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
