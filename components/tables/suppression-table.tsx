'use client';

import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/feedback';
import { formatDateTime } from '@/lib/client/format';
import type { SuppressionObject } from '@/lib/client/types';
import { CellLabel, STACKED } from './stacked-table';

export const KIND_LABELS: Record<SuppressionObject['kind'], string> = { bounce: 'Hard bounce', complaint: 'Complaint', manual: 'Added by hand', protected: 'Protected' };
const KIND_TONES = { bounce: 'red', complaint: 'amber', manual: 'slate', protected: 'blue' } as const;

export function SuppressionTable({ suppressions, canDelete, onDelete }: { suppressions: SuppressionObject[]; canDelete: boolean; onDelete: (suppression: SuppressionObject) => void }) {
  return (
    <div className={STACKED.wrapper}>
      <table className={STACKED.table} role="table">
        <thead className={STACKED.head} role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader" className={STACKED.headCell}>Address</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Domain</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Reason</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Since</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Until</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody className={STACKED.body} role="rowgroup">
          {suppressions.map((suppression) => (
            <tr key={suppression.id} data-suppression-row={suppression.email} data-suppression-domain={suppression.domain ?? ''} className={STACKED.row} role="row">
              <td className={STACKED.cell} role="cell">
                <p className="font-medium wrap-anywhere">{suppression.email}</p>
              </td>
              <td className={`${STACKED.cell} text-sm text-slate-700`} role="cell">
                <CellLabel>Domain</CellLabel>
                {suppression.domain ?? <span className="text-slate-600">Every domain</span>}
              </td>
              <td className={`${STACKED.cell} lg:max-w-xs`} role="cell">
                <CellLabel>Reason</CellLabel>
                <Badge tone={KIND_TONES[suppression.kind] ?? 'slate'}>{KIND_LABELS[suppression.kind] ?? suppression.kind}</Badge>
                {suppression.reason ? <p className="mt-1 text-xs text-slate-700 wrap-anywhere">{suppression.reason}</p> : null}
              </td>
              <td className={`${STACKED.cell} text-xs text-slate-600 lg:whitespace-nowrap`} role="cell">
                <CellLabel>Since</CellLabel>
                {formatDateTime(suppression.created_at)}
              </td>
              <td className={`${STACKED.cell} text-xs text-slate-600 lg:whitespace-nowrap`} role="cell">
                <CellLabel>Until</CellLabel>
                {formatDateTime(suppression.expires_at)}
              </td>
              <td className={`${STACKED.cell} lg:whitespace-nowrap lg:text-right`} role="cell">
                {canDelete ? (
                  <Button variant="ghost" size="sm" className="text-red-700" onClick={() => onDelete(suppression)} aria-label={`Remove ${suppression.email}${suppression.domain ? ` for ${suppression.domain}` : ''}`}>
                    Remove
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
