'use client';

import { SignupFormSettingsForm } from '@/components/forms/signup-form-settings-form';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { formatCount } from '@/lib/client/format';
import {
  useCreateSignupForm,
  useDeleteSignupForm,
  useUpdateSignupForm,
  type SignupFormObject,
} from '@/lib/client/signup-form-queries';

export function CreateSignupFormDialog({
  accountId,
  isOpen,
  onClose,
  onCreated,
}: {
  accountId: string;
  isOpen: boolean;
  onClose: () => void;
  onCreated: (form: SignupFormObject) => void;
}) {
  const create = useCreateSignupForm(accountId);
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title="Create a signup form">
      {isOpen ? (
        <SignupFormSettingsForm
          accountId={accountId}
          submitLabel="Create form"
          onCancel={onClose}
          onSubmit={async (values) => onCreated(await create.mutateAsync(values))}
        />
      ) : null}
    </Dialog>
  );
}

export function EditSignupFormDialog({
  accountId,
  form,
  onClose,
}: {
  accountId: string;
  form: SignupFormObject | null;
  onClose: () => void;
}) {
  const update = useUpdateSignupForm(accountId);
  return (
    <Dialog isOpen={form !== null} onClose={onClose} title="Edit signup form">
      {form ? (
        <SignupFormSettingsForm
          accountId={accountId}
          initial={form}
          submitLabel="Save form"
          onCancel={onClose}
          onSubmit={async (values) => {
            await update.mutateAsync({ id: form.id, ...values });
            onClose();
          }}
        />
      ) : null}
    </Dialog>
  );
}

/** The page and its snippet stop working; the contacts it brought stay. The dialog says so. */
export function DeleteSignupFormDialog({
  accountId,
  form,
  onClose,
  onDeleted,
}: {
  accountId: string;
  form: SignupFormObject | null;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const remove = useDeleteSignupForm(accountId);
  return (
    <ConfirmDialog
      isOpen={form !== null}
      title="Delete this signup form?"
      confirmLabel="Delete form"
      onConfirm={() => remove.mutateAsync(form!.id)}
      onDone={onDeleted}
      onClose={onClose}
    >
      <p>
        <strong className="wrap-anywhere">{form?.name}</strong>: its hosted page and every copy of its snippet stop
        working, and confirmation links not yet opened stop working too. The contacts it signed up (
        {formatCount(form?.signup_count ?? 0)} so far) stay on their lists.
      </p>
    </ConfirmDialog>
  );
}
