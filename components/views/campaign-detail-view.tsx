'use client';

import Link from 'next/link';
import { useAccountScopes } from '@/components/layout/use-account-scopes';
import { CampaignStatusBadge } from '@/components/ui/campaign-status-badge';
import { Alert, LoadingState, PageHeader } from '@/components/ui/feedback';
import { ApiError } from '@/lib/client/api';
import { useCampaign } from '@/lib/client/campaign-queries';
import { CampaignLifecycleButtons } from './campaign-lifecycle-buttons';
import { CampaignProgressPanel } from './campaign-progress-panel';
import { CampaignReportView } from './campaign-report-view';
import { CampaignVariantsPanel } from './campaign-variants-panel';
import { CampaignWizard } from './campaign-wizard';

/** One campaign: the wizard while it is a draft; its progress and report once it has left draft. */
export function CampaignDetailView({ accountId, campaignId }: { accountId: string; campaignId: string }) {
  const campaign = useCampaign(accountId, campaignId);
  const { can, isLoaded } = useAccountScopes(accountId);
  const back = (
    <Link href={`/${accountId}/campaigns`} className="text-sm font-medium text-brand-700 hover:underline">
      ← Campaigns
    </Link>
  );
  if (campaign.isPending || !isLoaded) return <LoadingState label="Loading the campaign…" />;
  if (campaign.error) {
    const isMissing = campaign.error instanceof ApiError && campaign.error.status === 404;
    return (
      <div className="space-y-4">
        {back}
        <Alert
          tone={isMissing ? 'warning' : 'error'}
          title={isMissing ? 'No such campaign' : 'The campaign could not be loaded'}
        >
          {isMissing ? 'It may have been deleted while it was a draft.' : campaign.error.message}
        </Alert>
      </div>
    );
  }
  const data = campaign.data;
  return (
    <>
      <div className="mb-2">{back}</div>
      <PageHeader title={data.name} description={<CampaignStatusBadge status={data.status} />} />
      <div className="mb-4">
        <CampaignLifecycleButtons
          accountId={accountId}
          campaign={data}
          canSend={can('campaigns:send')}
          canWrite={can('campaigns:write')}
        />
      </div>
      {data.status === 'draft' ? (
        <CampaignWizard key={data.id} accountId={accountId} campaign={data} canWrite={can('campaigns:write')} />
      ) : (
        <div className="space-y-4">
          <CampaignProgressPanel accountId={accountId} campaign={data} canSend={can('campaigns:send')} />
          {data.variants && data.started_at ? (
            <CampaignVariantsPanel accountId={accountId} campaign={data} canSend={can('campaigns:send')} />
          ) : null}
          {data.started_at ? (
            <CampaignReportView accountId={accountId} campaignId={data.id} isLive={data.status === 'sending'} />
          ) : null}
        </div>
      )}
    </>
  );
}
