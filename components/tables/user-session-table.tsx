'use client';

import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/feedback';
import { formatDateTime } from '@/lib/client/format';
import type { UserSessionObject } from '@/lib/client/profile-queries';
import { DataTable, type Column, type TableState } from './data-table';

/** The signed-in person's sessions: this device first and marked, each other one with End. */
export function UserSessionTable({
  sessions,
  onEnd,
  ...state
}: { sessions: UserSessionObject[] | undefined; onEnd: (session: UserSessionObject) => void } & TableState) {
  const columns: Column<UserSessionObject>[] = [
    {
      key: 'device',
      header: 'Device',
      className: 'lg:max-w-sm',
      cell: (session) => (
        <>
          <span className="block font-medium text-slate-900" title={session.user_agent ?? undefined}>
            {session.device}
          </span>
          {session.is_current ? (
            <span className="mt-1 flex">
              <Badge tone="green">This device</Badge>
            </span>
          ) : null}
        </>
      ),
    },
    {
      key: 'address',
      header: 'Address',
      cardLabel: true,
      className: 'font-mono text-xs text-slate-700 wrap-anywhere',
      cell: (session) => session.ip ?? 'unknown',
    },
    {
      key: 'started',
      header: 'Signed in',
      cardLabel: true,
      className: 'text-xs text-slate-700 lg:whitespace-nowrap',
      cell: (session) => formatDateTime(session.created_at),
    },
    {
      key: 'seen',
      header: 'Last seen',
      cardLabel: true,
      className: 'text-xs text-slate-700 lg:whitespace-nowrap',
      cell: (session) => (session.is_current ? 'Now' : formatDateTime(session.last_seen_at)),
    },
    {
      key: 'actions',
      header: 'Actions',
      isHeaderHidden: true,
      className: 'lg:whitespace-nowrap lg:text-right',
      cell: (session) =>
        session.is_current ? null : (
          <Button
            variant="ghost"
            size="sm"
            className="text-red-700"
            onClick={() => onEnd(session)}
            aria-label={`End the session of ${session.device} from ${session.ip ?? 'an unknown address'}`}
          >
            End
          </Button>
        ),
    },
  ];
  const rows = sessions ? [...sessions].sort((a, b) => Number(b.is_current) - Number(a.is_current)) : undefined;
  return (
    <DataTable
      caption="Your sessions"
      columns={columns}
      rows={rows}
      rowKey={(session) => session.id}
      rowAttributes={(session) => ({ 'data-session-row': session.is_current ? 'current' : 'other' })}
      {...state}
    />
  );
}
