'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Checkbox, Field, TextArea, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { fieldErrorMessage, fieldOfError } from '@/lib/client/api';
import type { SmtpCredentialInput } from '@/lib/client/smtp-credential-queries';
import { createSmtpCredentialSchema } from '@/lib/core/smtp-credentials/schemas';

type Values = z.input<typeof createSmtpCredentialSchema>;
const FIELDS = ['name', 'scope', 'domains', 'sandbox'] as const;

/**
 * A new credential, validated by the API's own schema: a name, which sending domains it may use
 * (all, or some), and sandbox. Server errors land on their field.
 */
export function SmtpCredentialForm({
  domains,
  canChooseGlobal,
  onSubmit,
  onCancel,
}: {
  /** The account's domains to choose from; null when this role cannot list them (type them instead). */
  domains: string[] | null;
  canChooseGlobal: boolean;
  onSubmit: (values: SmtpCredentialInput) => Promise<void>;
  onCancel: () => void;
}) {
  const form = useForm<Values>({
    resolver: zodResolver(createSmtpCredentialSchema),
    defaultValues: { name: '', scope: canChooseGlobal ? 'global' : 'scoped', sandbox: false, domains: [] },
  });
  const { errors, isSubmitting } = form.formState;
  const scope = form.watch('scope');

  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit({
        name: values.name,
        scope: values.scope as SmtpCredentialInput['scope'],
        sandbox: Boolean(values.sandbox),
        domains: values.scope === 'scoped' ? (values.domains ?? []) : [],
      });
    } catch (error) {
      const field = fieldOfError(error, FIELDS);
      form.setError((field ?? 'root') as keyof Values | 'root', { message: fieldErrorMessage(error, field) });
    }
  });

  return (
    <form onSubmit={submit} className="space-y-5" noValidate>
      {errors.root ? <Alert tone="error">{errors.root.message}</Alert> : null}
      <Field
        label="Name"
        htmlFor="smtp-credential-name"
        hint="What uses it, e.g. “billing app (production)”."
        error={errors.name?.message}
      >
        <TextInput id="smtp-credential-name" isInvalid={Boolean(errors.name)} {...form.register('name')} />
      </Field>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Sending domains</legend>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="radio"
            value="global"
            className="mt-0.5"
            disabled={!canChooseGlobal}
            {...form.register('scope')}
          />
          <span>
            Every domain of the account
            {!canChooseGlobal ? (
              <span className="block text-xs text-slate-500">Needs the smtp-credentials:write:all scope.</span>
            ) : null}
          </span>
        </label>
        <label className="flex items-start gap-2 text-sm">
          <input type="radio" value="scoped" className="mt-0.5" {...form.register('scope')} />
          <span>Only some domains (the From address and the envelope sender must be in one of them)</span>
        </label>
        {scope === 'scoped' ? (
          <Controller
            control={form.control}
            name="domains"
            render={({ field }) => {
              const selected = field.value ?? [];
              return domains ? (
                <div
                  className="ml-6 max-h-48 space-y-1 overflow-y-auto rounded-md p-2 ring-1 ring-slate-200"
                  aria-label="Domains"
                >
                  {domains.length === 0 ? (
                    <p className="text-xs text-slate-600">This account has no domains yet.</p>
                  ) : null}
                  {domains.map((domain) => (
                    <Checkbox
                      key={domain}
                      label={domain}
                      checked={selected.includes(domain)}
                      onChange={(event) =>
                        field.onChange(
                          event.target.checked ? [...selected, domain] : selected.filter((name) => name !== domain),
                        )
                      }
                    />
                  ))}
                </div>
              ) : (
                <TextArea
                  aria-label="Domains, one per line"
                  rows={3}
                  onChange={(event) =>
                    field.onChange(
                      event.target.value
                        .split(/[\s,]+/)
                        .map((entry) => entry.trim())
                        .filter(Boolean),
                    )
                  }
                />
              );
            }}
          />
        ) : null}
        {errors.domains ? (
          <p className="text-xs font-medium text-red-600" role="alert" data-field-error="domains">
            {errors.domains.message ??
              (errors.domains as unknown as { root?: { message?: string } }).root?.message ??
              'Check the domains.'}
          </p>
        ) : null}
      </fieldset>
      <Checkbox
        label="Sandbox"
        description="Mail sent with this credential is accepted and recorded, never delivered."
        {...form.register('sandbox')}
      />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" isBusy={isSubmitting}>
          Create credential
        </Button>
      </div>
    </form>
  );
}
