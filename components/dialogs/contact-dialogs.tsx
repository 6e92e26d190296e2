'use client';

import { useState } from 'react';
import { ContactForm } from '@/components/forms/contact-form';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { Alert } from '@/components/ui/feedback';
import { Field, Select } from '@/components/ui/field';
import { useBulkContactAction, useCreateContact, useDeleteContact } from '@/lib/client/contact-queries';
import { formatCount } from '@/lib/client/format';
import { useAddMembers } from '@/lib/client/list-queries';
import type { AttributeDefinition, ContactListObject, ContactObject } from '@/lib/client/types';

const plural = (count: number, one: string, many = `${one}s`) => `${formatCount(count)} ${count === 1 ? one : many}`;

export function CreateContactDialog({
  accountId,
  isOpen,
  definitions,
  onClose,
  onCreated,
}: {
  accountId: string;
  isOpen: boolean;
  definitions: AttributeDefinition[];
  onClose: () => void;
  onCreated: (contact: ContactObject) => void;
}) {
  const create = useCreateContact(accountId);
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title="Add a contact">
      {isOpen ? (
        <ContactForm
          contact={null}
          definitions={definitions}
          submitLabel="Add contact"
          onCancel={onClose}
          onSubmit={async (body) => {
            // The form asks for the address when it adds a contact; only an edit may leave it out.
            onCreated(await create.mutateAsync({ ...body, email: body.email ?? '' }));
          }}
        />
      ) : null}
    </Dialog>
  );
}

/** Deleting is not unsubscribing: the dialog says so, since only unsubscribe keeps the history (R3). */
export function DeleteContactsDialog({
  accountId,
  ids,
  onClose,
  onDone,
}: {
  accountId: string;
  ids: string[] | null;
  onClose: () => void;
  onDone: (notice: string) => void;
}) {
  const bulk = useBulkContactAction(accountId);
  const close = () => {
    bulk.reset();
    onClose();
  };
  const count = ids?.length ?? 0;
  const failed = bulk.data?.failed ?? [];
  return (
    <Dialog
      isOpen={ids !== null}
      onClose={close}
      title={`Delete ${plural(count, 'contact')}?`}
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button
            variant="danger"
            isBusy={bulk.isPending}
            onClick={() =>
              bulk.mutate(
                { ids: ids!, action: 'delete' },
                {
                  onSuccess: (outcome) => {
                    if (outcome.failed.length) return;
                    onDone(`${plural(outcome.done, 'contact')} deleted.`);
                    close();
                  },
                },
              )
            }
          >
            Delete {plural(count, 'contact')}
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm" data-testid="delete-contacts-summary">
        {bulk.error ? <Alert tone="error">{bulk.error.message}</Alert> : null}
        {failed.length ? (
          <Alert tone="error" title={`${plural(failed.length, 'contact')} could not be deleted`}>
            {failed[0].message}
          </Alert>
        ) : null}
        <p>
          {count === 1 ? 'The contact' : `These ${formatCount(count)} contacts`} and {count === 1 ? 'its' : 'their'}{' '}
          list memberships are removed for good. Suppressions stay as they are.
        </p>
        <p>To stop marketing mail but keep the record and its history, unsubscribe instead.</p>
        <p className="font-medium">This cannot be undone.</p>
      </div>
    </Dialog>
  );
}

export function DeleteContactDialog({
  accountId,
  contact,
  onClose,
  onDeleted,
}: {
  accountId: string;
  contact: ContactObject | null;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const remove = useDeleteContact(accountId);
  return (
    <ConfirmDialog
      isOpen={contact !== null}
      title="Delete this contact?"
      confirmLabel="Delete contact"
      onConfirm={() => remove.mutateAsync(contact!.id)}
      onDone={onDeleted}
      onClose={onClose}
    >
      <p>
        <strong className="wrap-anywhere">{contact?.email}</strong> and its list memberships are removed for good.
        Suppressions stay as they are. To stop marketing mail but keep the history, unsubscribe instead.
      </p>
    </ConfirmDialog>
  );
}

export function AddToListDialog({
  accountId,
  ids,
  lists,
  onClose,
  onDone,
}: {
  accountId: string;
  ids: string[] | null;
  lists: ContactListObject[];
  onClose: () => void;
  onDone: (notice: string) => void;
}) {
  const add = useAddMembers(accountId);
  const [listId, setListId] = useState('');
  const close = () => {
    setListId('');
    onClose();
  };
  const count = ids?.length ?? 0;
  return (
    <ConfirmDialog
      isOpen={ids !== null}
      title={`Add ${plural(count, 'contact')} to a list`}
      confirmLabel="Add to list"
      variant="primary"
      isConfirmDisabled={!listId}
      onConfirm={() => add.mutateAsync({ listId, contacts: ids! })}
      onDone={() =>
        onDone(`${plural(count, 'contact')} added to ${lists.find((list) => list.id === listId)?.name ?? 'the list'}.`)
      }
      onClose={close}
    >
      {lists.length ? (
        <Field label="List">
          <Select value={listId} onChange={(event) => setListId(event.target.value)}>
            <option value="">Choose a list…</option>
            {lists.map((list) => (
              <option key={list.id} value={list.id}>
                {list.name}
              </option>
            ))}
          </Select>
        </Field>
      ) : (
        <p>This account has no lists yet: create one on the Lists page first.</p>
      )}
      <p className="text-slate-600">They join as confirmed.</p>
    </ConfirmDialog>
  );
}
