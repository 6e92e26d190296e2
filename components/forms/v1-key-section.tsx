'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { CopyButton } from '@/components/ui/copy-button';
import { Field, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { useCreateV1Key, useDeleteV1Key, useV1Keys, type V1KeyObject } from '@/lib/client/queries';

/** Keys for the legacy `POST /v1/email/send` (X-Api-Key): made here, shown once. */
export function V1KeySection({ accountId, canEdit }: { accountId: string; canEdit: boolean }) {
  const keys = useV1Keys(accountId);
  const create = useCreateV1Key(accountId);
  const remove = useDeleteV1Key(accountId);
  const [created, setCreated] = useState<{ label: string; key: string } | null>(null);
  const [deleting, setDeleting] = useState<V1KeyObject | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <section
      aria-labelledby="v1-heading"
      className="space-y-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <div>
        <h2 id="v1-heading" className="text-base font-semibold">
          Legacy v1 keys
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          For applications still on <code>POST /v1/email/send</code>. A v1 key sends from any domain of the account; new
          integrations should use v2 API keys.
        </p>
      </div>
      {keys.error ? <Alert tone="error">{keys.error.message}</Alert> : null}
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      {created ? (
        <Alert tone="warning" title={`v1 key “${created.label}” created: copy it now`}>
          <div className="mt-2 flex items-start gap-2">
            <code className="min-w-0 font-mono text-xs wrap-anywhere" data-testid="v1-key-secret">
              {created.key}
            </code>
            <CopyButton value={created.key} what={`v1 key ${created.label}`} />
          </div>
        </Alert>
      ) : null}
      <ul className="divide-y divide-slate-100 text-sm">
        {(keys.data?.data ?? []).map((key) => (
          <li
            key={key.id}
            className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2"
            data-v1-key={key.label}
          >
            <span className="min-w-0">
              <span className="font-medium wrap-break-word">{key.label}</span>{' '}
              <code className="text-xs text-slate-600">{key.hint}…</code>
              <span className="block text-xs text-slate-600 sm:ml-2 sm:inline">
                last used {key.last_used_at ? new Date(key.last_used_at).toLocaleString() : 'never'}
              </span>
            </span>
            {canEdit ? (
              <Button
                variant="ghost"
                size="sm"
                className="text-red-700"
                onClick={() => setDeleting(key)}
                aria-label={`Delete v1 key ${key.label}`}
              >
                Delete
              </Button>
            ) : null}
          </li>
        ))}
        {keys.data && keys.data.data.length === 0 ? <li className="py-2 text-slate-600">No v1 keys.</li> : null}
      </ul>
      {canEdit ? (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={async (event) => {
            event.preventDefault();
            const form = event.currentTarget;
            const label = String(new FormData(form).get('label') ?? '');
            const result = await create.mutateAsync(label).catch(() => null);
            if (result) {
              setNotice(null);
              setCreated({ label: result.label, key: result.key });
              form.reset();
            }
          }}
        >
          <div className="min-w-48 flex-1">
            <Field label="New v1 key label" htmlFor="v1-label" error={create.error?.message}>
              <TextInput id="v1-label" name="label" required />
            </Field>
          </div>
          <Button type="submit" isBusy={create.isPending}>
            Create v1 key
          </Button>
        </form>
      ) : null}
      <ConfirmDialog
        isOpen={deleting !== null}
        title="Delete v1 key"
        confirmLabel="Delete v1 key"
        onConfirm={() => remove.mutateAsync(deleting!.id)}
        onDone={() => {
          if (created?.label === deleting!.label) setCreated(null);
          setNotice(`v1 key “${deleting!.label}” deleted: requests with it now get 403.`);
        }}
        onClose={() => setDeleting(null)}
      >
        <p>
          Delete <strong>{deleting?.label}</strong>? Apps using this v1 key will get <code>403</code> on{' '}
          <code>POST /v1/email/send</code> from now on. This cannot be undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}
