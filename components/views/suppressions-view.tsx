'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import {
  AddSuppressionDialog,
  RemoveSuppressionDialog,
  WipeSuppressionsDialog,
} from '@/components/dialogs/suppression-dialogs';
import {
  EMPTY_SUPPRESSION_FILTERS,
  SuppressionFilterForm,
  type SuppressionFilters,
} from '@/components/forms/suppression-filter-form';
import { mayOpen } from '@/components/layout/sections';
import { SuppressionTable } from '@/components/tables/suppression-table';
import { Button } from '@/components/ui/button';
import { Alert, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { ApiError } from '@/lib/client/api';
import { useCurrentUser, useDomains } from '@/lib/client/queries';
import { useSuppressions } from '@/lib/client/suppression-queries';
import type { SuppressionObject } from '@/lib/client/types';

const PAGE_SIZE = 50;

/** The account's suppression list: search and filters live in the URL; add, remove one, or wipe. */
export function SuppressionsView({ accountId }: { accountId: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const filters: SuppressionFilters = {
    ...EMPTY_SUPPRESSION_FILTERS,
    ...Object.fromEntries([...params.entries()].filter(([key]) => key in EMPTY_SUPPRESSION_FILTERS)),
  };
  const query = new URLSearchParams({
    limit: String(PAGE_SIZE),
    ...(filters.email ? { email: filters.email } : {}),
    ...(filters.domain ? { domain: filters.domain } : {}),
  });
  for (const cursor of ['after', 'before'] as const) if (params.get(cursor)) query.set(cursor, params.get(cursor)!);

  const me = useCurrentUser();
  const scopes = me.data?.accounts.find((account) => account.id === accountId)?.scopes ?? [];
  const isLoaded = Boolean(me.data);
  const can = (scope: string) => isLoaded && mayOpen(scopes, scope);
  const suppressions = useSuppressions(accountId, query.toString(), filters.kind);
  const domains = useDomains(accountId, { enabled: can('domains:read') });
  const domainNames = can('domains:read') ? (domains.data?.data.map((domain) => domain.domain) ?? []) : null;
  const [isAdding, setIsAdding] = useState(false);
  const [isWiping, setIsWiping] = useState(false);
  const [removing, setRemoving] = useState<SuppressionObject | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const go = (next: Record<string, string>) => {
    const search = new URLSearchParams(Object.entries(next).filter(([, value]) => value));
    router.push(`${pathname}${search.size ? `?${search}` : ''}`, { scroll: false });
  };
  const rows = suppressions.data?.data ?? [];
  const hasFilters = Boolean(filters.email || filters.domain || filters.kind);

  return (
    <>
      <PageHeader
        title="Suppressions"
        description="Addresses Mailstead does not send to: after a hard bounce or a complaint, or added here. Each counts until its date, for one sending domain or all of them."
        actions={
          <>
            {can('suppressions:write') ? <Button onClick={() => setIsAdding(true)}>Add suppression</Button> : null}
            {can('suppressions:wipe') ? (
              <Button variant="secondary" className="text-red-700" onClick={() => setIsWiping(true)}>
                {filters.domain ? `Remove all for ${filters.domain}…` : 'Remove all…'}
              </Button>
            ) : null}
          </>
        }
      />
      <div className="space-y-4">
        {notice ? (
          <div data-testid="suppressions-notice">
            <Alert tone="success">{notice}</Alert>
          </div>
        ) : null}
        <SuppressionFilterForm
          key={params.toString()}
          initial={filters}
          domains={domainNames}
          onApply={(applied) => go({ ...applied })}
        />
        {suppressions.isPending ? <LoadingState label="Loading suppressions…" /> : null}
        {suppressions.error ? (
          suppressions.error instanceof ApiError && suppressions.error.status === 403 ? (
            <Alert tone="warning" title="You cannot view suppressions">
              {suppressions.error.message}
            </Alert>
          ) : (
            <Alert tone="error" title="Suppressions could not be loaded">
              {suppressions.error.message}
            </Alert>
          )
        ) : null}
        {suppressions.data && rows.length === 0 ? (
          <EmptyState title={hasFilters ? 'No suppressions match' : 'No suppressions'}>
            {hasFilters
              ? 'Nothing on this list matches the search. Clear it to see every entry.'
              : 'Every address can receive mail from this account. Hard bounces add an address here by themselves, for 30 days.'}
          </EmptyState>
        ) : null}
        {rows.length > 0 ? (
          <SuppressionTable suppressions={rows} canDelete={can('suppressions:delete')} onDelete={setRemoving} />
        ) : null}
        {suppressions.data && (suppressions.data.pagination.has_more || params.get('after') || params.get('before')) ? (
          <div className="flex justify-end gap-2">
            {filters.kind ? (
              <Button variant="secondary" disabled={!params.get('after')} onClick={() => go({ ...filters })}>
                First page
              </Button>
            ) : (
              <Button
                variant="secondary"
                disabled={!suppressions.data.pagination.previous_cursor}
                onClick={() => go({ ...filters, before: suppressions.data.pagination.previous_cursor ?? '' })}
              >
                Newer
              </Button>
            )}
            <Button
              variant="secondary"
              disabled={!suppressions.data.pagination.has_more}
              onClick={() => go({ ...filters, after: suppressions.data.pagination.next_cursor ?? '' })}
            >
              Older
            </Button>
          </div>
        ) : null}
      </div>

      <AddSuppressionDialog
        accountId={accountId}
        isOpen={isAdding}
        domains={domainNames}
        onClose={() => setIsAdding(false)}
        onAdded={(email) => {
          setIsAdding(false);
          setNotice(`${email} is suppressed: mail to it is not sent.`);
        }}
      />
      <RemoveSuppressionDialog
        accountId={accountId}
        suppression={removing}
        onClose={() => setRemoving(null)}
        onRemoved={setNotice}
      />
      <WipeSuppressionsDialog
        accountId={accountId}
        isOpen={isWiping}
        domain={filters.domain}
        onClose={() => setIsWiping(false)}
        onWiped={setNotice}
      />
    </>
  );
}
