'use client';

import { useState } from 'react';
import { SubAccountForm } from '@/components/forms/sub-account-form';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { Field, TextArea } from '@/components/ui/field';
import {
  useCreateSubAccount,
  useDeleteSubAccount,
  useSuspendSubAccount,
  useUnsuspendSubAccount,
  type SubAccountObject,
} from '@/lib/client/sub-account-queries';

export function CreateSubAccountDialog({
  accountId,
  isOpen,
  onClose,
  onCreated,
}: {
  accountId: string;
  isOpen: boolean;
  onClose: () => void;
  onCreated: (sub: SubAccountObject) => void;
}) {
  const create = useCreateSubAccount(accountId);
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title="Create sub account">
      <SubAccountForm onCancel={onClose} onSubmit={async (values) => onCreated(await create.mutateAsync(values))} />
    </Dialog>
  );
}

/** The reason is required (1-500 characters) and shown with the sub account while it is suspended. */
export function SuspendSubAccountDialog({
  accountId,
  sub,
  onClose,
  onSuspended,
}: {
  accountId: string;
  sub: SubAccountObject | null;
  onClose: () => void;
  onSuspended: (sub: SubAccountObject) => void;
}) {
  const suspend = useSuspendSubAccount(accountId);
  const [reason, setReason] = useState('');
  const close = () => {
    setReason('');
    onClose();
  };
  return (
    <ConfirmDialog
      isOpen={sub !== null}
      title="Suspend sub account"
      confirmLabel="Suspend"
      isConfirmDisabled={reason.trim() === '' || reason.length > 500}
      onConfirm={() => suspend.mutateAsync({ id: sub!.id, reason })}
      onDone={onSuspended}
      onClose={close}
    >
      <p>
        While <strong className="wrap-anywhere">{sub?.name}</strong> is suspended its API keys, members and SMTP
        credentials are refused. You can unsuspend it at any time.
      </p>
      <Field label="Reason" htmlFor="suspend-reason" hint={`${reason.length}/500 characters`}>
        <TextArea
          id="suspend-reason"
          rows={3}
          maxLength={500}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
      </Field>
    </ConfirmDialog>
  );
}

export function UnsuspendSubAccountDialog({
  accountId,
  sub,
  onClose,
  onUnsuspended,
}: {
  accountId: string;
  sub: SubAccountObject | null;
  onClose: () => void;
  onUnsuspended: (sub: SubAccountObject) => void;
}) {
  const unsuspend = useUnsuspendSubAccount(accountId);
  return (
    <ConfirmDialog
      isOpen={sub !== null}
      title="Unsuspend sub account"
      confirmLabel="Unsuspend"
      variant="primary"
      onConfirm={() => unsuspend.mutateAsync(sub!.id)}
      onDone={onUnsuspended}
      onClose={onClose}
    >
      <p>
        <strong className="wrap-anywhere">{sub?.name}</strong> can send again at once
        {sub?.suspension_reason ? (
          <>
            {' '}
            (suspended for: <span className="wrap-anywhere">{sub.suspension_reason}</span>)
          </>
        ) : null}
        .
      </p>
    </ConfirmDialog>
  );
}

export function DeleteSubAccountDialog({
  accountId,
  sub,
  onClose,
  onDeleted,
}: {
  accountId: string;
  sub: SubAccountObject | null;
  onClose: () => void;
  onDeleted: (name: string) => void;
}) {
  const remove = useDeleteSubAccount(accountId);
  return (
    <ConfirmDialog
      isOpen={sub !== null}
      title="Delete sub account"
      confirmLabel="Delete sub account"
      onConfirm={() => remove.mutateAsync(sub!.id)}
      onDone={() => onDeleted(sub!.name)}
      onClose={onClose}
    >
      <p>
        Delete <strong className="wrap-anywhere">{sub?.name}</strong>? Its keys, members and SMTP credentials stop
        working and it leaves the list. This month&apos;s usage stays in the report, under removed sub accounts. This
        cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
