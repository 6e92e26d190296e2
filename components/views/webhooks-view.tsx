'use client';

import Link from 'next/link';
import { useState } from 'react';
import {
  CreateWebhookDialog,
  DeleteWebhookDialog,
  EditWebhookDialog,
  TestWebhookDialog,
  WebhookSecretDialog,
} from '@/components/dialogs/webhook-dialogs';
import { mayOpen } from '@/components/layout/sections';
import { WebhookTable } from '@/components/tables/webhook-table';
import { Button } from '@/components/ui/button';
import { Alert, EmptyState, PageHeader } from '@/components/ui/feedback';
import { TestOutcomeAlert, type TestOutcome } from '@/components/ui/test-outcome-alert';
import { ApiError } from '@/lib/client/api';
import { useCurrentUser, useDomains } from '@/lib/client/queries';
import type { WebhookObject } from '@/lib/client/types';
import { useWebhooks } from '@/lib/client/webhook-queries';

/** What the role may do with webhooks: read, write (create, edit, test, send again), delete, and global ones. */
export function useWebhookPermissions(accountId: string) {
  const me = useCurrentUser();
  const scopes = me.data?.accounts.find((account) => account.id === accountId)?.scopes ?? [];
  const canListDomains = mayOpen(scopes, 'domains:read');
  return {
    canWrite: mayOpen(scopes, 'webhooks:write'),
    canDelete: mayOpen(scopes, 'webhooks:delete'),
    canChooseGlobal: scopes.includes('*') || scopes.includes('webhooks:write:all'),
    canListDomains,
    isLoaded: Boolean(me.data),
  };
}

export function WebhooksView({ accountId }: { accountId: string }) {
  const webhooks = useWebhooks(accountId);
  const can = useWebhookPermissions(accountId);
  const domains = useDomains(accountId, { enabled: can.isLoaded && can.canListDomains && can.canWrite });
  const domainNames = can.canListDomains ? (domains.data?.data.map((domain) => domain.domain) ?? []) : null;
  const [isCreating, setIsCreating] = useState(false);
  const [created, setCreated] = useState<{ webhook: WebhookObject; secret: string } | null>(null);
  const [editing, setEditing] = useState<WebhookObject | null>(null);
  const [deleting, setDeleting] = useState<WebhookObject | null>(null);
  const [testing, setTesting] = useState<WebhookObject | null>(null);
  const [notice, setNotice] = useState<{ text: string; webhookId?: string } | null>(null);
  const [testOutcome, setTestOutcome] = useState<{ outcome: TestOutcome; webhookId: string } | null>(null);

  const announce = (next: { text: string; webhookId?: string }) => {
    setTestOutcome(null);
    setNotice(next);
  };

  const createButton = can.canWrite ? <Button onClick={() => setIsCreating(true)}>Create webhook</Button> : null;
  const list = webhooks.data?.data ?? [];
  const autoDisabled = list.filter((webhook) => !webhook.enabled && webhook.disabled_reason);

  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Mailstead POSTs events (delivered, bounced, opened…) to your endpoints as they happen, signed with each webhook's secret, and retries failures."
        actions={list.length > 0 ? createButton : null}
      />
      <div className="space-y-4">
        {testOutcome ? (
          <TestOutcomeAlert outcome={testOutcome.outcome}>
            <Link
              href={`/${accountId}/webhooks/${testOutcome.webhookId}`}
              className="mt-1 inline-block font-medium underline"
            >
              Open the delivery log
            </Link>
          </TestOutcomeAlert>
        ) : null}
        {notice ? (
          <div data-testid="webhooks-notice">
            <Alert tone="success">
              {notice.text}{' '}
              {notice.webhookId ? (
                <Link href={`/${accountId}/webhooks/${notice.webhookId}`} className="font-medium underline">
                  Open the delivery log
                </Link>
              ) : null}
            </Alert>
          </div>
        ) : null}
        {autoDisabled.length > 0 ? (
          <Alert
            tone="warning"
            title={`${autoDisabled.length === 1 ? 'A webhook was' : `${autoDisabled.length} webhooks were`} turned off after failing again and again`}
          >
            Mailstead stops sending to an endpoint that keeps failing. Fix the endpoint, then enable the webhook again
            on its page.
          </Alert>
        ) : null}
        <WebhookTable
          accountId={accountId}
          webhooks={webhooks.data?.data}
          state={{
            isLoading: webhooks.isPending,
            loadingLabel: 'Loading webhooks…',
            error: webhooks.error ? (
              webhooks.error instanceof ApiError && webhooks.error.status === 403 ? (
                <Alert tone="warning" title="You cannot view webhooks">
                  {webhooks.error.message}. Your role in this account does not include the <code>webhooks:read</code>{' '}
                  scope.
                </Alert>
              ) : (
                <Alert tone="error" title="Webhooks could not be loaded">
                  {webhooks.error.message}
                </Alert>
              )
            ) : null,
            empty: (
              <EmptyState title="No webhooks yet" action={createButton}>
                Add an endpoint to hear about deliveries, bounces, opens and clicks as they happen, instead of asking
                the API.
              </EmptyState>
            ),
          }}
          canEdit={can.canWrite}
          canDelete={can.canDelete}
          onTest={setTesting}
          onEdit={setEditing}
          onDelete={setDeleting}
        />
      </div>

      <CreateWebhookDialog
        accountId={accountId}
        isOpen={isCreating}
        domains={domainNames}
        canChooseGlobal={can.canChooseGlobal}
        onClose={() => setIsCreating(false)}
        onCreated={(webhook, secret) => {
          setIsCreating(false);
          setCreated({ webhook, secret });
          announce({ text: `Webhook “${webhook.name}” created.`, webhookId: webhook.id });
        }}
      />
      <WebhookSecretDialog
        secret={created?.secret ?? null}
        name={created?.webhook.name ?? ''}
        onClose={() => setCreated(null)}
      />
      <EditWebhookDialog
        accountId={accountId}
        webhook={editing}
        domains={domainNames}
        canChooseGlobal={can.canChooseGlobal}
        onClose={() => setEditing(null)}
        onSaved={(webhook) => announce({ text: `Webhook “${webhook.name}” saved.` })}
      />
      <DeleteWebhookDialog
        accountId={accountId}
        webhook={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(name) => announce({ text: `Webhook “${name}” deleted.` })}
      />
      <TestWebhookDialog
        accountId={accountId}
        webhook={testing}
        onClose={() => setTesting(null)}
        onSent={(outcome) => {
          setNotice(null);
          setTestOutcome(testing ? { outcome, webhookId: testing.id } : null);
        }}
      />
    </>
  );
}
