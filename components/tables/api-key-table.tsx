'use client';

import { summarizeScopes } from '@/components/forms/scope-picker';
import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/feedback';
import type { ApiKeyObject } from '@/lib/client/types';
import { CellLabel, STACKED } from './stacked-table';

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
    <div className={STACKED.wrapper}>
      <table className={STACKED.table} role="table">
        <thead className={STACKED.head} role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader" className={STACKED.headCell}>Label</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Scopes</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Mode</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>IP allow list</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Last used</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Created</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody className={STACKED.body} role="rowgroup">
          {keys.map((key) => {
            const scopes = key.scopes.map((scope) => scope.scope);
            return (
              <tr key={key.id} data-api-key-row={key.label} className={STACKED.row} role="row">
                <td className={STACKED.cell} role="cell">
                  <p className="font-medium text-slate-900 wrap-break-word">{key.label}</p>
                  <p className="font-mono text-xs text-slate-600">{key.public_key.slice(0, 16)}…</p>
                </td>
                <td className={`${STACKED.cell} text-slate-700`} role="cell" title={scopes.join('\n')}>
                  <CellLabel>Scopes</CellLabel>
                  <span className="wrap-break-word">{summarizeScopes(scopes)}</span>
                </td>
                <td className={`${STACKED.cell} lg:whitespace-nowrap`} role="cell">
                  <CellLabel>Mode</CellLabel>
                  <Badge tone={key.sandbox ? 'amber' : 'green'}>{key.sandbox ? 'Sandbox' : 'Live'}</Badge>
                  {canEdit ? (
                    <button type="button" className="ml-2 text-xs text-brand-700 underline" onClick={() => onToggleSandbox(key)} aria-label={`${key.sandbox ? 'Go live with' : 'Use sandbox for'} ${key.label}`}>
                      {key.sandbox ? 'Go live' : 'Use sandbox'}
                    </button>
                  ) : null}
                </td>
                <td className={`${STACKED.cell} text-xs text-slate-700`} role="cell">
                  <CellLabel>IP allow list</CellLabel>
                  {key.ip_allow_list.length ? <span className="font-mono wrap-break-word">{key.ip_allow_list.join(', ')}</span> : <span className="text-slate-600">Any address</span>}
                </td>
                <td className={`${STACKED.cell} text-slate-600`} role="cell">
                  <CellLabel>Last used</CellLabel>
                  {formatDate(key.last_used_at)}
                </td>
                <td className={`${STACKED.cell} text-slate-600`} role="cell">
                  <CellLabel>Created</CellLabel>
                  {formatDate(key.created_at)}
                </td>
                <td className={`${STACKED.cell} lg:whitespace-nowrap lg:text-right`} role="cell">
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
