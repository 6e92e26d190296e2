'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Alert, Badge, LoadingState } from '@/components/ui/feedback';
import { waitLabel } from '@/lib/client/campaign-ab-draft';
import {
  useCampaignReport,
  useChooseCampaignVariant,
  type CampaignObject,
  type CampaignReport,
} from '@/lib/client/campaign-queries';
import { formatCount, formatDateTimeWithUtc, formatPercent } from '@/lib/client/format';
import { planAbSplit } from '@/lib/core/campaigns/ab-test-rules';

type Variant = CampaignReport['variants'][number];

const rateOf = (count: number, delivered: number) => (delivered > 0 ? count / delivered : 0);
const people = (count: number) => `${formatCount(count)} ${count === 1 ? 'person' : 'people'}`;

/** Where the test stands, in a sentence a sender can act on. */
function phaseSentence(campaign: CampaignObject, variants: Variant[], rest: number) {
  const metric = campaign.ab_test?.metric === 'clicks' ? 'unique clicks' : 'unique opens';
  const tested = (campaign.counts?.recipients ?? 0) - rest;
  if (campaign.ab_phase === 'testing')
    return `Sending the test to ${people(tested)}, split among ${variants.length} variants.`;
  if (campaign.ab_phase === 'waiting')
    return `The test went to ${people(tested)}. ${
      campaign.status === 'paused' ? 'The campaign is paused; once resumed, at' : 'At'
    } ${campaign.ab_wait_until ? formatDateTimeWithUtc(campaign.ab_wait_until) : 'the end of the wait'} the variant with the best rate of ${metric} goes to the other ${people(rest)}, unless you choose one first.`;
  const winner = variants.find((variant) => variant.is_winner);
  if (campaign.ab_phase === 'winner_sent' && winner)
    return `${winner.name} won and goes to the rest of the audience (${people(rest)}).`;
  return `Variants are compared by ${metric} after ${waitLabel(campaign.ab_test?.wait_minutes ?? 0)}.`;
}

/** The lead of the best variant over the next, in points of the metric's rate. */
function marginSentence(variants: Variant[], metric: 'opens' | 'clicks') {
  if (variants.length < 2) return null;
  const rate = (variant: Variant) => (metric === 'opens' ? variant.open_rate : variant.click_rate);
  const [best, next] = [...variants].sort((a, b) => rate(b) - rate(a));
  if (best.delivered === 0 && next.delivered === 0) return 'Nothing delivered yet: no variant leads.';
  const points = (rate(best) - rate(next)) * 100;
  if (points === 0) return `${best.name} and ${next.name} are level on ${metric === 'opens' ? 'open' : 'click'} rate.`;
  return `${best.name} leads ${next.name} by ${points.toFixed(1)} points of ${metric === 'opens' ? 'open' : 'click'} rate.`;
}

/** An A/B campaign once it has started: its phase and winner, the variants side by side, and the hand choice while it waits. */
export function CampaignVariantsPanel({
  accountId,
  campaign,
  canSend,
}: {
  accountId: string;
  campaign: CampaignObject;
  canSend: boolean;
}) {
  const report = useCampaignReport(accountId, campaign.id, campaign.status === 'sending');
  const choose = useChooseCampaignVariant(accountId, campaign.id);
  const [choosing, setChoosing] = useState<Variant | null>(null);
  const variants = report.data?.variants ?? [];
  const metric = campaign.ab_test?.metric ?? 'opens';
  // The split the server made when the audience was frozen: the same rule, so the same numbers.
  const split = planAbSplit(campaign.counts?.recipients ?? 0, campaign.ab_test?.test_percent ?? 0, variants.length);
  const rest = split?.rest ?? 0;
  const isWaiting = campaign.ab_phase === 'waiting' && (campaign.status === 'sending' || campaign.status === 'paused');
  const subjectOf = (id: string) =>
    campaign.variants?.find((variant) => variant.id === id)?.subject ?? campaign.subject ?? '(the template’s subject)';

  return (
    <section
      className="min-w-0 space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5"
      aria-label="A/B test"
      data-testid="ab-test-panel"
      data-phase={campaign.ab_phase ?? ''}
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-base font-semibold">A/B test</h2>
        {campaign.ab_phase ? (
          <Badge
            tone={campaign.ab_phase === 'waiting' ? 'amber' : campaign.ab_phase === 'winner_sent' ? 'green' : 'blue'}
          >
            {{ testing: 'Testing', waiting: 'Waiting for the winner', winner_sent: 'Winner sent' }[campaign.ab_phase]}
          </Badge>
        ) : null}
      </div>
      {report.isPending ? <LoadingState label="Loading the variants…" /> : null}
      {report.error ? (
        <Alert tone="error" title="The variants could not be loaded">
          {report.error.message}
        </Alert>
      ) : null}
      {report.data ? (
        <>
          <p className="text-sm text-slate-700" data-testid="ab-phase-sentence">
            {phaseSentence(campaign, variants, rest)}
          </p>
          <p className="text-sm text-slate-700" data-testid="ab-margin">
            {marginSentence(variants, metric)}
          </p>
          <ol className={`grid gap-3 sm:grid-cols-2 ${variants.length > 2 ? 'xl:grid-cols-4' : ''}`}>
            {variants.map((variant) => (
              <li
                key={variant.id}
                data-ab-variant={variant.id}
                className={`space-y-2 rounded-lg p-3 ring-1 ${variant.is_winner ? 'bg-green-50 ring-green-300' : 'ring-slate-200'}`}
              >
                <div className="flex items-center justify-between gap-2">
                  <p className="min-w-0 font-medium wrap-anywhere">{variant.name}</p>
                  {variant.is_winner ? <Badge tone="green">Winner</Badge> : null}
                </div>
                <p className="text-xs text-slate-600 wrap-anywhere">Subject: {subjectOf(variant.id)}</p>
                <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
                  <dt className="text-slate-600">Recipients</dt>
                  <dd className="text-right tabular-nums">{formatCount(variant.recipients)}</dd>
                  <dt className="text-slate-600">Delivered</dt>
                  <dd className="text-right tabular-nums">{formatCount(variant.delivered)}</dd>
                  <dt className={metric === 'opens' ? 'font-medium text-slate-900' : 'text-slate-600'}>Unique opens</dt>
                  <dd className="text-right tabular-nums">
                    {formatCount(variant.unique_opened)} ({formatPercent(variant.open_rate)})
                  </dd>
                  <dt className={metric === 'clicks' ? 'font-medium text-slate-900' : 'text-slate-600'}>
                    Unique clicks
                  </dt>
                  <dd className="text-right tabular-nums">
                    {formatCount(variant.unique_clicked)} ({formatPercent(variant.click_rate)})
                  </dd>
                  <dt className="text-slate-600">Unsubscribes</dt>
                  <dd className="text-right tabular-nums" data-figure="unsubscribed">
                    {formatCount(variant.unsubscribed)} (
                    {formatPercent(rateOf(variant.unsubscribed, variant.delivered))})
                  </dd>
                  <dt className="text-slate-600">Complaints</dt>
                  <dd className="text-right tabular-nums" data-figure="complained">
                    {formatCount(variant.complained)} ({formatPercent(rateOf(variant.complained, variant.delivered))})
                  </dd>
                </dl>
                {isWaiting && canSend ? (
                  <Button size="sm" variant="secondary" onClick={() => setChoosing(variant)}>
                    Choose this variant
                  </Button>
                ) : null}
              </li>
            ))}
          </ol>
        </>
      ) : null}
      <ConfirmDialog
        isOpen={choosing !== null}
        title={choosing ? `Send ${choosing.name} to the other ${people(rest)}?` : ''}
        confirmLabel={choosing ? `Send ${choosing.name} to ${people(rest)}` : 'Send'}
        variant="primary"
        onConfirm={() => choose.choose(choosing!.id)}
        onClose={() => setChoosing(null)}
      >
        <p>
          The test stops waiting: {choosing?.name} becomes the winner now, and everyone in the audience who has not had
          this campaign gets it. This cannot be undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}
