'use client';

import { useState } from 'react';
import { ListForm } from '@/components/forms/list-form';
import { PasteMembersForm } from '@/components/forms/paste-members-form';
import { fullName } from '@/components/tables/contact-table';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { TextInput } from '@/components/ui/field';
import { Alert, LoadingState } from '@/components/ui/feedback';
import { useContacts } from '@/lib/client/contact-queries';
import { formatCount } from '@/lib/client/format';
import {
  useAddMembers,
  useCreateList,
  useDeleteList,
  usePasteMembers,
  useUpdateList,
  type PasteMembersOutcome,
} from '@/lib/client/list-queries';
import type { ContactListObject } from '@/lib/client/types';

export function CreateListDialog({
  accountId,
  isOpen,
  onClose,
  onCreated,
}: {
  accountId: string;
  isOpen: boolean;
  onClose: () => void;
  onCreated: (list: ContactListObject) => void;
}) {
  const create = useCreateList(accountId);
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title="Create a list">
      {isOpen ? (
        <ListForm
          submitLabel="Create list"
          onCancel={onClose}
          onSubmit={async (values) => onCreated(await create.mutateAsync(values))}
        />
      ) : null}
    </Dialog>
  );
}

export function EditListDialog({
  accountId,
  list,
  onClose,
  onSaved,
}: {
  accountId: string;
  list: ContactListObject | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const update = useUpdateList(accountId);
  return (
    <Dialog isOpen={list !== null} onClose={onClose} title="Edit list">
      {list ? (
        <ListForm
          initial={list}
          submitLabel="Save list"
          onCancel={onClose}
          onSubmit={async (values) => {
            await update.mutateAsync({ id: list.id, ...values });
            onSaved();
          }}
        />
      ) : null}
    </Dialog>
  );
}

/** R10: the list goes, its memberships stay (so an unsubscribe survives); the dialog says so. */
export function DeleteListDialog({
  accountId,
  list,
  onClose,
  onDeleted,
}: {
  accountId: string;
  list: ContactListObject | null;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const remove = useDeleteList(accountId);
  return (
    <ConfirmDialog
      isOpen={list !== null}
      title="Delete this list?"
      confirmLabel="Delete list"
      onConfirm={() => remove.mutateAsync(list!.id)}
      onDone={onDeleted}
      onClose={onClose}
    >
      <p>
        <strong className="wrap-anywhere">{list?.name}</strong> disappears from the dashboard and the API. Its contacts
        stay, and so does each one&apos;s record of this list, so an unsubscribe from it is not forgotten.
      </p>
    </ConfirmDialog>
  );
}

/** Add members by searching the contacts, or by pasting many addresses at once. */
export function AddMembersDialog({
  accountId,
  list,
  onClose,
  onAdded,
}: {
  accountId: string;
  list: ContactListObject | null;
  onClose: () => void;
  onAdded: (notice: string) => void;
}) {
  const [mode, setMode] = useState<'search' | 'paste'>('search');
  const [outcome, setOutcome] = useState<PasteMembersOutcome | null>(null);
  const paste = usePasteMembers(accountId);
  const close = () => {
    setOutcome(null);
    onClose();
  };
  const tab = (value: typeof mode, label: string) => (
    <button
      type="button"
      role="tab"
      aria-selected={mode === value}
      onClick={() => setMode(value)}
      className={`rounded-md px-3 py-1.5 text-sm font-medium ${mode === value ? 'bg-brand-50 text-brand-700' : 'text-slate-700 hover:bg-slate-100'}`}
    >
      {label}
    </button>
  );
  return (
    <Dialog isOpen={list !== null} onClose={close} title={`Add members to ${list?.name ?? 'the list'}`}>
      {list ? (
        <div className="space-y-4">
          <div role="tablist" aria-label="How to add" className="flex gap-2">
            {tab('search', 'Search contacts')}
            {tab('paste', 'Paste addresses')}
          </div>
          {mode === 'search' ? (
            <SearchMembersPanel accountId={accountId} listId={list.id} onAdded={onAdded} />
          ) : outcome ? (
            <PasteOutcome outcome={outcome} listName={list.name} onAgain={() => setOutcome(null)} onDone={close} />
          ) : (
            <PasteMembersForm
              accountId={accountId}
              listId={list.id}
              onCancel={close}
              onSubmit={async ({ lines, status, createMissing }) => {
                const result = await paste.mutateAsync({ listId: list.id, lines, status, createMissing });
                onAdded(addedNotice(result, list.name));
                if (result.refused.length > 0) setOutcome(result);
                else close();
              }}
            />
          )}
        </div>
      ) : null}
    </Dialog>
  );
}

const addedNotice = (outcome: PasteMembersOutcome, listName: string) =>
  `${formatCount(outcome.added)} contact${outcome.added === 1 ? '' : 's'} added to ${listName}` +
  (outcome.createdContacts > 0
    ? ` (${formatCount(outcome.createdContacts)} new contact${outcome.createdContacts === 1 ? '' : 's'})`
    : '') +
  (outcome.refused.length > 0 ? `; ${formatCount(outcome.refused.length)} not added.` : '.');

/** What a paste did: how many were added, and each line that was not, with why. */
function PasteOutcome({
  outcome,
  listName,
  onAgain,
  onDone,
}: {
  outcome: PasteMembersOutcome;
  listName: string;
  onAgain: () => void;
  onDone: () => void;
}) {
  return (
    <div className="space-y-3 text-sm">
      <Alert tone={outcome.added > 0 ? 'success' : 'warning'} title={addedNotice(outcome, listName)}>
        {formatCount(outcome.refused.length)} line{outcome.refused.length === 1 ? ' was' : 's were'} not added:
      </Alert>
      <ul
        className="max-h-64 divide-y divide-slate-100 overflow-y-auto rounded-md ring-1 ring-slate-200"
        aria-label="Lines not added"
      >
        {outcome.refused.map((refusal) => (
          <li
            key={refusal.line}
            data-refused-line={refusal.line}
            className="flex flex-wrap justify-between gap-x-3 px-3 py-1.5"
          >
            <span className="min-w-0 font-mono text-xs wrap-anywhere">{refusal.line}</span>
            <span className="text-xs text-slate-600" data-reason>
              {refusal.reason}
            </span>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onAgain}>
          Paste more
        </Button>
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}

function SearchMembersPanel({
  accountId,
  listId,
  onAdded,
}: {
  accountId: string;
  listId: string;
  onAdded: (notice: string) => void;
}) {
  const [search, setSearch] = useState('');
  const [submitted, setSubmitted] = useState('');
  const [added, setAdded] = useState<Set<string>>(new Set());
  const contacts = useContacts(
    accountId,
    new URLSearchParams({ limit: '10', ...(submitted ? { search: submitted } : {}) }).toString(),
  );
  const add = useAddMembers(accountId);
  return (
    <div className="space-y-3">
      <form
        role="search"
        aria-label="Find contacts"
        className="flex gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(search.trim());
        }}
      >
        <TextInput
          type="search"
          aria-label="Email or name"
          placeholder="Email or name"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </form>
      {add.error ? <Alert tone="error">{add.error.message}</Alert> : null}
      {contacts.isPending ? <LoadingState label="Searching…" /> : null}
      {contacts.error ? <Alert tone="error">{contacts.error.message}</Alert> : null}
      {contacts.data && contacts.data.data.length === 0 ? (
        <p className="text-sm text-slate-600">No contact matches.</p>
      ) : null}
      <ul className="divide-y divide-slate-100">
        {(contacts.data?.data ?? []).map((contact) => (
          <li key={contact.id} className="flex items-center gap-3 py-2" data-search-result={contact.email}>
            <div className="min-w-0 flex-1">
              <p className="text-sm font-medium wrap-anywhere">{contact.email}</p>
              {fullName(contact) ? <p className="text-xs text-slate-600">{fullName(contact)}</p> : null}
            </div>
            <Button
              size="sm"
              variant="secondary"
              disabled={added.has(contact.id)}
              aria-label={`Add ${contact.email}`}
              onClick={() =>
                add.mutate(
                  { listId, contacts: [contact.id] },
                  {
                    onSuccess: () => {
                      setAdded(new Set([...added, contact.id]));
                      onAdded(`${contact.email} added.`);
                    },
                  },
                )
              }
            >
              {added.has(contact.id) ? 'Added' : 'Add'}
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}
