'use client';

import Link from 'next/link';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/feedback';
import { ProgressBar } from '@/components/ui/progress-bar';
import { useUnscheduleCampaign, type CampaignObject } from '@/lib/client/campaign-queries';
import { formatCount, formatDateTime, formatDateTimeWithUtc } from '@/lib/client/format';

/** Where a campaign that left draft stands: being checked, waiting for its time, going out, or done. */
export function CampaignProgressPanel({
  accountId,
  campaign,
  canSend,
}: {
  accountId: string;
  campaign: CampaignObject;
  canSend: boolean;
}) {
  const unschedule = useUnscheduleCampaign(accountId, campaign.id);
  const canUnschedule = canSend && (campaign.status === 'validating' || campaign.status === 'scheduled');
  const counts = campaign.counts;
  const queued = counts?.queued ?? 0;
  const recipients = counts?.recipients ?? 0;
  const settled = counts ? counts.delivered + counts.bounced + counts.failed + counts.suppressed : 0;
  const waiting = formatCount(counts?.waiting ?? 0);
  const deferred = formatCount(counts?.deferred ?? 0);
  const isQueuing = queued < recipients;
  const text = {
    draft: '',
    validating:
      'Checking the campaign before it is scheduled: lists, sender domain, content. This takes a second or so.',
    scheduled:
      campaign.send_at && new Date(campaign.send_at) > new Date()
        ? `Scheduled for ${formatDateTimeWithUtc(campaign.send_at)}.`
        : 'Scheduled: sending starts in a moment.',
    sending: isQueuing
      ? `Sending: ${formatCount(queued)} of ${formatCount(recipients)} messages queued, ${formatCount(counts?.delivered ?? 0)} delivered so far.`
      : `Sending: ${formatCount(settled)} of ${formatCount(recipients)} messages have an outcome; ${waiting} waiting, ${deferred} deferred (retried later).`,
    paused: `Paused: ${formatCount(settled)} of ${formatCount(recipients)} messages have an outcome. The rest (${formatCount(recipients - settled)}) wait and are not sent until you resume.`,
    cancelled: counts
      ? `Cancelled ${formatDateTime(campaign.updated_at)}: ${formatCount(counts.cancelled)} of ${formatCount(recipients)} messages were not sent; ${formatCount(counts.delivered)} delivered before.`
      : 'Cancelled before sending started: no message was sent.',
    sent: `Sent${campaign.completed_at ? ` ${formatDateTime(campaign.completed_at)}` : ''}: every one of ${formatCount(recipients)} messages has an outcome.`,
  }[campaign.status];
  return (
    <section
      className="space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5"
      aria-label="Campaign progress"
    >
      <p className="text-sm text-slate-800" data-testid="campaign-progress">
        {text}
      </p>
      {campaign.status === 'sending' || campaign.status === 'paused' ? (
        <ProgressBar value={recipients ? settled / recipients : 0} label="Messages with an outcome" />
      ) : null}
      {campaign.started_at ? (
        <Link
          href={`/${accountId}/messages?campaign_id=${campaign.id}`}
          className="inline-block text-sm font-medium text-brand-700 hover:underline"
        >
          View this campaign&apos;s messages
        </Link>
      ) : null}
      {unschedule.error ? <Alert tone="error">{unschedule.error.message}</Alert> : null}
      {canUnschedule ? (
        <Button variant="secondary" isBusy={unschedule.isPending} onClick={() => unschedule.mutate()}>
          Unschedule
        </Button>
      ) : null}
    </section>
  );
}
