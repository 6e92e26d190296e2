'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { RotateDkimDialog } from '@/components/dialogs/rotate-dkim-dialog';
import { DomainSendingTypeForm } from '@/components/forms/domain-sending-type-form';
import { DomainSettingsForm } from '@/components/forms/domain-settings-form';
import { mayOpen } from '@/components/layout/sections';
import { DnsRecordTable } from '@/components/tables/dns-record-table';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Alert, LoadingState, PageHeader } from '@/components/ui/feedback';
import { DnsCheckResult, type DnsCheckOutcome } from '@/components/ui/dns-check-result';
import { DomainStatusBadge } from '@/components/ui/status-badge';
import { ApiError } from '@/lib/client/api';
import { useCheckDomainDns, useCurrentUser, useDeleteDomain, useDomain, useUnpauseDomain } from '@/lib/client/queries';
import type { DomainObject } from '@/lib/client/types';
import { toZoneFile } from '@/lib/client/zone-file';
import { DomainInboundPanel } from './domain-inbound-panel';
import { DomainReportsPanel } from './domain-reports-panel';
import { DomainProviderChecklistPanel } from './domain-provider-checklist-panel';
import { DomainWarmupPanel } from './domain-warmup-panel';

function downloadZoneFile(domain: DomainObject) {
  const blob = new Blob([toZoneFile(domain.domain, domain.dns_records)], { type: 'text/plain' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `${domain.domain}.zone`;
  link.click();
  URL.revokeObjectURL(url);
}

export function DomainDetailView({ accountId, name }: { accountId: string; name: string }) {
  const router = useRouter();
  const domain = useDomain(accountId, name);
  const check = useCheckDomainDns(accountId, name);
  const remove = useDeleteDomain(accountId);
  const unpause = useUnpauseDomain(accountId, name);
  const me = useCurrentUser();
  const scopes = me.data?.accounts.find((account) => account.id === accountId)?.scopes ?? [];
  const canWrite = mayOpen(scopes, 'domains:write');
  const [isDeleting, setIsDeleting] = useState(false);
  const [isRotating, setIsRotating] = useState(false);
  const [checkOutcome, setCheckOutcome] = useState<DnsCheckOutcome | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  if (domain.isPending) return <LoadingState label="Loading domain…" />;
  if (domain.error) {
    return (
      <Alert
        tone={domain.error instanceof ApiError && domain.error.status === 404 ? 'warning' : 'error'}
        title="This domain could not be shown"
      >
        {domain.error.message}
      </Alert>
    );
  }
  const data = domain.data;
  const lastCheck = data.last_dns_check_at ? new Date(data.last_dns_check_at).toLocaleString() : 'never';
  const checkNow = () => {
    // Unchanged check time after asking: the server answered from a check made seconds ago.
    const before = data.last_dns_check_at;
    setNotice(null);
    check.mutate(undefined, {
      onSuccess: (checked) =>
        setCheckOutcome({
          checkedAt: checked.last_dns_check_at,
          isNew: checked.last_dns_check_at !== before,
          isValid: checked.dns_valid,
        }),
    });
  };

  return (
    <>
      <PageHeader
        title={data.domain}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <DomainStatusBadge status={data.status} />
            <span data-testid="last-dns-check">Last DNS check: {lastCheck}</span>
          </span>
        }
        actions={
          <>
            <Button variant="secondary" onClick={() => downloadZoneFile(data)}>
              Download zone file
            </Button>
            {canWrite ? (
              <Button onClick={checkNow} isBusy={check.isPending}>
                Check DNS now
              </Button>
            ) : null}
          </>
        }
      />
      <div className="space-y-8">
        {check.error ? <Alert tone="error">{check.error.message}</Alert> : null}
        {checkOutcome && !check.isPending ? <DnsCheckResult outcome={checkOutcome} /> : null}
        {notice ? <Alert tone="success">{notice}</Alert> : null}
        {data.paused ? (
          <Alert tone="warning" title="Sending is paused">
            <p>
              Paused {data.paused_at ? `since ${new Date(data.paused_at).toLocaleString()}` : ''} because{' '}
              {data.pause_reason === 'bounce_rate' ? 'too many recent emails bounced' : data.pause_reason}. New mail
              from this domain is refused; your other domains keep sending. Clean the list you send to, then unpause:
              the bounce rate is counted afresh from then.
            </p>
            {canWrite ? (
              <Button className="mt-3" onClick={() => unpause.mutate()} isBusy={unpause.isPending}>
                Unpause {data.domain}
              </Button>
            ) : null}
          </Alert>
        ) : null}
        <section aria-labelledby="records-heading" className="space-y-3">
          <h2 id="records-heading" className="text-base font-semibold">
            DNS records
          </h2>
          <p className="text-sm text-slate-600">
            Publish these at your DNS provider. SPF, DKIM and DMARC are required to send; if you already have an SPF
            record, merge the mechanism into it.
          </p>
          <DnsRecordTable records={data.dns_records} />
        </section>
        <div className="grid gap-6 lg:grid-cols-2">
          <section
            aria-labelledby="checklist-heading"
            className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5"
          >
            <h2 id="checklist-heading" className="mb-3 text-base font-semibold">
              Mailbox provider requirements
            </h2>
            <DomainProviderChecklistPanel accountId={accountId} domain={data} />
          </section>
          <section
            aria-labelledby="dkim-heading"
            className="space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5"
          >
            <h2 id="dkim-heading" className="text-base font-semibold">
              DKIM rotation
            </h2>
            <p className="text-sm text-slate-600">
              Publish the standby DKIM record, check DNS, then rotate: the standby key starts signing and a new standby
              is prepared.
            </p>
            {canWrite ? (
              <Button variant="secondary" disabled={!data.rotation_ready} onClick={() => setIsRotating(true)}>
                Rotate DKIM now
              </Button>
            ) : null}
            {!data.rotation_ready ? (
              <p className="text-xs text-slate-600">Available once the standby record is verified.</p>
            ) : null}
          </section>
        </div>
        <DomainWarmupPanel accountId={accountId} domain={data} canWrite={canWrite} />
        <DomainReportsPanel accountId={accountId} domain={data} canWrite={canWrite} />
        <DomainInboundPanel accountId={accountId} domain={data} scopes={scopes} />
        <section
          aria-labelledby="sending-type-heading"
          className="space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5"
        >
          <h2 id="sending-type-heading" className="text-base font-semibold">
            Sending type
          </h2>
          <DomainSendingTypeForm accountId={accountId} domain={data} canEdit={canWrite} />
        </section>
        <section
          aria-labelledby="settings-heading"
          className="space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5"
        >
          <h2 id="settings-heading" className="text-base font-semibold">
            Settings
          </h2>
          <DomainSettingsForm accountId={accountId} domain={data} canEdit={canWrite} />
        </section>
        {mayOpen(scopes, 'domains:delete') ? (
          <section className="rounded-lg border border-red-200 bg-white p-5">
            <h2 className="text-base font-semibold text-red-800">Delete domain</h2>
            <p className="mt-1 text-sm text-slate-600">
              The domain stops sending and leaves this account. Its message history stays.
            </p>
            <Button variant="danger" className="mt-3" onClick={() => setIsDeleting(true)} disabled={data.paused}>
              Delete {data.domain}
            </Button>
          </section>
        ) : null}
      </div>
      <RotateDkimDialog
        accountId={accountId}
        domain={data}
        isOpen={isRotating}
        onClose={() => setIsRotating(false)}
        onRotated={(text) => {
          setCheckOutcome(null);
          setNotice(text);
        }}
      />
      <ConfirmDialog
        isOpen={isDeleting}
        title="Delete domain"
        confirmLabel="Delete domain"
        onConfirm={() => remove.mutateAsync(data.domain)}
        onDone={() => router.push(`/${accountId}/domains`)}
        onClose={() => setIsDeleting(false)}
      >
        <p>
          Delete <strong>{data.domain}</strong>? API key scopes that name it are removed too.
        </p>
      </ConfirmDialog>
    </>
  );
}
