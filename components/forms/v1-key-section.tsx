'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Field, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { useCreateV1Key, useDeleteV1Key, useV1Keys } from '@/lib/client/queries';

/** Keys for the legacy `POST /v1/email/send` (X-Api-Key): made here, shown once. */
export function V1KeySection({ accountId, canEdit }: { accountId: string; canEdit: boolean }) {
  const keys = useV1Keys(accountId);
  const create = useCreateV1Key(accountId);
  const remove = useDeleteV1Key(accountId);
  const [created, setCreated] = useState<{ label: string; key: string } | null>(null);
  return (
    <section aria-labelledby="v1-heading" className="space-y-4 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <div>
        <h2 id="v1-heading" className="text-base font-semibold">Legacy v1 keys</h2>
        <p className="mt-1 text-sm text-slate-600">For applications still on <code>POST /v1/email/send</code>. A v1 key sends from any domain of the account; new integrations should use v2 API keys.</p>
      </div>
      {keys.error ? <Alert tone="error">{keys.error.message}</Alert> : null}
      {created ? (
        <Alert tone="warning" title={`v1 key “${created.label}” created: copy it now`}>
          <div className="mt-2 flex items-center gap-2">
            <code className="break-all font-mono text-xs" data-testid="v1-key-secret">{created.key}</code>
            <CopyButton value={created.key} />
          </div>
        </Alert>
      ) : null}
      <ul className="divide-y divide-slate-100 text-sm">
        {(keys.data?.data ?? []).map((key) => (
          <li key={key.id} className="flex items-center justify-between py-2" data-v1-key={key.label}>
            <span>
              <span className="font-medium">{key.label}</span> <code className="text-xs text-slate-500">{key.hint}…</code>
              <span className="ml-2 text-xs text-slate-500">last used {key.last_used_at ? new Date(key.last_used_at).toLocaleString() : 'never'}</span>
            </span>
            {canEdit ? (
              <Button variant="ghost" size="sm" className="text-red-700" onClick={() => remove.mutate(key.id)} aria-label={`Delete v1 key ${key.label}`}>
                Delete
              </Button>
            ) : null}
          </li>
        ))}
        {keys.data && keys.data.data.length === 0 ? <li className="py-2 text-slate-500">No v1 keys.</li> : null}
      </ul>
      {canEdit ? (
        <form
          className="flex items-end gap-2"
          onSubmit={async (event) => {
            event.preventDefault();
            const form = event.currentTarget;
            const label = String(new FormData(form).get('label') ?? '');
            const result = await create.mutateAsync(label).catch(() => null);
            if (result) {
              setCreated({ label: result.label, key: result.key });
              form.reset();
            }
          }}
        >
          <div className="flex-1">
            <Field label="New v1 key label" htmlFor="v1-label" error={create.error?.message}>
              <TextInput id="v1-label" name="label" required />
            </Field>
          </div>
          <Button type="submit" isBusy={create.isPending}>
            Create v1 key
          </Button>
        </form>
      ) : null}
    </section>
  );
}
