'use client';

import Link from 'next/link';
import { describeRecipient } from '@/components/dialogs/route-dialogs';
import { Button } from '@/components/ui/button';
import { WebhookStatusBadge } from '@/components/ui/webhook-status-badge';
import { formatCount, formatDateTime } from '@/lib/client/format';
import type { RouteObject } from '@/lib/client/types';
import { CellLabel, STACKED } from './stacked-table';

export function RouteTable({
  accountId,
  routes,
  canEdit,
  canDelete,
  onToggle,
  onEdit,
  onDelete,
}: {
  accountId: string;
  routes: RouteObject[];
  canEdit: boolean;
  canDelete: boolean;
  onToggle: (route: RouteObject) => void;
  onEdit: (route: RouteObject) => void;
  onDelete: (route: RouteObject) => void;
}) {
  return (
    <div className={STACKED.wrapper}>
      <table className={STACKED.table} role="table">
        <thead className={STACKED.head} role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader" className={STACKED.headCell}>Route</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Recipient</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Status</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Requests</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody className={STACKED.body} role="rowgroup">
          {routes.map((route) => (
            <tr key={route.id} data-route-row={route.name} className={STACKED.row} role="row">
              <td className={`${STACKED.cell} lg:max-w-xs lg:min-w-56`} role="cell">
                <Link href={`/${accountId}/routes/${route.id}`} className="font-medium text-brand-700 wrap-break-word hover:underline">
                  {route.name}
                </Link>
                <p className="font-mono text-xs text-slate-600 wrap-anywhere">{route.url}</p>
              </td>
              <td className={`${STACKED.cell} text-xs lg:max-w-56`} role="cell">
                <CellLabel>Recipient</CellLabel>
                <span className={route.recipient.includes('@') ? 'font-mono wrap-anywhere' : 'text-slate-700 wrap-break-word'}>{describeRecipient(route.recipient)}</span>
              </td>
              <td className={STACKED.cell} role="cell">
                <CellLabel>Status</CellLabel>
                <WebhookStatusBadge webhook={route} />
                {!route.enabled && route.disabled_reason ? <p className="mt-1 text-xs text-red-800 wrap-break-word" data-testid="disabled-reason">{route.disabled_reason}</p> : null}
              </td>
              <td className={`${STACKED.cell} text-xs text-slate-700 lg:whitespace-nowrap`} role="cell">
                <CellLabel>Requests</CellLabel>
                <span className="tabular-nums">
                  {formatCount(route.success_count)} ok · {formatCount(route.error_count)} failed
                </span>
                <span className="block text-slate-600">{route.last_request_at ? `Last ${formatDateTime(route.last_request_at)}` : 'No requests yet'}</span>
              </td>
              <td className={`${STACKED.cell} lg:whitespace-nowrap lg:text-right`} role="cell">
                {canEdit ? (
                  <>
                    <Button variant="ghost" size="sm" onClick={() => onToggle(route)} aria-label={`${route.enabled ? 'Disable' : 'Enable'} ${route.name}`}>
                      {route.enabled ? 'Disable' : 'Enable'}
                    </Button>
                    <Button variant="ghost" size="sm" onClick={() => onEdit(route)} aria-label={`Edit ${route.name}`}>
                      Edit
                    </Button>
                  </>
                ) : null}
                {canDelete ? (
                  <Button variant="ghost" size="sm" className="text-red-700" onClick={() => onDelete(route)} aria-label={`Delete ${route.name}`}>
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
