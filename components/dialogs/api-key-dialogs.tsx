'use client';

import { ApiKeyForm, type ApiKeyFormValues } from '@/components/forms/api-key-form';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { CopyButton } from '@/components/ui/copy-button';
import { Dialog } from '@/components/ui/dialog';
import { Alert } from '@/components/ui/feedback';
import { useCreateApiKey, useDeleteApiKey, useSetApiKeySandbox, useUpdateApiKey } from '@/lib/client/queries';
import type { ApiKeyObject } from '@/lib/client/types';

export function CreateApiKeyDialog({
  accountId,
  isOpen,
  onClose,
  onCreated,
}: {
  accountId: string;
  isOpen: boolean;
  onClose: () => void;
  onCreated: (secret: string, label: string) => void;
}) {
  const create = useCreateApiKey(accountId);
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title="Create API key">
      <ApiKeyForm
        accountId={accountId}
        submitLabel="Create key"
        onCancel={onClose}
        onSubmit={async (values) => {
          const created = await create.mutateAsync(values);
          onCreated(created.secret_key, created.label);
        }}
      />
    </Dialog>
  );
}

/** The secret exists in the browser only while this dialog is open: it is never shown again. */
export function ApiKeySecretDialog({
  secret,
  label,
  onClose,
}: {
  secret: string | null;
  label: string;
  onClose: () => void;
}) {
  return (
    <Dialog
      isOpen={secret !== null}
      onClose={onClose}
      title={`API key “${label}” created`}
      footer={<Button onClick={onClose}>I have stored the key</Button>}
    >
      <div className="space-y-4">
        <Alert tone="warning" title="Copy this key now">
          This is the only time Mailstead shows it. Only a hash is stored; if you lose the key, delete it and create
          another.
        </Alert>
        <div className="flex items-center gap-2">
          <code
            className="block flex-1 break-all rounded-md bg-slate-900 px-3 py-2 font-mono text-xs text-green-200"
            data-testid="api-key-secret"
          >
            {secret}
          </code>
          <CopyButton value={secret ?? ''} what="API key" />
        </div>
      </div>
    </Dialog>
  );
}

function changedFields(key: ApiKeyObject, values: ApiKeyFormValues) {
  const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((item) => b.includes(item));
  const scopes = key.scopes.map((scope) => scope.scope);
  return {
    ...(values.label !== key.label ? { label: values.label } : {}),
    ...(!sameSet(values.scopes, scopes) ? { scopes: values.scopes } : {}),
    ...(!sameSet(values.ip_allow_list, key.ip_allow_list) ? { ip_allow_list: values.ip_allow_list } : {}),
  };
}

export function EditApiKeyDialog({
  accountId,
  apiKey,
  onClose,
}: {
  accountId: string;
  apiKey: ApiKeyObject | null;
  onClose: () => void;
}) {
  const update = useUpdateApiKey(accountId);
  return (
    <Dialog isOpen={apiKey !== null} onClose={onClose} title={`Edit “${apiKey?.label ?? ''}”`}>
      {apiKey ? (
        <ApiKeyForm
          accountId={accountId}
          key={apiKey.id}
          submitLabel="Save changes"
          initial={{
            label: apiKey.label,
            scopes: apiKey.scopes.map((scope) => scope.scope),
            ip_allow_list: apiKey.ip_allow_list,
          }}
          onCancel={onClose}
          onSubmit={async (values) => {
            const changes = changedFields(apiKey, values);
            if (Object.keys(changes).length === 0) return onClose();
            await update.mutateAsync({ id: apiKey.id, ...changes });
            onClose();
          }}
        />
      ) : null}
    </Dialog>
  );
}

export function DeleteApiKeyDialog({
  accountId,
  apiKey,
  onClose,
  onDeleted,
}: {
  accountId: string;
  apiKey: ApiKeyObject | null;
  onClose: () => void;
  onDeleted: (label: string) => void;
}) {
  const remove = useDeleteApiKey(accountId);
  return (
    <ConfirmDialog
      isOpen={apiKey !== null}
      title="Delete API key"
      confirmLabel="Delete key"
      onConfirm={() => remove.mutateAsync(apiKey!.id)}
      onDone={() => onDeleted(apiKey!.label)}
      onClose={onClose}
    >
      <p>
        Delete <strong>{apiKey?.label}</strong>? Applications that use it will get <code>401</code> at once. This cannot
        be undone.
      </p>
    </ConfirmDialog>
  );
}

/** Sandbox on or off changes what happens to the key's mail at once, so it is asked first. */
export function ApiKeySandboxDialog({
  accountId,
  apiKey,
  onClose,
  onDone,
}: {
  accountId: string;
  apiKey: ApiKeyObject | null;
  onClose: () => void;
  onDone: (notice: string) => void;
}) {
  const setSandbox = useSetApiKeySandbox(accountId);
  const isGoingLive = apiKey?.sandbox ?? false;
  const label = apiKey?.label ?? '';
  return (
    <ConfirmDialog
      isOpen={apiKey !== null}
      title={isGoingLive ? `Go live with “${label}”?` : `Use sandbox for “${label}”?`}
      confirmLabel={isGoingLive ? 'Go live' : 'Use sandbox'}
      variant={isGoingLive ? 'primary' : 'danger'}
      onConfirm={() => setSandbox.mutateAsync({ id: apiKey!.id, sandbox: !isGoingLive })}
      onDone={() =>
        onDone(
          isGoingLive
            ? `“${label}” is live: mail sent with it is delivered from now on.`
            : `“${label}” is in sandbox mode: mail sent with it is no longer delivered.`,
        )
      }
      onClose={onClose}
    >
      {isGoingLive ? (
        <p>
          Messages sent with this key will be delivered to real recipients from now on. Messages it sent while in
          sandbox stay undelivered.
        </p>
      ) : (
        <>
          <p>
            Messages sent with this key will not be delivered, starting with the next request: they go through every
            step except delivery and show as <strong>Sandbox</strong> in the message log.
          </p>
          <p>
            Applications using the key get the same answers as before, so nothing on their side tells them their mail is
            not going out.
          </p>
        </>
      )}
    </ConfirmDialog>
  );
}
