'use client';

import { useState } from 'react';
import { WebhookForm, webhookFormValues } from '@/components/forms/webhook-form';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { CopyButton } from '@/components/ui/copy-button';
import { Dialog } from '@/components/ui/dialog';
import { Alert } from '@/components/ui/feedback';
import { Checkbox } from '@/components/ui/field';
import { testOutcomeOf, type TestOutcome } from '@/components/ui/test-outcome-alert';
import type { WebhookObject } from '@/lib/client/types';
import { WEBHOOK_EVENTS } from '@/lib/client/webhook-events';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useTriggerWebhook,
  useUpdateWebhook,
  type WebhookEventType,
  type WebhookInput,
} from '@/lib/client/webhook-queries';

type FormContext = { domains: string[] | null; canChooseGlobal: boolean };

export function CreateWebhookDialog({
  accountId,
  isOpen,
  onClose,
  onCreated,
  ...context
}: FormContext & {
  accountId: string;
  isOpen: boolean;
  onClose: () => void;
  onCreated: (webhook: WebhookObject, secret: string) => void;
}) {
  const create = useCreateWebhook(accountId);
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title="Create webhook">
      <WebhookForm
        initial={webhookFormValues(null)}
        {...context}
        submitLabel="Create webhook"
        onCancel={onClose}
        onSubmit={async (values) => {
          const { secret, ...created } = await create.mutateAsync(values);
          onCreated(created, secret);
        }}
      />
    </Dialog>
  );
}

/** The signing secret exists in the browser only while this dialog is open: it is never shown again. */
export function WebhookSecretDialog({
  secret,
  name,
  onClose,
}: {
  secret: string | null;
  name: string;
  onClose: () => void;
}) {
  return (
    <Dialog
      isOpen={secret !== null}
      onClose={onClose}
      title={`Webhook “${name}” created`}
      footer={<Button onClick={onClose}>I have stored the secret</Button>}
    >
      <div className="space-y-4 text-sm">
        <Alert tone="warning" title="Copy the signing secret now">
          This is the only time Mailstead shows it. Your endpoint needs it to check the <code>webhook-signature</code>{' '}
          header of each request (Standard Webhooks, HMAC-SHA256 with the whole secret as the key).
        </Alert>
        <div className="flex items-center gap-2">
          <code
            className="block flex-1 break-all rounded-md bg-slate-900 px-3 py-2 font-mono text-xs text-green-200"
            data-testid="webhook-secret"
          >
            {secret}
          </code>
          <CopyButton value={secret ?? ''} what="webhook secret" />
        </div>
      </div>
    </Dialog>
  );
}

/** Only what changed is sent, so an edit never overwrites a concurrent change to another field. */
function changedFields(webhook: WebhookObject, values: WebhookInput): WebhookInput {
  const before = webhookFormValues(webhook) as Record<string, unknown>;
  const sameList = (a: unknown, b: unknown) =>
    Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item) => b.includes(item));
  const changes = Object.fromEntries(
    Object.entries(values).filter(([name, value]) =>
      Array.isArray(value) ? !sameList(value, before[name]) : value !== before[name],
    ),
  );
  // Moving to "some domains" must name them in the same request.
  if (values.scope === 'scoped' && (changes.scope !== undefined || changes.domains !== undefined))
    changes.domains = values.domains ?? [];
  if (values.scope === 'global') delete changes.domains;
  return changes as WebhookInput;
}

export function EditWebhookDialog({
  accountId,
  webhook,
  onClose,
  onSaved,
  ...context
}: FormContext & {
  accountId: string;
  webhook: WebhookObject | null;
  onClose: () => void;
  onSaved: (webhook: WebhookObject) => void;
}) {
  const update = useUpdateWebhook(accountId);
  return (
    <Dialog isOpen={webhook !== null} onClose={onClose} title={`Edit “${webhook?.name ?? ''}”`}>
      {webhook ? (
        <WebhookForm
          key={webhook.id}
          initial={webhookFormValues(webhook)}
          {...context}
          submitLabel="Save changes"
          onCancel={onClose}
          onSubmit={async (values) => {
            const changes = changedFields(webhook, values);
            if (Object.keys(changes).length === 0) return onClose();
            onSaved(await update.mutateAsync({ id: webhook.id, ...changes }));
            onClose();
          }}
        />
      ) : null}
    </Dialog>
  );
}

export function DeleteWebhookDialog({
  accountId,
  webhook,
  onClose,
  onDeleted,
}: {
  accountId: string;
  webhook: WebhookObject | null;
  onClose: () => void;
  onDeleted: (name: string) => void;
}) {
  const remove = useDeleteWebhook(accountId);
  return (
    <ConfirmDialog
      isOpen={webhook !== null}
      title="Delete webhook"
      confirmLabel="Delete webhook"
      onConfirm={() => remove.mutateAsync(webhook!.id)}
      onDone={() => onDeleted(webhook!.name)}
      onClose={onClose}
    >
      <p>
        Delete <strong>{webhook?.name}</strong>? <span className="wrap-anywhere">{webhook?.url}</span> receives no more
        events, including retries of events not yet delivered, and its delivery log is gone. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}

/** Sample events of the chosen types, signed and sent like real ones; they show in the delivery log. */
export function TestWebhookDialog({
  accountId,
  webhook,
  onClose,
  onSent,
}: {
  accountId: string;
  webhook: WebhookObject | null;
  onClose: () => void;
  onSent: (outcome: TestOutcome) => void;
}) {
  const trigger = useTriggerWebhook(accountId);
  const subscribed = webhook ? WEBHOOK_EVENTS.filter((event) => webhook[event.flag]).map((event) => event.type) : [];
  const [chosen, setChosen] = useState<WebhookEventType[] | null>(null);
  const selected: WebhookEventType[] = chosen ?? (subscribed.length ? subscribed : ['message.delivered']);
  const close = () => {
    setChosen(null);
    onClose();
  };
  return (
    <ConfirmDialog
      isOpen={webhook !== null}
      title={`Send a test event to “${webhook?.name ?? ''}”`}
      confirmLabel={`Send test event${selected.length === 1 ? '' : 's'}`}
      variant="primary"
      isConfirmDisabled={selected.length === 0}
      onConfirm={() => trigger.mutateAsync({ id: webhook!.id, events: selected })}
      onDone={(result) => onSent(testOutcomeOf(webhook!.name, result.data))}
      onClose={close}
    >
      {webhook && !webhook.enabled ? (
        <Alert tone="warning">This webhook is disabled: test events are sent to it all the same.</Alert>
      ) : null}
      <p>
        Sample data, signed with this webhook&apos;s secret, sent to{' '}
        {webhook ? <span className="wrap-anywhere font-medium">{webhook.url}</span> : null} now.
      </p>
      <fieldset className="grid gap-2 sm:grid-cols-2">
        <legend className="sr-only">Event types</legend>
        {WEBHOOK_EVENTS.map((event) => (
          <Checkbox
            key={event.type}
            label={event.type}
            description={event.label}
            checked={selected.includes(event.type)}
            onChange={(change) =>
              setChosen(
                change.target.checked ? [...selected, event.type] : selected.filter((type) => type !== event.type),
              )
            }
          />
        ))}
      </fieldset>
    </ConfirmDialog>
  );
}
