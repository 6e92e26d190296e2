'use client';

import { summarizeScopes } from '@/components/forms/scope-picker';
import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/feedback';
import type { ApiKeyObject } from '@/lib/client/types';
import { DataTable, type Column } from './data-table';

const formatDate = (value: string | null) =>
  value ? new Date(value).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : 'Never';

export function ApiKeyTable({
  keys,
  canEdit,
  canDelete,
  onEdit,
  onDelete,
  onToggleSandbox,
}: {
  keys: ApiKeyObject[];
  canEdit: boolean;
  canDelete: boolean;
  onEdit: (key: ApiKeyObject) => void;
  onDelete: (key: ApiKeyObject) => void;
  onToggleSandbox: (key: ApiKeyObject) => void;
}) {
  const columns: Column<ApiKeyObject>[] = [
    {
      key: 'label',
      header: 'Label',
      cell: (key) => (
        <>
          <p className="font-medium text-slate-900 wrap-break-word">{key.label}</p>
          <p className="font-mono text-xs text-slate-600">{key.public_key.slice(0, 16)}…</p>
        </>
      ),
    },
    {
      key: 'scopes',
      header: 'Scopes',
      cardLabel: true,
      className: 'text-slate-700',
      cellAttributes: (key) => ({ title: key.scopes.map((scope) => scope.scope).join('\n') }),
      cell: (key) => <span className="wrap-break-word">{summarizeScopes(key.scopes.map((scope) => scope.scope))}</span>,
    },
    {
      key: 'mode',
      header: 'Mode',
      cardLabel: true,
      className: 'lg:whitespace-nowrap',
      cell: (key) => (
        <>
          <Badge tone={key.sandbox ? 'amber' : 'green'}>{key.sandbox ? 'Sandbox' : 'Live'}</Badge>
          {canEdit ? (
            <button
              type="button"
              className="ml-2 text-xs text-brand-700 underline"
              onClick={() => onToggleSandbox(key)}
              aria-label={`${key.sandbox ? 'Go live with' : 'Use sandbox for'} ${key.label}`}
            >
              {key.sandbox ? 'Go live' : 'Use sandbox'}
            </button>
          ) : null}
        </>
      ),
    },
    {
      key: 'ip-allow-list',
      header: 'IP allow list',
      cardLabel: true,
      className: 'text-xs text-slate-700',
      cell: (key) =>
        key.ip_allow_list.length ? (
          <span className="font-mono wrap-break-word">{key.ip_allow_list.join(', ')}</span>
        ) : (
          <span className="text-slate-600">Any address</span>
        ),
    },
    {
      key: 'last-used',
      header: 'Last used',
      cardLabel: true,
      className: 'text-slate-600',
      cell: (key) => formatDate(key.last_used_at),
    },
    {
      key: 'created',
      header: 'Created',
      cardLabel: true,
      className: 'text-slate-600',
      cell: (key) => formatDate(key.created_at),
    },
    {
      key: 'actions',
      header: 'Actions',
      isHeaderHidden: true,
      className: 'lg:whitespace-nowrap lg:text-right',
      cell: (key) => (
        <>
          {canEdit ? (
            <Button variant="ghost" size="sm" onClick={() => onEdit(key)} aria-label={`Edit ${key.label}`}>
              Edit
            </Button>
          ) : null}
          {canDelete ? (
            <Button
              variant="ghost"
              size="sm"
              className="text-red-700"
              onClick={() => onDelete(key)}
              aria-label={`Delete ${key.label}`}
            >
              Delete
            </Button>
          ) : null}
        </>
      ),
    },
  ];
  return (
    <DataTable
      caption="API keys"
      columns={columns}
      rows={keys}
      rowKey={(key) => key.id}
      rowAttributes={(key) => ({ 'data-api-key-row': key.label })}
    />
  );
}
