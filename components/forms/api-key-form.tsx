'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Field, TextArea, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { fieldErrorMessage, fieldOfError } from '@/lib/client/api';
import { useCurrentUser, useDomains } from '@/lib/client/queries';
import { createApiKeySchema } from '@/lib/core/api-keys/schemas';
import { ScopePicker } from './scope-picker';

export type ApiKeyFormValues = { label: string; scopes: string[]; ip_allow_list: string[] };
type SchemaInput = z.input<typeof createApiKeySchema>;
const FIELDS = ['label', 'scopes', 'ip_allow_list'] as const;

/** Create and edit share one form, validated by the API's own schema; server errors land on their field. */
export function ApiKeyForm({
  accountId,
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  accountId: string;
  initial?: ApiKeyFormValues;
  submitLabel: string;
  onSubmit: (values: ApiKeyFormValues) => Promise<void>;
  onCancel: () => void;
}) {
  const me = useCurrentUser();
  const account = me.data?.accounts.find((candidate) => candidate.id === accountId);
  const domains = useDomains(accountId);
  const domainNames = domains.data ? domains.data.data.map((domain) => domain.domain) : domains.error ? [] : null;
  const form = useForm<SchemaInput>({
    resolver: zodResolver(createApiKeySchema),
    defaultValues: initial ?? { label: '', scopes: [], ip_allow_list: [] },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit({ label: values.label, scopes: values.scopes, ip_allow_list: values.ip_allow_list ?? [] });
    } catch (error) {
      const field = fieldOfError(error, FIELDS);
      form.setError((field ?? 'root') as keyof SchemaInput | 'root', { message: fieldErrorMessage(error, field) });
    }
  });

  return (
    <form onSubmit={submit} className="space-y-5" noValidate>
      {errors.root ? <Alert tone="error">{errors.root.message}</Alert> : null}
      <Field
        label="Label"
        htmlFor="api-key-label"
        hint="What uses this key, e.g. “billing service (production)”."
        error={errors.label?.message}
      >
        <TextInput id="api-key-label" isInvalid={Boolean(errors.label)} {...form.register('label')} />
      </Field>
      <div className="space-y-1">
        <p className="text-sm font-medium text-slate-800" id="api-key-scopes-label">
          Scopes
        </p>
        <Controller
          control={form.control}
          name="scopes"
          render={({ field }) => (
            <ScopePicker
              value={field.value ?? []}
              onChange={field.onChange}
              domains={domainNames}
              isPartner={account?.tier === 'partner'}
              isInvalid={Boolean(errors.scopes)}
              describedBy="api-key-scopes-label"
            />
          )}
        />
        {errors.scopes ? (
          <p className="text-xs font-medium text-red-600" role="alert" data-field-error="scopes">
            {errors.scopes.message ??
              (errors.scopes as unknown as { root?: { message?: string } }).root?.message ??
              'Check the scopes.'}
          </p>
        ) : null}
      </div>
      <Controller
        control={form.control}
        name="ip_allow_list"
        render={({ field }) => (
          <Field
            label="IP allow list"
            htmlFor="api-key-ips"
            hint="One IP address or CIDR block per line. Leave empty to allow any address."
            error={
              errors.ip_allow_list?.message ??
              (errors.ip_allow_list as unknown as { root?: { message?: string } } | undefined)?.root?.message
            }
          >
            <TextArea
              id="api-key-ips"
              rows={3}
              isInvalid={Boolean(errors.ip_allow_list)}
              defaultValue={(field.value ?? []).join('\n')}
              onChange={(event) =>
                field.onChange(
                  event.target.value
                    .split(/[\s,]+/)
                    .map((entry) => entry.trim())
                    .filter(Boolean),
                )
              }
            />
          </Field>
        )}
      />
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
