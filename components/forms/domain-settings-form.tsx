'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Field, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { fieldErrorMessage, fieldOfError } from '@/lib/client/api';
import { useUpdateDomain } from '@/lib/client/queries';
import type { DomainObject } from '@/lib/client/types';
import { updateDomainSchema } from '@/lib/core/domains/schemas';

// The form shows an empty box for "default"; the API's schema wants null for that.
const emptyAsNull = (value: unknown) => (value === '' ? null : value);
const formSchema = updateDomainSchema.extend({
  return_path_subdomain: z.preprocess(emptyAsNull, updateDomainSchema.shape.return_path_subdomain),
  tracking_subdomain: z.preprocess(emptyAsNull, updateDomainSchema.shape.tracking_subdomain),
  subscription_subdomain: z.preprocess(emptyAsNull, updateDomainSchema.shape.subscription_subdomain),
  media_subdomain: z.preprocess(emptyAsNull, updateDomainSchema.shape.media_subdomain),
});
type Values = z.input<typeof formSchema>;
const SUBDOMAINS = [
  ['return_path_subdomain', 'Return path subdomain', 'rp'],
  ['tracking_subdomain', 'Tracking subdomain', 't'],
  ['subscription_subdomain', 'Subscription subdomain', 'u'],
  ['media_subdomain', 'Media subdomain', 'media'],
] as const;

/** Subdomains (the sending type has its own section). A subdomain whose record verified is locked; the server says so here. */
export function DomainSettingsForm({
  accountId,
  domain,
  canEdit,
}: {
  accountId: string;
  domain: DomainObject;
  canEdit: boolean;
}) {
  const update = useUpdateDomain(accountId, domain.domain);
  const form = useForm<Values>({
    resolver: zodResolver(formSchema),
    values: {
      return_path_subdomain: domain.return_path_subdomain ?? '',
      tracking_subdomain: domain.tracking_subdomain ?? '',
      subscription_subdomain: domain.subscription_subdomain ?? '',
      media_subdomain: domain.media_subdomain ?? '',
    },
  });
  const { errors, isSubmitting, dirtyFields, isDirty } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    const changed = Object.fromEntries(
      Object.entries(values)
        .filter(([name]) => dirtyFields[name as keyof Values])
        .map(([name, value]) => [name, value === '' ? null : value]),
    );
    try {
      await update.mutateAsync(changed);
    } catch (error) {
      const field = fieldOfError(
        error,
        SUBDOMAINS.map(([name]) => name),
      );
      form.setError((field ?? 'root') as keyof Values | 'root', { message: fieldErrorMessage(error, field) });
    }
  });
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {errors.root ? <Alert tone="error">{errors.root.message}</Alert> : null}
      {update.isSuccess && !isDirty ? <Alert tone="success">Domain settings saved.</Alert> : null}
      <fieldset disabled={!canEdit} className="grid gap-4 sm:grid-cols-2">
        {SUBDOMAINS.map(([name, label, fallback]) => (
          <Field
            key={name}
            label={label}
            htmlFor={name}
            hint={`Leave empty for the default (${fallback}).`}
            error={errors[name]?.message}
          >
            <TextInput id={name} placeholder={fallback} isInvalid={Boolean(errors[name])} {...form.register(name)} />
          </Field>
        ))}
      </fieldset>
      {canEdit ? (
        <div className="flex justify-end">
          <Button type="submit" isBusy={isSubmitting}>
            Save domain settings
          </Button>
        </div>
      ) : null}
    </form>
  );
}
