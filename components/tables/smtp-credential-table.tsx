'use client';

import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/feedback';
import { formatDateTime } from '@/lib/client/format';
import type { SmtpCredentialObject } from '@/lib/client/types';
import { CellLabel, STACKED } from './stacked-table';

export function SmtpCredentialTable({ credentials, canDelete, onDelete }: { credentials: SmtpCredentialObject[]; canDelete: boolean; onDelete: (credential: SmtpCredentialObject) => void }) {
  return (
    <div className={STACKED.wrapper}>
      <table className={STACKED.table} role="table">
        <thead className={STACKED.head} role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader" className={STACKED.headCell}>Credential</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Username</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Domains</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Created</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody className={STACKED.body} role="rowgroup">
          {credentials.map((credential) => (
            <tr key={credential.id} data-smtp-credential-row={credential.name} className={STACKED.row} role="row">
              <td className={`${STACKED.cell} lg:max-w-xs`} role="cell">
                <span className="font-medium text-slate-900 wrap-break-word">{credential.name}</span> {credential.sandbox ? <Badge tone="amber">Sandbox</Badge> : null}
              </td>
              <td className={`${STACKED.cell} font-mono text-xs text-slate-700`} role="cell">
                <CellLabel>Username</CellLabel>
                <span className="wrap-anywhere">{credential.username}</span>
              </td>
              <td className={`${STACKED.cell} text-xs text-slate-700`} role="cell">
                <CellLabel>Domains</CellLabel>
                {credential.scope === 'global' ? 'All domains' : <span className="wrap-anywhere">{credential.domains.join(', ')}</span>}
              </td>
              <td className={`${STACKED.cell} text-xs text-slate-700 lg:whitespace-nowrap`} role="cell">
                <CellLabel>Created</CellLabel>
                {formatDateTime(credential.created_at)}
              </td>
              <td className={`${STACKED.cell} lg:whitespace-nowrap lg:text-right`} role="cell">
                {canDelete ? (
                  <Button variant="ghost" size="sm" className="text-red-700" onClick={() => onDelete(credential)} aria-label={`Delete ${credential.name}`}>
                    Delete
                  </Button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
