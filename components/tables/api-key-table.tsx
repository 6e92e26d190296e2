'use client';

import { summarizeScopes } from '@/components/forms/scope-picker';
import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/feedback';
import type { ApiKeyObject } from '@/lib/client/types';

const formatDate = (value: string | null) => (value ? new Date(value).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : 'Never');

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
  return (
    <div className="overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-4 py-3">Label</th>
            <th scope="col" className="px-4 py-3">Scopes</th>
            <th scope="col" className="px-4 py-3">Mode</th>
            <th scope="col" className="px-4 py-3">IP allow list</th>
            <th scope="col" className="px-4 py-3">Last used</th>
            <th scope="col" className="px-4 py-3">Created</th>
            <th scope="col" className="px-4 py-3"><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {keys.map((key) => {
            const scopes = key.scopes.map((scope) => scope.scope);
            return (
              <tr key={key.id} data-api-key-row={key.label}>
                <td className="px-4 py-3">
                  <p className="font-medium text-slate-900">{key.label}</p>
                  <p className="font-mono text-xs text-slate-500">{key.public_key.slice(0, 16)}…</p>
                </td>
                <td className="px-4 py-3 text-slate-700" title={scopes.join('\n')}>{summarizeScopes(scopes)}</td>
                <td className="px-4 py-3">
                  <Badge tone={key.sandbox ? 'amber' : 'green'}>{key.sandbox ? 'Sandbox' : 'Live'}</Badge>
                  {canEdit ? (
                    <button type="button" className="ml-2 text-xs text-brand-700 underline" onClick={() => onToggleSandbox(key)} aria-label={`${key.sandbox ? 'Go live with' : 'Use sandbox for'} ${key.label}`}>
                      {key.sandbox ? 'Go live' : 'Use sandbox'}
                    </button>
                  ) : null}
                </td>
                <td className="px-4 py-3 font-mono text-xs text-slate-700">{key.ip_allow_list.length ? key.ip_allow_list.join(', ') : <span className="font-sans text-slate-500">Any address</span>}</td>
                <td className="px-4 py-3 text-slate-600">{formatDate(key.last_used_at)}</td>
                <td className="px-4 py-3 text-slate-600">{formatDate(key.created_at)}</td>
                <td className="whitespace-nowrap px-4 py-3 text-right">
                  {canEdit ? (
                    <Button variant="ghost" size="sm" onClick={() => onEdit(key)} aria-label={`Edit ${key.label}`}>
                      Edit
                    </Button>
                  ) : null}
                  {canDelete ? (
                    <Button variant="ghost" size="sm" className="text-red-700" onClick={() => onDelete(key)} aria-label={`Delete ${key.label}`}>
                      Delete
                    </Button>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
