'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Checkbox, Field, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { fieldErrorMessage, fieldOfError } from '@/lib/client/api';
import type { RouteInput } from '@/lib/client/route-queries';
import type { RouteObject } from '@/lib/client/types';
import { createRouteSchema } from '@/lib/core/routes/schemas';

type Values = RouteInput;
const FIELDS = [
  'name',
  'url',
  'recipient',
  'attachments',
  'headers',
  'group_by_message_id',
  'strip_replies',
  'enabled',
] as const;

/** What the payload carries and how often it is sent, beside the flag that decides it. */
const OPTIONS = [
  {
    flag: 'attachments',
    label: 'Attachments',
    description: 'Include attachments (base64) in the payload; otherwise attachments is [].',
  },
  { flag: 'headers', label: 'Headers', description: 'Include every header of the message as a map.' },
  {
    flag: 'group_by_message_id',
    label: 'One request per message',
    description: 'A message to several matching addresses is POSTed once, instead of once per address.',
  },
  {
    flag: 'strip_replies',
    label: 'Strip quoted replies',
    description: 'Fill reply_from_plain_body with the reply alone, without the quoted history.',
  },
] as const;

export const routeFormValues = (route: RouteObject | null): Values => ({
  name: route?.name ?? '',
  url: route?.url ?? '',
  recipient: route?.recipient ?? '',
  attachments: route?.attachments ?? false,
  headers: route?.headers ?? false,
  group_by_message_id: route?.group_by_message_id ?? false,
  strip_replies: route?.strip_replies ?? false,
  enabled: route?.enabled ?? true,
});

/**
 * Create and edit share one form, validated by the API's own schema: name, URL, which recipients
 * (a pattern at one of the account's domains), and what the payload carries. Server errors land on
 * their field.
 */
export function RouteForm({
  initial,
  domains,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial: Values;
  /** The account's domains, to suggest patterns; null when this role cannot list them. */
  domains: string[] | null;
  submitLabel: string;
  onSubmit: (values: Values) => Promise<void>;
  onCancel: () => void;
}) {
  const form = useForm<Values>({ resolver: zodResolver(createRouteSchema), defaultValues: initial });
  const { errors, isSubmitting } = form.formState;
  const example = domains?.[0] ?? 'example.com';

  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
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
        htmlFor="route-name"
        hint="What receives the mail, e.g. “support inbox (helpdesk)”."
        error={errors.name?.message}
      >
        <TextInput id="route-name" isInvalid={Boolean(errors.name)} {...form.register('name')} />
      </Field>
      <Field
        label="Recipient"
        htmlFor="route-recipient"
        hint={
          <>
            <code>support@{example}</code>, <code>*@{example}</code> or <code>ticket-*@{example}</code> (<code>*</code>{' '}
            matches anything in the part before @). Empty: every address at the account&apos;s domains.
          </>
        }
        error={errors.recipient?.message}
      >
        <TextInput
          id="route-recipient"
          list={domains?.length ? 'route-recipient-domains' : undefined}
          placeholder={`support@${example}`}
          autoComplete="off"
          isInvalid={Boolean(errors.recipient)}
          {...form.register('recipient')}
        />
      </Field>
      {domains?.length ? (
        <datalist id="route-recipient-domains">
          {domains.map((domain) => (
            <option key={domain} value={`*@${domain}`} />
          ))}
        </datalist>
      ) : null}
      <Field
        label="URL"
        htmlFor="route-url"
        hint="Mailstead POSTs each message here as JSON (message.routing), signed with the route's secret. Must be https:// on a public host (http:// and private addresses need ALLOW_PRIVATE_NETWORKS=true on the server)."
        error={errors.url?.message}
      >
        <TextInput
          id="route-url"
          type="url"
          inputMode="url"
          placeholder="https://example.com/hooks/inbound"
          isInvalid={Boolean(errors.url)}
          {...form.register('url')}
        />
      </Field>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Payload</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {OPTIONS.map((option) => (
            <Checkbox
              key={option.flag}
              label={option.label}
              description={option.description}
              {...form.register(option.flag)}
            />
          ))}
        </div>
      </fieldset>
      <Checkbox
        label="Enabled"
        description="A disabled route keeps its settings and receives nothing: mail that only it would take is refused."
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
