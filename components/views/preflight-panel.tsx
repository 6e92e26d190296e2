'use client';

import { Button } from '@/components/ui/button';
import { Alert, Badge } from '@/components/ui/feedback';
import { useCampaign } from '@/lib/client/campaign-queries';
import { formatDateTime } from '@/lib/client/format';
import { usePreflight, type Preflight, type PreflightTarget } from '@/lib/client/preflight-queries';

type Check = Preflight['checks'][number];
type Status = Check['status'];

const LABELS: Record<string, string> = {
  sender: 'Sender',
  audience: 'Audience',
  content: 'Content',
  html_size: 'HTML size',
  text_part: 'Text part',
  unsubscribe_link: 'Unsubscribe link',
  links: 'Links',
  images: 'Images',
  spam_score: 'Spam score',
};
const LOOKS: Record<Status, { icon: string; label: string; tone: string; badge: 'green' | 'amber' | 'red' | 'slate' }> =
  {
    pass: { icon: '✓', label: 'Pass', tone: 'bg-green-100 text-green-800', badge: 'green' },
    warn: { icon: '!', label: 'Warning', tone: 'bg-amber-100 text-amber-800', badge: 'amber' },
    fail: { icon: '✕', label: 'Fail', tone: 'bg-red-100 text-red-800', badge: 'red' },
    skipped: { icon: '–', label: 'Skipped', tone: 'bg-slate-100 text-slate-600', badge: 'slate' },
  };
const RESULT_TONES: Record<string, string> = {
  ok: 'text-green-800',
  broken: 'text-red-700',
  skipped: 'text-slate-600',
};

type UrlResult = { status: string; result: string; url?: string; src?: string | null; alt?: string | null };
type Rule = { name: string; score: number; description: string };

/** What a check found, one line each: links and images with their results, the spam rules with their scores. */
function CheckDetails({ details }: { details: Record<string, unknown> }) {
  const urls = (details.links ?? details.images) as UrlResult[] | undefined;
  const rules = details.rules as Rule[] | undefined;
  if (urls?.length)
    return (
      <ul className="space-y-1 text-xs">
        {urls.map((entry, index) => (
          <li key={index} className="min-w-0 wrap-anywhere">
            <span className="font-mono">{entry.url ?? entry.src ?? '(no src)'}</span>
            {'alt' in entry ? (
              <span className={entry.alt === null ? 'text-amber-800' : 'text-slate-600'}>
                {' '}
                · {entry.alt === null ? 'no alt text' : `alt “${entry.alt}”`}
              </span>
            ) : null}{' '}
            · <span className={RESULT_TONES[entry.status] ?? ''}>{entry.result}</span>
          </li>
        ))}
      </ul>
    );
  if (rules?.length)
    return (
      <table className="text-xs">
        <tbody>
          {rules.map((rule) => (
            <tr key={rule.name} className="align-baseline">
              <td className="pr-2 text-right font-mono">{rule.score}</td>
              <td className="pr-2 font-mono">{rule.name}</td>
              <td className="text-slate-600">{rule.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  return null;
}

function CheckRow({ check }: { check: Check }) {
  const look = LOOKS[check.status];
  const hasDetails = Boolean(
    check.details &&
    ((check.details.links ?? check.details.images ?? check.details.rules) as unknown[] | undefined)?.length,
  );
  return (
    <li className="flex gap-3 py-2" data-check-id={check.id} data-status={check.status}>
      <span
        className={`mt-0.5 inline-flex size-5 shrink-0 items-center justify-center rounded-full text-xs font-bold ${look.tone}`}
        role="img"
        aria-label={look.label}
      >
        {look.icon}
      </span>
      <div className="min-w-0 flex-1 text-sm">
        <p>
          <span className="font-medium">{LABELS[check.id] ?? check.id}</span>{' '}
          <span className="wrap-anywhere text-slate-700">{check.message}</span>
        </p>
        {hasDetails ? (
          <details className="mt-1">
            <summary className="cursor-pointer text-xs font-medium text-brand-700">Details</summary>
            <div className="mt-1">
              <CheckDetails details={check.details!} />
            </div>
          </details>
        ) : null}
      </div>
    </li>
  );
}

/**
 * The preflight checks of a campaign or a template draft (marketing-api.md, Preflight): one row
 * per check with its status and message, details expandable. `runKey` changing runs it again.
 */
export function PreflightPanel({
  accountId,
  target,
  runKey,
}: {
  accountId: string;
  target: PreflightTarget;
  runKey: string;
}) {
  const preflight = usePreflight(accountId, target, runKey);
  const data = preflight.data;
  return (
    <section
      aria-labelledby="preflight-heading"
      className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5"
      data-testid="preflight-panel"
      data-state={preflight.isFetching ? 'running' : (data?.status ?? 'none')}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="preflight-heading" className="flex items-center gap-2 text-base font-semibold">
          Preflight
          {data ? <Badge tone={LOOKS[data.status].badge}>{LOOKS[data.status].label}</Badge> : null}
        </h2>
        <div className="flex items-center gap-2 text-xs text-slate-600">
          <span role="status">
            {preflight.isFetching ? 'Checking…' : data ? `Checked ${formatDateTime(data.checked_at)}` : null}
          </span>
          <Button
            variant="secondary"
            size="sm"
            disabled={preflight.isFetching}
            onClick={() => void preflight.refetch()}
          >
            Check again
          </Button>
        </div>
      </div>
      {preflight.error ? (
        <div className="mt-2">
          <Alert tone="error" title="Preflight could not run">
            {preflight.error.message}
          </Alert>
        </div>
      ) : null}
      {data ? (
        <ul className="mt-2 divide-y divide-slate-100">
          {data.checks.map((check) => (
            <CheckRow key={check.id} check={check} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** The campaign wizard's panel: runs again after each save of the draft and on each step (Review included). */
export function CampaignPreflightPanel({
  accountId,
  campaignId,
  step,
}: {
  accountId: string;
  campaignId: string;
  step: string;
}) {
  const campaign = useCampaign(accountId, campaignId);
  return (
    <PreflightPanel
      accountId={accountId}
      target={{ kind: 'campaign', campaignId }}
      runKey={`${campaign.data?.updated_at ?? ''}|${step}`}
    />
  );
}
