'use client';

import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/feedback';
import { formatDateTime } from '@/lib/client/format';
import type { SmtpCredentialObject } from '@/lib/client/types';
import { DataTable, type Column } from './data-table';

export function SmtpCredentialTable({
  credentials,
  canDelete,
  onDelete,
}: {
  credentials: SmtpCredentialObject[];
  canDelete: boolean;
  onDelete: (credential: SmtpCredentialObject) => void;
}) {
  const columns: Column<SmtpCredentialObject>[] = [
    {
      key: 'credential',
      header: 'Credential',
      className: 'lg:max-w-xs',
      cell: (credential) => (
        <>
          <span className="font-medium text-slate-900 wrap-break-word">{credential.name}</span>{' '}
          {credential.sandbox ? <Badge tone="amber">Sandbox</Badge> : null}
        </>
      ),
    },
    {
      key: 'username',
      header: 'Username',
      cardLabel: true,
      className: 'font-mono text-xs text-slate-700',
      cell: (credential) => <span className="wrap-anywhere">{credential.username}</span>,
    },
    {
      key: 'domains',
      header: 'Domains',
      cardLabel: true,
      className: 'text-xs text-slate-700',
      cell: (credential) =>
        credential.scope === 'global' ? (
          'All domains'
        ) : (
          <span className="wrap-anywhere">{credential.domains.join(', ')}</span>
        ),
    },
    {
      key: 'created',
      header: 'Created',
      cardLabel: true,
      className: 'text-xs text-slate-700 lg:whitespace-nowrap',
      cell: (credential) => formatDateTime(credential.created_at),
    },
    {
      key: 'actions',
      header: 'Actions',
      isHeaderHidden: true,
      className: 'lg:whitespace-nowrap lg:text-right',
      cell: (credential) =>
        canDelete ? (
          <Button
            variant="ghost"
            size="sm"
            className="text-red-700"
            onClick={() => onDelete(credential)}
            aria-label={`Delete ${credential.name}`}
          >
            Delete
          </Button>
        ) : null,
    },
  ];
  return (
    <DataTable
      caption="SMTP credentials"
      columns={columns}
      rows={credentials}
      rowKey={(credential) => credential.id}
      rowAttributes={(credential) => ({ 'data-smtp-credential-row': credential.name })}
    />
  );
}
