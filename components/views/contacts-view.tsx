'use client';

import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { AddToListDialog, CreateContactDialog, DeleteContactsDialog } from '@/components/dialogs/contact-dialogs';
import { ExportContactsDialog } from '@/components/dialogs/export-contacts-dialog';
import { ContactFilterForm, EMPTY_CONTACT_FILTERS, type ContactFilters } from '@/components/forms/contact-filter-form';
import { useAccountScopes } from '@/components/layout/use-account-scopes';
import { ContactTable } from '@/components/tables/contact-table';
import { Button } from '@/components/ui/button';
import { Alert, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { ApiError } from '@/lib/client/api';
import {
  useAttributeDefinitions,
  useBulkContactAction,
  useContacts,
  useContactTotals,
} from '@/lib/client/contact-queries';
import { exportSelectionOf } from '@/lib/client/export-selection';
import { formatCount } from '@/lib/client/format';
import { useLists } from '@/lib/client/list-queries';

const PAGE_SIZE = 50;

/** The page's filters as the API's query parameters (`search`, `list_id` and `attribute_*` are Mailstead extensions). */
export function contactQuery(filters: ContactFilters): URLSearchParams {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (filters.search) query.set('search', filters.search);
  if (filters.subscription) query.set('unsubscribed', String(filters.subscription === 'unsubscribed'));
  if (filters.list_id) query.set('list_id', filters.list_id);
  // The API wants both or neither; an attribute without a value is not a filter.
  if (filters.attribute && filters.value) {
    query.set('attribute_key', filters.attribute);
    query.set('attribute_value', filters.value);
  }
  return query;
}

/** Every contact of the account: search and filters live in the URL; select some to act on them together. */
export function ContactsView({ accountId }: { accountId: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const filters: ContactFilters = {
    ...EMPTY_CONTACT_FILTERS,
    ...Object.fromEntries([...params.entries()].filter(([key]) => key in EMPTY_CONTACT_FILTERS)),
  };
  const query = contactQuery(filters);
  for (const cursor of ['after', 'before'] as const) if (params.get(cursor)) query.set(cursor, params.get(cursor)!);

  const { can } = useAccountScopes(accountId);
  const contacts = useContacts(accountId, query.toString());
  const totals = useContactTotals(accountId);
  const lists = useLists(accountId, 'limit=100', { enabled: can('lists:read') });
  const definitions = useAttributeDefinitions(accountId);
  const bulk = useBulkContactAction(accountId);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [dialog, setDialog] = useState<'create' | 'delete' | 'add' | 'export' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const go = (next: Record<string, string>) => {
    const search = new URLSearchParams(Object.entries(next).filter(([, value]) => value));
    setSelected(new Set());
    router.push(`${pathname}${search.size ? `?${search}` : ''}`, { scroll: false });
  };
  const select = (ids: string[], isSelected: boolean) => {
    const next = new Set(selected);
    for (const id of ids)
      if (isSelected) next.add(id);
      else next.delete(id);
    setSelected(next);
  };
  const finish = (text: string) => {
    setNotice(text);
    setSelected(new Set());
  };
  const unsubscribeSelected = () =>
    bulk.mutate(
      { ids: [...selected], action: 'unsubscribe' },
      {
        onSuccess: (outcome) =>
          finish(
            `${formatCount(outcome.done)} unsubscribed.${outcome.failed.length ? ` ${formatCount(outcome.failed.length)} failed: ${outcome.failed[0].message}` : ''}`,
          ),
      },
    );

  const rows = contacts.data?.data ?? [];
  const hasFilters = Object.values(filters).some(Boolean);
  const canSelect = can('contacts:write') || can('contacts:delete');
  const pagination = contacts.data?.pagination;

  return (
    <>
      <PageHeader
        title="Contacts"
        description={
          <>
            {totals.data?.contacts ? (
              <span className="mb-1 block font-medium text-slate-900" data-testid="contacts-total">
                {formatCount(totals.data.contacts)} {totals.data.contacts === 1 ? 'contact' : 'contacts'}
                {totals.data.unsubscribed
                  ? `, ${formatCount(totals.data.unsubscribed)} unsubscribed from everything`
                  : ''}
              </span>
            ) : null}
            The people campaigns go to. A contact joins no list by itself: add it to a list to reach it.
          </>
        }
        actions={
          <>
            {can('contacts:write') ? <Button onClick={() => setDialog('create')}>Add contact</Button> : null}
            {can('contacts:write') ? (
              <Link
                href={`/${accountId}/contacts/import`}
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
            <Link
              href={`/${accountId}/contacts/exports`}
              className="inline-flex items-center rounded-md bg-white px-3.5 py-2 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50"
            >
              Exports
            </Link>
            <Link
              href={`/${accountId}/contacts/attributes`}
              className="inline-flex items-center rounded-md bg-white px-3.5 py-2 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50"
            >
              Attributes
            </Link>
          </>
        }
      />
      <div className="space-y-4">
        {notice ? (
          <div data-testid="contacts-notice">
            <Alert tone="success">{notice}</Alert>
          </div>
        ) : null}
        {bulk.error ? <Alert tone="error">{bulk.error.message}</Alert> : null}
        <ContactFilterForm
          key={params.toString()}
          initial={filters}
          lists={lists.data?.data ?? null}
          attributes={definitions.data ?? []}
          onApply={(applied) => go({ ...applied })}
        />
        {selected.size > 0 ? (
          <div
            className="sticky top-2 z-10 flex flex-wrap items-center gap-2 rounded-lg bg-brand-50 px-4 py-3 text-sm ring-1 ring-brand-100"
            data-testid="bulk-actions"
          >
            <span className="mr-auto font-medium">{formatCount(selected.size)} selected</span>
            {can('lists:write') ? (
              <Button variant="secondary" size="sm" onClick={() => setDialog('add')}>
                Add to list
              </Button>
            ) : null}
            {can('contacts:write') ? (
              <Button variant="secondary" size="sm" isBusy={bulk.isPending} onClick={unsubscribeSelected}>
                Unsubscribe
              </Button>
            ) : null}
            {can('contacts:delete') ? (
              <Button variant="secondary" size="sm" className="text-red-700" onClick={() => setDialog('delete')}>
                Delete…
              </Button>
            ) : null}
            <Button variant="ghost" size="sm" onClick={() => setSelected(new Set())}>
              Clear selection
            </Button>
          </div>
        ) : null}
        {contacts.isPending ? <LoadingState label="Loading contacts…" /> : null}
        {contacts.error ? (
          <Alert
            tone={contacts.error instanceof ApiError && contacts.error.status === 403 ? 'warning' : 'error'}
            title="Contacts could not be loaded"
          >
            {contacts.error.message}
          </Alert>
        ) : null}
        {contacts.data && rows.length === 0 ? (
          <EmptyState title={hasFilters ? 'No contacts match' : 'No contacts yet'}>
            {hasFilters
              ? 'Nobody matches these filters. Clear them to see every contact.'
              : 'Add contacts one by one, import a CSV file, or create them through the API.'}
          </EmptyState>
        ) : null}
        {rows.length > 0 ? (
          <ContactTable
            accountId={accountId}
            contacts={rows}
            selected={canSelect ? selected : null}
            onSelect={select}
          />
        ) : null}
        {pagination && (pagination.has_more || params.get('after') || params.get('before')) ? (
          <div className="flex justify-end gap-2">
            <Button
              variant="secondary"
              disabled={!pagination.previous_cursor}
              onClick={() => go({ ...filters, before: pagination.previous_cursor ?? '' })}
            >
              Previous
            </Button>
            <Button
              variant="secondary"
              disabled={!pagination.has_more}
              onClick={() => go({ ...filters, after: pagination.next_cursor ?? '' })}
            >
              Next
            </Button>
          </div>
        ) : null}
      </div>

      <CreateContactDialog
        accountId={accountId}
        isOpen={dialog === 'create'}
        definitions={definitions.data ?? []}
        onClose={() => setDialog(null)}
        onCreated={(contact) => {
          setDialog(null);
          setNotice(`${contact.email} added.`);
        }}
      />
      <ExportContactsDialog
        accountId={accountId}
        selection={dialog === 'export' ? exportSelectionOf(filters, definitions.data ?? []) : null}
        title={
          hasFilters
            ? 'Export the contacts that match your filters?'
            : `Export ${totals.data ? formatCount(totals.data.contacts) : 'all'} ${totals.data?.contacts === 1 ? 'contact' : 'contacts'}?`
        }
        onClose={() => setDialog(null)}
      >
        <p>
          {hasFilters
            ? 'The file holds every contact the filters match (not only this page); the export counts them when it starts.'
            : 'The file holds every contact of the account.'}
        </p>
      </ExportContactsDialog>
      <DeleteContactsDialog
        accountId={accountId}
        ids={dialog === 'delete' ? [...selected] : null}
        onClose={() => setDialog(null)}
        onDone={finish}
      />
      <AddToListDialog
        accountId={accountId}
        ids={dialog === 'add' ? [...selected] : null}
        lists={lists.data?.data ?? []}
        onClose={() => setDialog(null)}
        onDone={finish}
      />
    </>
  );
}
