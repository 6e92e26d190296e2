'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Checkbox, Field, TextArea, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { fieldErrorMessage, fieldOfError } from '@/lib/client/api';
import type { WebhookObject } from '@/lib/client/types';
import { WEBHOOK_EVENTS, type WebhookFlag } from '@/lib/client/webhook-events';
import type { WebhookInput } from '@/lib/client/webhook-queries';
import { createWebhookSchema } from '@/lib/core/webhooks/schemas';

type Values = z.input<typeof createWebhookSchema>;
const FIELDS = ['name', 'url', 'scope', 'domains', 'enabled', ...WEBHOOK_EVENTS.map((event) => event.flag)] as const;

export const webhookFormValues = (webhook: WebhookObject | null): Values => ({
  name: webhook?.name ?? '',
  url: webhook?.url ?? '',
  enabled: webhook?.enabled ?? true,
  scope: webhook?.scope ?? 'global',
  domains: webhook?.domains ?? [],
  ...(Object.fromEntries(
    WEBHOOK_EVENTS.map((event) => [
      event.flag,
      webhook
        ? webhook[event.flag]
        : event.flag === 'on_delivered' || event.flag === 'on_bounced' || event.flag === 'on_failed',
    ]),
  ) as Record<WebhookFlag, boolean>),
});

/**
 * Create and edit share one form, validated by the API's own schema: name, URL, the events to send,
 * and which sending domains' events (all, or some). Server errors land on their field.
 */
export function WebhookForm({
  initial,
  domains,
  canChooseGlobal,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial: Values;
  /** The account's domains to choose from; null when this role cannot list them (type them instead). */
  domains: string[] | null;
  canChooseGlobal: boolean;
  submitLabel: string;
  onSubmit: (values: WebhookInput) => Promise<void>;
  onCancel: () => void;
}) {
  const form = useForm<Values>({ resolver: zodResolver(createWebhookSchema), defaultValues: initial });
  const { errors, isSubmitting } = form.formState;
  const scope = form.watch('scope');
  const flags = WEBHOOK_EVENTS.map((event) => event.flag);
  const checked = form.watch(flags);
  const isEveryEvent = checked.every(Boolean);

  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit({ ...values, domains: values.scope === 'scoped' ? (values.domains ?? []) : [] } as WebhookInput);
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
        htmlFor="webhook-name"
        hint="What receives the events, e.g. “order service (production)”."
        error={errors.name?.message}
      >
        <TextInput id="webhook-name" isInvalid={Boolean(errors.name)} {...form.register('name')} />
      </Field>
      <Field
        label="URL"
        htmlFor="webhook-url"
        hint="Mailstead POSTs each event here as JSON, signed with the webhook's secret. Must be https:// on a public host (http:// and private addresses need ALLOW_PRIVATE_NETWORKS=true on the server)."
        error={errors.url?.message}
      >
        <TextInput
          id="webhook-url"
          type="url"
          inputMode="url"
          placeholder="https://example.com/hooks/mailstead"
          isInvalid={Boolean(errors.url)}
          {...form.register('url')}
        />
      </Field>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Events</legend>
        <Checkbox
          label="Every event"
          checked={isEveryEvent}
          onChange={(event) =>
            flags.forEach((flag) => form.setValue(flag, event.target.checked, { shouldDirty: true }))
          }
        />
        <div className="grid gap-2 border-t border-slate-100 pt-2 sm:grid-cols-2">
          {WEBHOOK_EVENTS.map((event) => (
            <Checkbox key={event.flag} label={event.label} description={event.type} {...form.register(event.flag)} />
          ))}
        </div>
      </fieldset>
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
              <span className="block text-xs text-slate-500">Needs the webhooks:write:all scope.</span>
            ) : null}
          </span>
        </label>
        <label className="flex items-start gap-2 text-sm">
          <input type="radio" value="scoped" className="mt-0.5" {...form.register('scope')} />
          <span>Only some domains</span>
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
                  {[...new Set([...domains, ...selected])].map((domain) => (
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
                  defaultValue={selected.join('\n')}
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
        {errors.scope ? (
          <p className="text-xs font-medium text-red-600" role="alert" data-field-error="scope">
            {errors.scope.message}
          </p>
        ) : null}
      </fieldset>
      <Checkbox
        label="Enabled"
        description="A disabled webhook keeps its settings and receives nothing."
        {...form.register('enabled')}
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
