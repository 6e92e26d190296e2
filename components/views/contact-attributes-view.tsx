'use client';

import Link from 'next/link';
import { useState } from 'react';
import { AttributeDefinitionDialog, DeleteAttributeDialog } from '@/components/dialogs/attribute-dialogs';
import { useAccountScopes } from '@/components/layout/use-account-scopes';
import { AttributeDefinitionTable } from '@/components/tables/attribute-definition-table';
import { Button } from '@/components/ui/button';
import { Alert, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { useAttributeDefinitions } from '@/lib/client/contact-queries';
import type { AttributeDefinition } from '@/lib/client/types';

/** The account's contact attributes: the only keys a contact may hold, each with its type (R4). */
export function ContactAttributesView({ accountId }: { accountId: string }) {
  const { can } = useAccountScopes(accountId);
  const definitions = useAttributeDefinitions(accountId);
  const [editing, setEditing] = useState<AttributeDefinition | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AttributeDefinition | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const canEdit = can('contacts:write');
  const addButton = canEdit ? <Button onClick={() => setEditing('new')}>Add attribute</Button> : null;
  const rows = definitions.data ?? [];

  return (
    <>
      <PageHeader
        title="Contact attributes"
        description={
          <>
            The keys a contact may carry besides its name, each with a type. The API and imports refuse any other key,
            and values not written the type&apos;s way.{' '}
            <Link href={`/${accountId}/contacts`} className="text-brand-700 hover:underline">
              All contacts
            </Link>
          </>
        }
        actions={rows.length ? addButton : null}
      />
      <div className="space-y-4">
        {notice ? (
          <div data-testid="attributes-notice">
            <Alert tone="success">{notice}</Alert>
          </div>
        ) : null}
        {definitions.isPending ? <LoadingState label="Loading attributes…" /> : null}
        {definitions.error ? (
          <Alert tone="error" title="Attributes could not be loaded">
            {definitions.error.message}
          </Alert>
        ) : null}
        {definitions.data && rows.length === 0 ? (
          <EmptyState title="No attributes yet" action={addButton}>
            Define one (a plan, a signup date, a customer number) and contacts can hold a value for it.
          </EmptyState>
        ) : null}
        {rows.length > 0 ? (
          <AttributeDefinitionTable
            definitions={rows}
            canEdit={canEdit}
            canDelete={can('contacts:delete')}
            onEdit={setEditing}
            onDelete={setDeleting}
          />
        ) : null}
      </div>
      <AttributeDefinitionDialog
        accountId={accountId}
        isOpen={editing !== null}
        definition={editing === 'new' ? null : editing}
        onClose={() => setEditing(null)}
        onSaved={(text) => {
          setEditing(null);
          setNotice(text);
        }}
      />
      <DeleteAttributeDialog
        accountId={accountId}
        definition={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={setNotice}
      />
    </>
  );
}
