'use client';

import { useRouter } from 'next/navigation';
import type { ReactNode } from 'react';
import { DeleteWebhookDialog, EditWebhookDialog, TestWebhookDialog } from '@/components/dialogs/webhook-dialogs';
import { summarizeWebhookEvents } from '@/components/tables/webhook-table';
import { useDomains } from '@/lib/client/queries';
import type { WebhookObject } from '@/lib/client/types';
import { useUpdateWebhook, useWebhook } from '@/lib/client/webhook-queries';
import { ReceiverDetailView } from './receiver-detail-view';
import { useWebhookPermissions } from './webhooks-view';

/** What a webhook adds to a receiver's page: the event types it receives and for which domains. */
function webhookFacts(webhook: WebhookObject): [string, ReactNode][] {
  return [
    ['Events', summarizeWebhookEvents(webhook)],
    ['Domains', webhook.scope === 'global' ? 'All domains of the account' : webhook.domains.join(', ')],
  ];
}

export function WebhookDetailView({ accountId, webhookId }: { accountId: string; webhookId: string }) {
  const router = useRouter();
  const webhook = useWebhook(accountId, webhookId);
  const can = useWebhookPermissions(accountId);
  const domains = useDomains(accountId, { enabled: can.isLoaded && can.canListDomains && can.canWrite });
  const toggle = useUpdateWebhook(accountId);
  return (
    <ReceiverDetailView
      accountId={accountId}
      kind="webhook"
      id={webhookId}
      query={webhook}
      facts={webhookFacts}
      canWrite={can.canWrite}
      canDelete={can.canDelete}
      toggle={{
        isPending: toggle.isPending,
        error: toggle.error,
        setEnabled: (enabled, onSuccess) => toggle.mutate({ id: webhookId, enabled }, { onSuccess }),
      }}
      dialogs={({ dialog, onClose, onSaved, onTestSent }) => (
        <>
          <EditWebhookDialog
            accountId={accountId}
            webhook={dialog === 'edit' ? (webhook.data ?? null) : null}
            domains={can.canListDomains ? (domains.data?.data.map((domain) => domain.domain) ?? []) : null}
            canChooseGlobal={can.canChooseGlobal}
            onClose={onClose}
            onSaved={onSaved}
          />
          <DeleteWebhookDialog
            accountId={accountId}
            webhook={dialog === 'delete' ? (webhook.data ?? null) : null}
            onClose={onClose}
            onDeleted={() => router.push(`/${accountId}/webhooks`)}
          />
          <TestWebhookDialog
            accountId={accountId}
            webhook={dialog === 'test' ? (webhook.data ?? null) : null}
            onClose={onClose}
            onSent={onTestSent}
          />
        </>
      )}
    />
  );
}
