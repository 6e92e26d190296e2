'use client';

import { useState } from 'react';
import {
  ConnectionSetting,
  CreateSmtpCredentialDialog,
  DeleteSmtpCredentialDialog,
  SmtpPasswordDialog,
} from '@/components/dialogs/smtp-credential-dialogs';
import { mayOpen } from '@/components/layout/sections';
import { SmtpCredentialTable } from '@/components/tables/smtp-credential-table';
import { Button } from '@/components/ui/button';
import { Alert, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { ApiError } from '@/lib/client/api';
import { useCurrentUser, useDomains } from '@/lib/client/queries';
import { useSmtpCredentials, useSmtpSettings } from '@/lib/client/smtp-credential-queries';
import type { SmtpCredentialObject } from '@/lib/client/types';

export function SmtpCredentialsView({ accountId }: { accountId: string }) {
  const me = useCurrentUser();
  const scopes = me.data?.accounts.find((account) => account.id === accountId)?.scopes ?? [];
  const can = {
    write: mayOpen(scopes, 'smtp-credentials:write'),
    delete: mayOpen(scopes, 'smtp-credentials:delete'),
    chooseGlobal: scopes.includes('*') || scopes.includes('smtp-credentials:write:all'),
    listDomains: mayOpen(scopes, 'domains:read'),
  };
  const credentials = useSmtpCredentials(accountId);
  const settings = useSmtpSettings(accountId);
  const domains = useDomains(accountId, { enabled: Boolean(me.data) && can.listDomains && can.write });
  const domainNames = can.listDomains ? (domains.data?.data.map((domain) => domain.domain) ?? []) : null;
  const [isCreating, setIsCreating] = useState(false);
  const [created, setCreated] = useState<{ credential: SmtpCredentialObject; password: string } | null>(null);
  const [deleting, setDeleting] = useState<SmtpCredentialObject | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const createButton = can.write ? <Button onClick={() => setIsCreating(true)}>Create SMTP credential</Button> : null;
  const list = credentials.data?.data ?? [];

  return (
    <>
      <PageHeader
        title="SMTP credentials"
        description="Applications that speak only SMTP sign in with one of these to send through Mailstead, with the same tracking, events and statistics as the API."
        actions={list.length > 0 ? createButton : null}
      />
      <div className="space-y-4">
        {notice ? <Alert tone="success">{notice}</Alert> : null}
        {settings.data ? (
          <section
            aria-label="Connection settings"
            className="space-y-2 rounded-lg bg-white p-4 text-sm ring-1 ring-slate-200"
          >
            <h2 className="font-medium text-slate-900">Connection settings</h2>
            {settings.data.port === null ? (
              <Alert tone="warning">SMTP submission is turned off on this server (SMTP_SUBMISSION_PORT=0).</Alert>
            ) : null}
            <ConnectionSetting label="Host" value={settings.data.host} testId="settings-host" />
            {settings.data.port !== null ? (
              <ConnectionSetting label="Port" value={String(settings.data.port)} testId="settings-port" />
            ) : null}
            <ConnectionSetting label="Security" value="STARTTLS (required)" testId="settings-security" />
            {settings.data.tls_port !== null ? (
              <ConnectionSetting
                label="Port (implicit TLS)"
                value={String(settings.data.tls_port)}
                testId="settings-tls-port"
              />
            ) : null}
            <p className="text-xs text-slate-600">
              Authentication: PLAIN or LOGIN with a credential&apos;s username and password. At most 50 recipients per
              message and 20 MB per message.
            </p>
          </section>
        ) : null}
        {credentials.isPending ? <LoadingState label="Loading SMTP credentials…" /> : null}
        {credentials.error ? (
          credentials.error instanceof ApiError && credentials.error.status === 403 ? (
            <Alert tone="warning" title="You cannot view SMTP credentials">
              {credentials.error.message}. Your role in this account does not include the{' '}
              <code>smtp-credentials:read</code> scope.
            </Alert>
          ) : (
            <Alert tone="error" title="SMTP credentials could not be loaded">
              {credentials.error.message}
            </Alert>
          )
        ) : null}
        {credentials.data && list.length === 0 ? (
          <EmptyState title="No SMTP credentials yet" action={createButton}>
            Create one for each application, limited to the domains it sends from.
          </EmptyState>
        ) : null}
        {list.length > 0 ? (
          <SmtpCredentialTable credentials={list} canDelete={can.delete} onDelete={setDeleting} />
        ) : null}
      </div>

      <CreateSmtpCredentialDialog
        accountId={accountId}
        isOpen={isCreating}
        domains={domainNames}
        canChooseGlobal={can.chooseGlobal}
        onClose={() => setIsCreating(false)}
        onCreated={(credential, password) => {
          setIsCreating(false);
          setCreated({ credential, password });
          setNotice(`SMTP credential “${credential.name}” created.`);
        }}
      />
      <SmtpPasswordDialog created={created} settings={settings.data} onClose={() => setCreated(null)} />
      <DeleteSmtpCredentialDialog
        accountId={accountId}
        credential={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(name) => setNotice(`SMTP credential “${name}” deleted.`)}
      />
    </>
  );
}
