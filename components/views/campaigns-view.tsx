'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useAccountScopes } from '@/components/layout/use-account-scopes';
import { CampaignTable } from '@/components/tables/campaign-table';
import { Button } from '@/components/ui/button';
import { Alert, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { Field, Select } from '@/components/ui/field';
import { ApiError } from '@/lib/client/api';
import { useCampaigns, useCreateCampaign } from '@/lib/client/campaign-queries';
import { CAMPAIGN_STATUSES, type CampaignStatus } from '@/lib/core/campaigns/schemas';

const PAGE_SIZE = 25;

/** The account's campaigns, newest first, filtered by status; "New campaign" opens a fresh draft in the wizard. */
export function CampaignsView({ accountId }: { accountId: string }) {
  const router = useRouter();
  const { can } = useAccountScopes(accountId);
  const [status, setStatus] = useState<CampaignStatus | ''>('');
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const campaigns = useCampaigns(
    accountId,
    new URLSearchParams({
      limit: String(PAGE_SIZE),
      ...(status ? { status } : {}),
      ...(cursor ? { after: cursor } : {}),
    }).toString(),
  );
  const create = useCreateCampaign(accountId);
  const rows = campaigns.data?.data ?? [];
  const startDraft = async () => {
    const draft = await create.mutateAsync({ name: `Untitled campaign ${new Date().toLocaleDateString()}` });
    router.push(`/${accountId}/campaigns/${draft.id}`);
  };
  const newButton = can('campaigns:write') ? (
    <Button onClick={() => void startDraft().catch(() => undefined)} isBusy={create.isPending}>
      New campaign
    </Button>
  ) : null;

  return (
    <>
      <PageHeader
        title="Campaigns"
        description="Marketing mail to your lists: drafted here, checked before it goes, sent from a marketing domain with an unsubscribe link in every message."
        actions={newButton}
      />
      <div className="space-y-4">
        {create.error ? (
          <Alert tone="error" title="The draft could not be created">
            {create.error.message}
          </Alert>
        ) : null}
        <Field label="Status" htmlFor="campaign-status-filter" isCompact className="max-w-xs">
          <Select
            aria-label="Filter campaigns by status"
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as CampaignStatus | '');
              setCursors([]);
            }}
          >
            <option value="">All</option>
            {CAMPAIGN_STATUSES.map((value) => (
              <option key={value} value={value}>
                {value[0].toUpperCase() + value.slice(1)}
              </option>
            ))}
          </Select>
        </Field>
        {campaigns.isPending ? <LoadingState label="Loading campaigns…" /> : null}
        {campaigns.error ? (
          <Alert
            tone={campaigns.error instanceof ApiError && campaigns.error.status === 403 ? 'warning' : 'error'}
            title="Campaigns could not be loaded"
          >
            {campaigns.error.message}
          </Alert>
        ) : null}
        {campaigns.data && rows.length === 0 ? (
          <EmptyState
            title={status || cursor ? 'No campaigns match' : 'No campaigns yet'}
            action={status || cursor ? null : newButton}
          >
            {status || cursor
              ? 'Choose another status, or all of them.'
              : 'A campaign goes to the confirmed members of your lists. Start a draft: it saves as you go.'}
          </EmptyState>
        ) : null}
        {rows.length > 0 ? <CampaignTable accountId={accountId} campaigns={rows} /> : null}
        {cursors.length > 0 || campaigns.data?.pagination.has_more ? (
          <div className="flex justify-end gap-2">
            <Button
              variant="secondary"
              disabled={cursors.length === 0}
              onClick={() => setCursors(cursors.slice(0, -1))}
            >
              Previous
            </Button>
            <Button
              variant="secondary"
              disabled={!campaigns.data?.pagination.has_more}
              onClick={() =>
                campaigns.data?.pagination.next_cursor &&
                setCursors([...cursors, campaigns.data.pagination.next_cursor])
              }
            >
              Next
            </Button>
          </div>
        ) : null}
      </div>
    </>
  );
}
