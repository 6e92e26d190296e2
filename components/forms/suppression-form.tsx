'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Field, Select, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { fieldErrorMessage, fieldOfError } from '@/lib/client/api';
import type { SuppressionInput } from '@/lib/client/suppression-queries';
import { createSuppressionSchema } from '@/lib/core/suppressions/schemas';

const DAY_MS = 86_400_000;

/** The API's schema, with the expiry picked as a calendar date (the end of that day, viewer's time). */
const formSchema = createSuppressionSchema.extend({
  expires_at: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'pick a date')
    .refine((value) => endOfDay(value).getTime() > Date.now(), 'must be in the future'),
});
type Values = z.input<typeof formSchema>;
const FIELDS = ['email', 'domain', 'reason', 'expires_at'] as const;

function endOfDay(date: string): Date {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(year, month - 1, day, 23, 59, 59);
}

function dateInDays(days: number): string {
  const at = new Date(Date.now() + days * DAY_MS);
  return `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
}

/** Adds an address: for one domain or all, with a reason and the day it stops counting. */
export function SuppressionForm({
  domains,
  onSubmit,
  onCancel,
}: {
  domains: string[] | null;
  onSubmit: (input: SuppressionInput) => Promise<void>;
  onCancel: () => void;
}) {
  const form = useForm<Values>({
    resolver: zodResolver(formSchema),
    defaultValues: { email: '', domain: '', reason: '', expires_at: dateInDays(365) },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit({
        email: values.email.trim(),
        ...(values.domain ? { domain: values.domain.trim() } : {}),
        ...(values.reason?.trim() ? { reason: values.reason.trim() } : {}),
        expires_at: endOfDay(values.expires_at).toISOString(),
      });
    } catch (error) {
      const field = fieldOfError(error, FIELDS);
      form.setError((field ?? 'root') as keyof Values | 'root', { message: fieldErrorMessage(error, field) });
    }
  });
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      {errors.root ? <Alert tone="error">{errors.root.message}</Alert> : null}
      <Field label="Email address" htmlFor="suppression-email" error={errors.email?.message}>
        <TextInput
          id="suppression-email"
          type="email"
          autoComplete="off"
          isInvalid={Boolean(errors.email)}
          {...form.register('email')}
        />
      </Field>
      <Field
        label="Sending domain"
        htmlFor="suppression-domain"
        hint="Mail from this domain to the address is not sent."
        error={errors.domain?.message}
      >
        {domains ? (
          <Select id="suppression-domain" {...form.register('domain')}>
            <option value="">Every domain of the account</option>
            {domains.map((domain) => (
              <option key={domain} value={domain}>
                {domain}
              </option>
            ))}
          </Select>
        ) : (
          <TextInput id="suppression-domain" placeholder="Every domain of the account" {...form.register('domain')} />
        )}
      </Field>
      <Field
        label="Reason"
        htmlFor="suppression-reason"
        hint="Optional, for the people who read this list later."
        error={errors.reason?.message}
      >
        <TextInput id="suppression-reason" maxLength={255} {...form.register('reason')} />
      </Field>
      <Field
        label="Suppressed until"
        htmlFor="suppression-expires"
        hint="After this day, mail to the address is sent again."
        error={errors.expires_at?.message}
      >
        <TextInput
          id="suppression-expires"
          type="date"
          min={dateInDays(1)}
          isInvalid={Boolean(errors.expires_at)}
          {...form.register('expires_at')}
        />
      </Field>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" isBusy={isSubmitting}>
          Add suppression
        </Button>
      </div>
    </form>
  );
}
