'use client';

import Link from 'next/link';
import { describeRecipient } from '@/components/dialogs/route-dialogs';
import { Button } from '@/components/ui/button';
import type { RouteObject } from '@/lib/client/types';
import { DataTable, type Column, type TableState } from './data-table';
import { ReceiverRequests, ReceiverStatus } from './receiver-cells';

export function RouteTable({
  accountId,
  routes,
  state,
  canEdit,
  canDelete,
  onToggle,
  onEdit,
  onDelete,
}: {
  accountId: string;
  routes: RouteObject[] | undefined;
  state?: TableState;
  canEdit: boolean;
  canDelete: boolean;
  onToggle: (route: RouteObject) => void;
  onEdit: (route: RouteObject) => void;
  onDelete: (route: RouteObject) => void;
}) {
  const columns: Column<RouteObject>[] = [
    {
      key: 'route',
      header: 'Route',
      className: 'lg:max-w-xs lg:min-w-56',
      cell: (route) => (
        <>
          <Link
            href={`/${accountId}/routes/${route.id}`}
            className="font-medium text-brand-700 wrap-break-word hover:underline"
          >
            {route.name}
          </Link>
          <p className="font-mono text-xs text-slate-600 wrap-anywhere">{route.url}</p>
        </>
      ),
    },
    {
      key: 'recipient',
      header: 'Recipient',
      cardLabel: true,
      className: 'text-xs lg:max-w-56',
      cell: (route) => (
        <span className={route.recipient.includes('@') ? 'font-mono wrap-anywhere' : 'text-slate-700 wrap-break-word'}>
          {describeRecipient(route.recipient)}
        </span>
      ),
    },
    { key: 'status', header: 'Status', cardLabel: true, cell: (route) => <ReceiverStatus receiver={route} /> },
    {
      key: 'requests',
      header: 'Requests',
      cardLabel: true,
      className: 'text-xs text-slate-700 lg:whitespace-nowrap',
      cell: (route) => <ReceiverRequests receiver={route} />,
    },
    {
      key: 'actions',
      header: 'Actions',
      isHeaderHidden: true,
      className: 'lg:whitespace-nowrap lg:text-right',
      cell: (route) => (
        <>
          {canEdit ? (
            <>
              <Button
                variant="ghost"
                size="sm"
                onClick={() => onToggle(route)}
                aria-label={`${route.enabled ? 'Disable' : 'Enable'} ${route.name}`}
              >
                {route.enabled ? 'Disable' : 'Enable'}
              </Button>
              <Button variant="ghost" size="sm" onClick={() => onEdit(route)} aria-label={`Edit ${route.name}`}>
                Edit
              </Button>
            </>
          ) : null}
          {canDelete ? (
            <Button
              variant="ghost"
              size="sm"
              className="text-red-700"
              onClick={() => onDelete(route)}
              aria-label={`Delete ${route.name}`}
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
      caption="Routes"
      columns={columns}
      rows={routes}
      rowKey={(route) => route.id}
      rowAttributes={(route) => ({ 'data-route-row': route.name })}
      {...state}
    />
  );
}
