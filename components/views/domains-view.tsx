'use client';

import { AddDomainForm } from '@/components/forms/add-domain-form';
import { mayOpen } from '@/components/layout/sections';
import { DomainTable } from '@/components/tables/domain-table';
import { Alert, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { useCurrentUser, useDomains } from '@/lib/client/queries';

export function DomainsView({ accountId }: { accountId: string }) {
  const domains = useDomains(accountId);
  const me = useCurrentUser();
  const scopes = me.data?.accounts.find((account) => account.id === accountId)?.scopes ?? [];
  const canWrite = mayOpen(scopes, 'domains:write');
  return (
    <>
      <PageHeader title="Domains" description="The domains you send from. Each needs SPF, DKIM and DMARC records before it can send." />
      <div className="space-y-6">
        {canWrite ? <AddDomainForm accountId={accountId} /> : null}
        {domains.isPending ? <LoadingState label="Loading domains…" /> : null}
        {domains.error ? <Alert tone="error" title="Domains could not be loaded">{domains.error.message}</Alert> : null}
        {domains.data && domains.data.data.length === 0 ? (
          <EmptyState title="No domains yet">Add the domain you send from above; Mailstead then shows the DNS records to publish.</EmptyState>
        ) : null}
        {domains.data && domains.data.data.length > 0 ? <DomainTable accountId={accountId} domains={domains.data.data} /> : null}
      </div>
    </>
  );
}
