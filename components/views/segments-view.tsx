'use client';

import Link from 'next/link';
import { useAccountScopes } from '@/components/layout/use-account-scopes';
import { SegmentTable } from '@/components/tables/segment-table';
import { Alert, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { CursorPager, useCursorPages } from '@/components/ui/cursor-pager';
import { ApiError } from '@/lib/client/api';
import { useSegments } from '@/lib/client/segment-queries';

export const LINK_BUTTON =
  'inline-flex items-center rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700';

/** The account's segments, each with the contacts it matches now. */
export function SegmentsView({ accountId }: { accountId: string }) {
  const { can } = useAccountScopes(accountId);
  const pages = useCursorPages();
  const segments = useSegments(
    accountId,
    new URLSearchParams({ limit: '25', ...(pages.after ? { after: pages.after } : {}) }).toString(),
  );
  const rows = segments.data?.data ?? [];
  const createButton = can('contacts:write') ? (
    <Link href={`/${accountId}/segments/new`} className={LINK_BUTTON}>
      Create segment
    </Link>
  ) : null;

  return (
    <>
      <PageHeader
        title="Segments"
        description="Saved conditions over your contacts (attributes, list membership, campaign engagement), recounted in the background. Use them to narrow a campaign's lists or to leave people out."
        actions={createButton}
      />
      <div className="space-y-4">
        {segments.isPending ? <LoadingState label="Loading segments…" /> : null}
        {segments.error ? (
          <Alert
            tone={segments.error instanceof ApiError && segments.error.status === 403 ? 'warning' : 'error'}
            title="Segments could not be loaded"
          >
            {segments.error.message}
          </Alert>
        ) : null}
        {segments.data && rows.length === 0 ? (
          <EmptyState
            title={pages.hasPrevious ? 'No more segments' : 'No segments yet'}
            action={pages.hasPrevious ? null : createButton}
          >
            {pages.hasPrevious
              ? null
              : 'A segment picks contacts by conditions, such as "plan is gold" or "opened a campaign in the last 30 days". Its count is kept up to date as your contacts change.'}
          </EmptyState>
        ) : null}
        {rows.length > 0 ? <SegmentTable accountId={accountId} segments={rows} /> : null}
        <CursorPager pages={pages} pagination={segments.data?.pagination} />
      </div>
    </>
  );
}
