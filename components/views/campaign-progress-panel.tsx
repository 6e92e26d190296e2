'use client';

import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/feedback';
import { ProgressBar } from '@/components/ui/progress-bar';
import { useUnscheduleCampaign, type CampaignObject } from '@/lib/client/campaign-queries';
import { formatCount, formatDateTime } from '@/lib/client/format';

/** Where a campaign that left draft stands: being checked, waiting for its time, going out, or done. */
export function CampaignProgressPanel({ accountId, campaign, canSend }: { accountId: string; campaign: CampaignObject; canSend: boolean }) {
  const unschedule = useUnscheduleCampaign(accountId, campaign.id);
  const canUnschedule = canSend && (campaign.status === 'validating' || campaign.status === 'scheduled');
  const queued = campaign.counts?.queued ?? 0;
  const recipients = campaign.counts?.recipients ?? 0;
  const text = {
    draft: '',
    validating: 'Checking the campaign before it is scheduled: lists, sender domain, content. This takes a second or so.',
    scheduled: campaign.send_at && new Date(campaign.send_at) > new Date() ? `Scheduled for ${formatDateTime(campaign.send_at)}.` : 'Scheduled: sending starts in a moment.',
    sending: `Sending: ${formatCount(queued)} of ${formatCount(recipients)} messages queued.`,
    sent: `Sent${campaign.completed_at ? ` ${formatDateTime(campaign.completed_at)}` : ''}: ${formatCount(recipients)} recipients.`,
  }[campaign.status];
  return (
    <section className="space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5" aria-label="Campaign progress">
      <p className="text-sm text-slate-800" data-testid="campaign-progress">
        {text}
      </p>
      {campaign.status === 'sending' ? <ProgressBar value={recipients ? queued / recipients : 0} label="Messages queued" /> : null}
      {unschedule.error ? <Alert tone="error">{unschedule.error.message}</Alert> : null}
      {canUnschedule ? (
        <Button variant="secondary" isBusy={unschedule.isPending} onClick={() => unschedule.mutate()}>
          Unschedule
        </Button>
      ) : null}
    </section>
  );
}
