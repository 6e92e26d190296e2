'use client';

import { useState } from 'react';
import {
  ApiKeySandboxDialog,
  ApiKeySecretDialog,
  CreateApiKeyDialog,
  DeleteApiKeyDialog,
  EditApiKeyDialog,
} from '@/components/dialogs/api-key-dialogs';
import { ApiKeyTable } from '@/components/tables/api-key-table';
import { Button } from '@/components/ui/button';
import { Alert, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { ApiError } from '@/lib/client/api';
import { useApiKeys, useCurrentUser } from '@/lib/client/queries';
import type { ApiKeyObject } from '@/lib/client/types';
import { mayOpen } from '@/components/layout/sections';

export function ApiKeysView({ accountId }: { accountId: string }) {
  const keys = useApiKeys(accountId);
  const me = useCurrentUser();
  const scopes = me.data?.accounts.find((account) => account.id === accountId)?.scopes ?? [];
  const canWrite = mayOpen(scopes, 'api-keys:write');
  const canDelete = mayOpen(scopes, 'api-keys:delete');
  const [isCreating, setIsCreating] = useState(false);
  const [secret, setSecret] = useState<{ value: string; label: string } | null>(null);
  const [editing, setEditing] = useState<ApiKeyObject | null>(null);
  const [deleting, setDeleting] = useState<ApiKeyObject | null>(null);
  const [toggling, setToggling] = useState<ApiKeyObject | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const createButton = canWrite ? <Button onClick={() => setIsCreating(true)}>Create API key</Button> : null;

  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys authenticate applications against the v2 API. Each holds scopes and, optionally, the addresses it may be used from."
        actions={keys.data && keys.data.data.length > 0 ? createButton : null}
      />
      {keys.isPending ? <LoadingState label="Loading API keys…" /> : null}
      {notice ? (
        <div className="mb-4" data-testid="api-keys-notice">
          <Alert tone="success">{notice}</Alert>
        </div>
      ) : null}
      {keys.error ? (
        keys.error instanceof ApiError && keys.error.status === 403 ? (
          <Alert tone="warning" title="You cannot view API keys">
            Your role in this account does not include the <code>api-keys:read</code> scope. Ask an Administrator if you
            need it.
          </Alert>
        ) : (
          <Alert tone="error" title="API keys could not be loaded">
            {keys.error.message}
          </Alert>
        )
      ) : null}
      {keys.data && keys.data.data.length === 0 ? (
        <EmptyState title="No API keys yet" action={createButton}>
          Create a key for each application that sends mail or manages this account, with only the scopes it needs.
        </EmptyState>
      ) : null}
      {keys.data && keys.data.data.length > 0 ? (
        <ApiKeyTable
          keys={keys.data.data}
          canEdit={canWrite}
          canDelete={canDelete}
          onEdit={setEditing}
          onDelete={setDeleting}
          onToggleSandbox={setToggling}
        />
      ) : null}

      <CreateApiKeyDialog
        accountId={accountId}
        isOpen={isCreating}
        onClose={() => setIsCreating(false)}
        onCreated={(value, label) => {
          setIsCreating(false);
          setSecret({ value, label });
          setNotice(`API key “${label}” created.`);
        }}
      />
      <ApiKeySecretDialog secret={secret?.value ?? null} label={secret?.label ?? ''} onClose={() => setSecret(null)} />
      <EditApiKeyDialog accountId={accountId} apiKey={editing} onClose={() => setEditing(null)} />
      <DeleteApiKeyDialog
        accountId={accountId}
        apiKey={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(label) => setNotice(`API key “${label}” deleted: requests with it now get 401.`)}
      />
      <ApiKeySandboxDialog
        accountId={accountId}
        apiKey={toggling}
        onClose={() => setToggling(null)}
        onDone={setNotice}
      />
    </>
  );
}
