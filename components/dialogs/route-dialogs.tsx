'use client';

import { RouteForm, routeFormValues } from '@/components/forms/route-form';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { CopyButton } from '@/components/ui/copy-button';
import { Dialog } from '@/components/ui/dialog';
import { Alert } from '@/components/ui/feedback';
import { testOutcomeOf, type TestOutcome } from '@/components/ui/test-outcome-alert';
import {
  useCreateRoute,
  useDeleteRoute,
  useTriggerRoute,
  useUpdateRoute,
  type RouteInput,
} from '@/lib/client/route-queries';
import type { RouteObject } from '@/lib/client/types';

/** Describes a pattern for people: what mail the route takes. */
export function describeRecipient(recipient: string): string {
  if (recipient === '' || recipient === '*') return 'Every address at the account’s domains';
  if (!recipient.includes('@')) return `${recipient} at any of the account’s domains`;
  return recipient;
}

export function CreateRouteDialog({
  accountId,
  isOpen,
  domains,
  onClose,
  onCreated,
}: {
  accountId: string;
  isOpen: boolean;
  domains: string[] | null;
  onClose: () => void;
  onCreated: (route: RouteObject, secret: string) => void;
}) {
  const create = useCreateRoute(accountId);
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title="Create route">
      <RouteForm
        initial={routeFormValues(null)}
        domains={domains}
        submitLabel="Create route"
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
export function RouteSecretDialog({
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
      title={`Route “${name}” created`}
      footer={<Button onClick={onClose}>I have stored the secret</Button>}
    >
      <div className="space-y-4 text-sm">
        <Alert tone="warning" title="Copy the signing secret now">
          This is the only time Mailstead shows it. Your endpoint needs it to check the <code>webhook-signature</code>{' '}
          header of each request (Standard Webhooks, HMAC-SHA256 with the whole secret as the key).
        </Alert>
        <div className="flex items-center gap-2">
          <code
            className="block min-w-0 flex-1 break-all rounded-md bg-slate-900 px-3 py-2 font-mono text-xs text-green-200"
            data-testid="route-secret"
          >
            {secret}
          </code>
          <CopyButton value={secret ?? ''} what="route secret" />
        </div>
      </div>
    </Dialog>
  );
}

/** Only what changed is sent, so an edit never overwrites a concurrent change to another field. */
function changedFields(route: RouteObject, values: RouteInput): Partial<RouteInput> {
  const before = routeFormValues(route) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(values).filter(([name, value]) => value !== before[name]));
}

export function EditRouteDialog({
  accountId,
  route,
  domains,
  onClose,
  onSaved,
}: {
  accountId: string;
  route: RouteObject | null;
  domains: string[] | null;
  onClose: () => void;
  onSaved: (route: RouteObject) => void;
}) {
  const update = useUpdateRoute(accountId);
  return (
    <Dialog isOpen={route !== null} onClose={onClose} title={`Edit “${route?.name ?? ''}”`}>
      {route ? (
        <RouteForm
          key={route.id}
          initial={routeFormValues(route)}
          domains={domains}
          submitLabel="Save changes"
          onCancel={onClose}
          onSubmit={async (values) => {
            const changes = changedFields(route, values);
            if (Object.keys(changes).length === 0) return onClose();
            onSaved(await update.mutateAsync({ id: route.id, ...changes }));
            onClose();
          }}
        />
      ) : null}
    </Dialog>
  );
}

export function DeleteRouteDialog({
  accountId,
  route,
  onClose,
  onDeleted,
}: {
  accountId: string;
  route: RouteObject | null;
  onClose: () => void;
  onDeleted: (name: string) => void;
}) {
  const remove = useDeleteRoute(accountId);
  return (
    <ConfirmDialog
      isOpen={route !== null}
      title="Delete route"
      confirmLabel="Delete route"
      onConfirm={() => remove.mutateAsync(route!.id)}
      onDone={() => onDeleted(route!.name)}
      onClose={onClose}
    >
      <p>
        Delete <strong>{route?.name}</strong>? Mail for{' '}
        <span className="wrap-anywhere">{route ? describeRecipient(route.recipient) : ''}</span> is no longer sent to{' '}
        <span className="wrap-anywhere">{route?.url}</span> (nor retried), and its delivery log is gone. Mail no other
        route takes is refused. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}

/** A sample inbound message, signed and sent like real mail; it shows in the delivery log. */
export function TestRouteDialog({
  accountId,
  route,
  onClose,
  onSent,
}: {
  accountId: string;
  route: RouteObject | null;
  onClose: () => void;
  onSent: (outcome: TestOutcome) => void;
}) {
  const trigger = useTriggerRoute(accountId);
  return (
    <ConfirmDialog
      isOpen={route !== null}
      title={`Send a test to “${route?.name ?? ''}”`}
      confirmLabel="Send test message"
      variant="primary"
      onConfirm={() => trigger.mutateAsync(route!.id)}
      onDone={(result) => onSent(testOutcomeOf(route!.name, result.data))}
      onClose={onClose}
    >
      {route && !route.enabled ? (
        <Alert tone="warning">This route is disabled: the test is sent to it all the same.</Alert>
      ) : null}
      <p>
        A sample inbound message (<code>message.routing</code>, with this route&apos;s payload options), signed with its
        secret, sent to {route ? <span className="wrap-anywhere font-medium">{route.url}</span> : null} now.
      </p>
    </ConfirmDialog>
  );
}
