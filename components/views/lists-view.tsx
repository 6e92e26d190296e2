'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { CreateListDialog } from '@/components/dialogs/list-dialogs';
import { useAccountScopes } from '@/components/layout/use-account-scopes';
import { ListTable } from '@/components/tables/list-table';
import { Button } from '@/components/ui/button';
import { Alert, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { ApiError } from '@/lib/client/api';
import { useListTotals } from '@/lib/client/contact-queries';
import { formatCount } from '@/lib/client/format';
import { useLists } from '@/lib/client/list-queries';

/** The account's lists, each with its members counted per status. */
export function ListsView({ accountId }: { accountId: string }) {
  const router = useRouter();
  const { can } = useAccountScopes(accountId);
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const lists = useLists(
    accountId,
    new URLSearchParams({ limit: '50', ...(cursor ? { after: cursor } : {}) }).toString(),
  );
  const totals = useListTotals(accountId);
  const [isCreating, setIsCreating] = useState(false);
  const rows = lists.data?.data ?? [];
  const createButton = can('lists:write') ? <Button onClick={() => setIsCreating(true)}>Create list</Button> : null;

  return (
    <>
      <PageHeader
        title="Lists"
        description={
          <>
            {totals.data?.lists ? (
              <span className="mb-1 block font-medium text-slate-900" data-testid="lists-total">
                {formatCount(totals.data.lists)} {totals.data.lists === 1 ? 'list' : 'lists'}
              </span>
            ) : null}
            Static, private lists of contacts: campaigns go to lists. Each member has its own status on each list, apart
            from the contact&apos;s account-wide unsubscribe.
          </>
        }
        actions={createButton}
      />
      <div className="space-y-4">
        {lists.isPending ? <LoadingState label="Loading lists…" /> : null}
        {lists.error ? (
          <Alert
            tone={lists.error instanceof ApiError && lists.error.status === 403 ? 'warning' : 'error'}
            title="Lists could not be loaded"
          >
            {lists.error.message}
          </Alert>
        ) : null}
        {lists.data && rows.length === 0 ? (
          <EmptyState title={cursor ? 'No more lists' : 'No lists yet'} action={cursor ? null : createButton}>
            {cursor
              ? null
              : 'Create a list, then add contacts to it: search for them, paste addresses, or import a CSV file into it.'}
          </EmptyState>
        ) : null}
        {rows.length > 0 ? <ListTable accountId={accountId} lists={rows} /> : null}
        {cursors.length > 0 || lists.data?.pagination.has_more ? (
          <div className="flex justify-end gap-2">
            <Button
              variant="secondary"
              disabled={cursors.length === 0}
              onClick={() => setCursors(cursors.slice(0, -1))}
            >
              Previous
            </Button>
            <Button
              variant="secondary"
              disabled={!lists.data?.pagination.has_more}
              onClick={() =>
                lists.data?.pagination.next_cursor && setCursors([...cursors, lists.data.pagination.next_cursor])
              }
            >
              Next
            </Button>
          </div>
        ) : null}
      </div>
      <CreateListDialog
        accountId={accountId}
        isOpen={isCreating}
        onClose={() => setIsCreating(false)}
        onCreated={(list) => router.push(`/${accountId}/lists/${list.id}`)}
      />
    </>
  );
}
