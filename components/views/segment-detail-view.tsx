'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useAccountScopes } from '@/components/layout/use-account-scopes';
import { ContactTable } from '@/components/tables/contact-table';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { CursorPager, useCursorPages } from '@/components/ui/cursor-pager';
import { Alert, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { StatCard } from '@/components/ui/stat-card';
import { ApiError } from '@/lib/client/api';
import { formatCount } from '@/lib/client/format';
import { useDeleteSegment, useSegment, useSegmentContacts } from '@/lib/client/segment-queries';
import { LINK_BUTTON } from './segments-view';

const PAGE_SIZE = 50;

/** A segment: how many match now, who they are (paginated), and edit and delete. */
export function SegmentDetailView({ accountId, segmentId }: { accountId: string; segmentId: string }) {
  const router = useRouter();
  const { can } = useAccountScopes(accountId);
  const segment = useSegment(accountId, segmentId);
  const pages = useCursorPages();
  const contacts = useSegmentContacts(
    accountId,
    segmentId,
    new URLSearchParams({ limit: String(PAGE_SIZE), ...(pages.after ? { after: pages.after } : {}) }).toString(),
  );
  const remove = useDeleteSegment(accountId);
  const [isDeleting, setIsDeleting] = useState(false);

  if (segment.isPending) return <LoadingState label="Loading segment…" />;
  if (segment.error) {
    const code = segment.error instanceof ApiError ? segment.error.status : 0;
    return (
      <Alert
        tone={code === 403 || code === 404 ? 'warning' : 'error'}
        title={code === 404 ? 'No such segment' : 'This segment could not be shown'}
      >
        {segment.error.message}{' '}
        <Link href={`/${accountId}/segments`} className="font-medium underline">
          All segments
        </Link>
      </Alert>
    );
  }
  const data = segment.data;
  const rows = contacts.data?.data ?? [];
  return (
    <>
      <PageHeader
        title={data.name}
        description={
          <Link href={`/${accountId}/segments`} className="text-brand-700 hover:underline">
            All segments
          </Link>
        }
        actions={
          <>
            {can('contacts:write') ? (
              <Link href={`/${accountId}/segments/${segmentId}/edit`} className={LINK_BUTTON}>
                Edit conditions
              </Link>
            ) : null}
            {can('contacts:delete') ? (
              <Button variant="secondary" className="text-red-700" onClick={() => setIsDeleting(true)}>
                Delete…
              </Button>
            ) : null}
          </>
        }
      />
      <div className="space-y-6">
        <section aria-label="Segment size" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          <StatCard name="count" label="Contacts matching now" value={formatCount(data.count ?? 0)} tone="blue" />
        </section>
        <section aria-labelledby="contacts-heading" className="space-y-3">
          <h2 id="contacts-heading" className="text-base font-semibold">
            Contacts
          </h2>
          {contacts.isPending ? <LoadingState label="Loading contacts…" /> : null}
          {contacts.error ? (
            <Alert tone="error" title="Contacts could not be loaded">
              {contacts.error.message}
            </Alert>
          ) : null}
          {contacts.data && rows.length === 0 ? (
            <EmptyState title={pages.hasPrevious ? 'No more contacts' : 'No contact matches yet'}>
              {pages.hasPrevious ? null : 'Contacts appear here as soon as they meet the conditions.'}
            </EmptyState>
          ) : null}
          {rows.length > 0 ? (
            <ContactTable accountId={accountId} contacts={rows} selected={null} onSelect={() => {}} />
          ) : null}
          <CursorPager pages={pages} pagination={contacts.data?.pagination} />
        </section>
      </div>
      <ConfirmDialog
        isOpen={isDeleting}
        title={`Delete ${data.name}?`}
        confirmLabel="Delete segment"
        onConfirm={() => remove.mutateAsync(segmentId)}
        onDone={() => router.push(`/${accountId}/segments`)}
        onClose={() => setIsDeleting(false)}
      >
        <p className="text-sm text-slate-700">
          The segment (now matching {formatCount(data.count ?? 0)} {data.count === 1 ? 'contact' : 'contacts'}) is
          deleted; the contacts themselves stay. A campaign being scheduled or sent with it keeps it: deleting is
          refused until that campaign is done, cancelled or unscheduled. Draft campaigns that use it will ask you to
          remove it.
        </p>
      </ConfirmDialog>
    </>
  );
}
