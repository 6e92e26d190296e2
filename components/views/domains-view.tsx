'use client';

import { AddDomainForm } from '@/components/forms/add-domain-form';
import { mayOpen } from '@/components/layout/sections';
import { DomainTable } from '@/components/tables/domain-table';
import { Alert, EmptyState, PageHeader } from '@/components/ui/feedback';
import { useCurrentUser, useDomains } from '@/lib/client/queries';

export function DomainsView({ accountId }: { accountId: string }) {
  const domains = useDomains(accountId);
  const me = useCurrentUser();
  const scopes = me.data?.accounts.find((account) => account.id === accountId)?.scopes ?? [];
  const canWrite = mayOpen(scopes, 'domains:write');
  return (
    <>
      <PageHeader
        title="Domains"
        description="The domains you send from. Each needs SPF, DKIM and DMARC records before it can send."
      />
      <div className="space-y-6">
        {canWrite ? <AddDomainForm accountId={accountId} /> : null}
        <DomainTable
          accountId={accountId}
          domains={domains.data?.data}
          state={{
            isLoading: domains.isPending,
            loadingLabel: 'Loading domains…',
            error: domains.error ? (
              <Alert tone="error" title="Domains could not be loaded">
                {domains.error.message}
              </Alert>
            ) : null,
            empty: (
              <EmptyState title="No domains yet">
                Add the domain you send from above; Mailstead then shows the DNS records to publish.
              </EmptyState>
            ),
          }}
        />
      </div>
    </>
  );
}
