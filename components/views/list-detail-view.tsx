'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ExportContactsDialog } from '@/components/dialogs/export-contacts-dialog';
import { AddMembersDialog, DeleteListDialog, EditListDialog } from '@/components/dialogs/list-dialogs';
import { useAccountScopes } from '@/components/layout/use-account-scopes';
import { memberTotal } from '@/components/tables/list-table';
import { ListMemberTable } from '@/components/tables/list-member-table';
import { STATUS_LABELS } from '@/components/tables/membership-table';
import { Button } from '@/components/ui/button';
import { Alert, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { Field, Select } from '@/components/ui/field';
import { StatCard } from '@/components/ui/stat-card';
import { ApiError } from '@/lib/client/api';
import { formatCount } from '@/lib/client/format';
import { useList, useListMembers, useRemoveMember, useUpdateMember } from '@/lib/client/list-queries';
import type { SubscriptionStatus } from '@/lib/client/types';
import { SUBSCRIPTION_STATUSES } from '@/lib/core/lists/schemas';

const TONES = { confirmed: 'green', unconfirmed: 'slate', unsubscribed: 'amber', complained: 'red' } as const;
const PAGE_SIZE = 50;

/** A list: its counts per status, its members (filtered by status), and the ways to add more. */
export function ListDetailView({ accountId, listId }: { accountId: string; listId: string }) {
  const router = useRouter();
  const { can } = useAccountScopes(accountId);
  const list = useList(accountId, listId);
  const [status, setStatus] = useState<SubscriptionStatus | ''>('');
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const members = useListMembers(
    accountId,
    listId,
    new URLSearchParams({
      limit: String(PAGE_SIZE),
      ...(status ? { subscription_status: status } : {}),
      ...(cursor ? { after: cursor } : {}),
    }).toString(),
  );
  const update = useUpdateMember(accountId);
  const remove = useRemoveMember(accountId);
  const [dialog, setDialog] = useState<'add' | 'edit' | 'delete' | 'export' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  if (list.isPending) return <LoadingState label="Loading list…" />;
  if (list.error) {
    const code = list.error instanceof ApiError ? list.error.status : 0;
    return (
      <Alert
        tone={code === 403 || code === 404 ? 'warning' : 'error'}
        title={code === 404 ? 'No such list' : 'This list could not be shown'}
      >
        {list.error.message}{' '}
        <Link href={`/${accountId}/lists`} className="font-medium underline">
          All lists
        </Link>
      </Alert>
    );
  }
  const data = list.data;
  const rows = members.data?.data ?? [];
  const filterBy = (next: SubscriptionStatus | '') => {
    setStatus(next);
    setCursors([]);
  };
  const mutationError = update.error ?? remove.error;

  return (
    <>
      <PageHeader
        title={data.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            {data.description ? <span className="wrap-anywhere">{data.description}</span> : null}
            <Link href={`/${accountId}/lists`} className="text-brand-700 hover:underline">
              All lists
            </Link>
          </span>
        }
        actions={
          <>
            {can('lists:write') ? <Button onClick={() => setDialog('add')}>Add members</Button> : null}
            {can('contacts:write') ? (
              <Link
                href={`/${accountId}/contacts/import?list_id=${listId}`}
                className="inline-flex items-center rounded-md bg-white px-3.5 py-2 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50"
              >
                Import CSV
              </Link>
            ) : null}
            {can('contacts:read') ? (
              <Button variant="secondary" onClick={() => setDialog('export')}>
                Export
              </Button>
            ) : null}
            {can('lists:write') ? (
              <Button variant="secondary" onClick={() => setDialog('edit')}>
                Edit
              </Button>
            ) : null}
            {can('lists:delete') ? (
              <Button variant="secondary" className="text-red-700" onClick={() => setDialog('delete')}>
                Delete…
              </Button>
            ) : null}
          </>
        }
      />
      <div className="space-y-6">
        {notice ? (
          <div data-testid="list-notice">
            <Alert tone="success">{notice}</Alert>
          </div>
        ) : null}
        <section aria-label="Members per status" className="grid grid-cols-2 gap-3 lg:grid-cols-5">
          <StatCard name="total" label="Members" value={formatCount(memberTotal(data))} tone="blue" />
          {SUBSCRIPTION_STATUSES.map((key) => (
            <StatCard
              key={key}
              name={key}
              label={STATUS_LABELS[key]}
              value={formatCount(data.member_counts[key] ?? 0)}
              tone={TONES[key]}
            />
          ))}
        </section>
        <section aria-labelledby="members-heading" className="space-y-3">
          <div className="flex flex-wrap items-end justify-between gap-3">
            <h2 id="members-heading" className="text-base font-semibold">
              Members
            </h2>
            <Field label="Status" isCompact>
              <Select
                aria-label="Filter members by status"
                value={status}
                onChange={(event) => filterBy(event.target.value as SubscriptionStatus | '')}
              >
                <option value="">Any</option>
                {SUBSCRIPTION_STATUSES.map((key) => (
                  <option key={key} value={key}>
                    {STATUS_LABELS[key]}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          {mutationError ? <Alert tone="error">{mutationError.message}</Alert> : null}
          {members.isPending ? <LoadingState label="Loading members…" /> : null}
          {members.error ? (
            <Alert tone="error" title="Members could not be loaded">
              {members.error.message}
            </Alert>
          ) : null}
          {members.data && rows.length === 0 ? (
            <EmptyState title={status ? `No ${STATUS_LABELS[status].toLowerCase()} members` : 'No members yet'}>
              {status
                ? 'Choose another status to see the others.'
                : 'Add contacts: search for them, paste their addresses, or import a CSV file into this list.'}
            </EmptyState>
          ) : null}
          {rows.length > 0 ? (
            <ListMemberTable
              accountId={accountId}
              members={rows}
              canWrite={can('lists:write')}
              busyContactId={update.isPending ? (update.variables?.contactId ?? null) : null}
              onChangeStatus={(member, next) => {
                setNotice(null);
                update.mutate(
                  { listId, contactId: member.contact_id, status: next },
                  {
                    onSuccess: () =>
                      setNotice(
                        `${member.contact?.email ?? 'The member'} is now ${STATUS_LABELS[next].toLowerCase()} on this list.`,
                      ),
                  },
                );
              }}
              onRemove={(member) => {
                setNotice(null);
                remove.mutate(
                  { listId, contactId: member.contact_id },
                  { onSuccess: () => setNotice(`${member.contact?.email ?? 'The member'} removed from this list.`) },
                );
              }}
            />
          ) : null}
          {cursors.length > 0 || members.data?.pagination.has_more ? (
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
                disabled={!members.data?.pagination.has_more}
                onClick={() =>
                  members.data?.pagination.next_cursor && setCursors([...cursors, members.data.pagination.next_cursor])
                }
              >
                Next
              </Button>
            </div>
          ) : null}
        </section>
      </div>
      <ExportContactsDialog
        accountId={accountId}
        selection={dialog === 'export' ? { list_id: listId } : null}
        title={`Export ${formatCount(memberTotal(data))} ${memberTotal(data) === 1 ? 'member' : 'members'}?`}
        onClose={() => setDialog(null)}
      >
        <p>
          Every member of {data.name}, whatever their subscription status, with their contact details as they are when
          the export runs.
        </p>
      </ExportContactsDialog>
      <AddMembersDialog
        accountId={accountId}
        list={dialog === 'add' ? data : null}
        onClose={() => setDialog(null)}
        onAdded={setNotice}
      />
      <EditListDialog
        accountId={accountId}
        list={dialog === 'edit' ? data : null}
        onClose={() => setDialog(null)}
        onSaved={() => {
          setDialog(null);
          setNotice('List saved.');
        }}
      />
      <DeleteListDialog
        accountId={accountId}
        list={dialog === 'delete' ? data : null}
        onClose={() => setDialog(null)}
        onDeleted={() => router.push(`/${accountId}/lists`)}
      />
    </>
  );
}
