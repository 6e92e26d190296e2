'use client';

import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { EMPTY_FILTERS, MessageFilterForm, type MessageFilters } from '@/components/forms/message-filter-form';
import { MessageTable } from '@/components/tables/message-table';
import { Button } from '@/components/ui/button';
import { Alert, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { useMessages } from '@/lib/client/queries';

const PAGE_SIZE = 50;

/** The message log: filters and cursors live in the page's URL, so a filtered view can be shared. */
export function MessagesView({ accountId }: { accountId: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const filters: MessageFilters = {
    ...EMPTY_FILTERS,
    ...Object.fromEntries([...params.entries()].filter(([key]) => key in EMPTY_FILTERS)),
  };
  const query = new URLSearchParams({
    limit: String(PAGE_SIZE),
    ...Object.fromEntries(Object.entries(filters).filter(([, value]) => value)),
  });
  // A campaign's messages (its page links here): kept apart from the filter form, and kept by it.
  const campaignId = params.get('campaign_id') ?? '';
  if (campaignId) query.set('campaign_id', campaignId);
  for (const cursor of ['after', 'before'] as const) if (params.get(cursor)) query.set(cursor, params.get(cursor)!);
  const messages = useMessages(accountId, query.toString());

  const go = (next: Record<string, string>) => {
    const search = new URLSearchParams(
      Object.entries({ campaign_id: campaignId, ...next }).filter(([, value]) => value),
    );
    router.push(`${pathname}${search.size ? `?${search}` : ''}`);
  };

  return (
    <>
      <PageHeader
        title="Messages"
        description="Every message sent from this account: its status, attempts and content while it is retained."
      />
      <div className="space-y-4">
        {campaignId ? (
          <Alert tone="info" title="One campaign's messages">
            Only the messages of{' '}
            <Link href={`/${accountId}/campaigns/${campaignId}`} className="font-medium underline">
              this campaign
            </Link>{' '}
            are shown.{' '}
            <Link href={`/${accountId}/messages`} className="font-medium underline">
              Show every message
            </Link>
          </Alert>
        ) : null}
        <MessageFilterForm key={params.toString()} initial={filters} onApply={(applied) => go({ ...applied })} />
        {messages.isPending ? <LoadingState label="Loading messages…" /> : null}
        {messages.error ? (
          <Alert tone="error" title="Messages could not be loaded">
            {messages.error.message}
          </Alert>
        ) : null}
        {messages.data && messages.data.data.length === 0 ? (
          <EmptyState title="No messages match">
            Messages appear here as soon as the API, SMTP or a campaign accepts them. Clear the filters, or send a first
            message.
          </EmptyState>
        ) : null}
        {messages.data && messages.data.data.length > 0 ? (
          <>
            <MessageTable accountId={accountId} messages={messages.data.data} />
            <div className="flex justify-end gap-2">
              <Button
                variant="secondary"
                disabled={!messages.data.pagination.previous_cursor}
                onClick={() => go({ ...filters, before: messages.data.pagination.previous_cursor ?? '' })}
              >
                Newer
              </Button>
              <Button
                variant="secondary"
                disabled={!messages.data.pagination.has_more}
                onClick={() => go({ ...filters, after: messages.data.pagination.next_cursor ?? '' })}
              >
                Older
              </Button>
            </div>
          </>
        ) : null}
      </div>
    </>
  );
}
