'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import {
  ActivityFilterForm,
  EMPTY_ACTIVITY_FILTERS,
  type ActivityFilters,
} from '@/components/forms/activity-filter-form';
import { AuditEventTable } from '@/components/tables/audit-event-table';
import { Button } from '@/components/ui/button';
import { Alert, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { ApiError } from '@/lib/client/api';
import { useAuditEvents } from '@/lib/client/audit-queries';

const PAGE_SIZE = 50;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The API's query for the page's filters: UTC days become RFC 3339 bounds, `to` included. */
function queryOf(filters: ActivityFilters, params: URLSearchParams): URLSearchParams {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  for (const name of ['actor_type', 'actor_id', 'action', 'resource_type', 'resource_id'] as const)
    if (filters[name]) query.set(name, filters[name]);
  if (DAY.test(filters.from)) query.set('from_time', `${filters.from}T00:00:00Z`);
  if (DAY.test(filters.to)) {
    const next = new Date(`${filters.to}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    query.set('to_time', next.toISOString());
  }
  for (const cursor of ['after', 'before'] as const) if (params.get(cursor)) query.set(cursor, params.get(cursor)!);
  return query;
}

/** Who changed what in the account, newest first; the filters and the page live in the URL. */
export function ActivityView({ accountId }: { accountId: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const filters: ActivityFilters = {
    ...EMPTY_ACTIVITY_FILTERS,
    ...Object.fromEntries([...params.entries()].filter(([key]) => key in EMPTY_ACTIVITY_FILTERS)),
  };
  const events = useAuditEvents(accountId, queryOf(filters, params).toString());
  const go = (next: Record<string, string>) => {
    const search = new URLSearchParams(Object.entries(next).filter(([, value]) => value));
    router.push(`${pathname}${search.size ? `?${search}` : ''}`, { scroll: false });
  };
  const rows = events.data?.data ?? [];
  const hasFilters = Object.values(filters).some(Boolean);
  const pagination = events.data?.pagination;

  return (
    <>
      <PageHeader
        title="Activity"
        description="Every change made to this account: by API keys, people in the dashboard, SMTP credentials, the operator's command line and Mailstead itself. Sending mail is not listed here; the Messages page has it."
      />
      <div className="space-y-4">
        <ActivityFilterForm key={params.toString()} initial={filters} onApply={(applied) => go({ ...applied })} />
        {events.isPending ? <LoadingState label="Loading activity…" /> : null}
        {events.error ? (
          events.error instanceof ApiError && events.error.status === 403 ? (
            <Alert tone="warning" title="You cannot view this account's activity">
              {events.error.message}
            </Alert>
          ) : (
            <Alert tone="error" title="Activity could not be loaded">
              {events.error.message}
            </Alert>
          )
        ) : null}
        {events.data && rows.length === 0 ? (
          <EmptyState title={hasFilters ? 'No activity matches' : 'No activity yet'}>
            {hasFilters
              ? 'Nothing recorded matches these filters. Clear them to see everything.'
              : 'Changes to domains, keys, contacts, campaigns and settings appear here as they happen.'}
          </EmptyState>
        ) : null}
        {rows.length > 0 ? <AuditEventTable accountId={accountId} events={rows} /> : null}
        {pagination && (pagination.has_more || params.get('after') || params.get('before')) ? (
          <div className="flex justify-end gap-2">
            <Button
              variant="secondary"
              disabled={!pagination.previous_cursor}
              onClick={() => go({ ...filters, before: pagination.previous_cursor ?? '' })}
            >
              Newer
            </Button>
            <Button
              variant="secondary"
              disabled={!pagination.has_more}
              onClick={() => go({ ...filters, after: pagination.next_cursor ?? '' })}
            >
              Older
            </Button>
          </div>
        ) : null}
      </div>
    </>
  );
}
