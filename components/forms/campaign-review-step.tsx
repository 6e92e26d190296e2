'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Field, TextInput } from '@/components/ui/field';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Alert, LoadingState } from '@/components/ui/feedback';
import { TemplatePreviewFrame } from '@/components/ui/template-preview-frame';
import { stepOfField, WIZARD_STEPS, type WizardStep } from '@/lib/client/campaign-draft';
import { useCampaignCheck, useSendCampaign, type CampaignCheck } from '@/lib/client/campaign-queries';
import { formatCount, formatDateTimeWithUtc } from '@/lib/client/format';
import { preheaderOf } from '@/lib/client/preheader';

export type FieldProblem = { field: string; message: string };

/** Failures with what each means and a way to the step that fixes it (validation's and the check's alike). */
export function CampaignProblemList({
  problems,
  onGo,
}: {
  problems: FieldProblem[];
  onGo: (step: WizardStep) => void;
}) {
  return (
    <ul className="space-y-2" data-testid="campaign-problems">
      {problems.map((problem, index) => {
        const step = stepOfField(problem.field);
        const label = WIZARD_STEPS.find((candidate) => candidate.name === step)!.label;
        return (
          <li
            key={index}
            className="flex flex-wrap items-baseline justify-between gap-2 text-sm"
            data-problem-field={problem.field}
          >
            <span className="min-w-0 wrap-anywhere">{problem.message}</span>
            <a
              href={`#step-${step}`}
              className="shrink-0 font-medium text-brand-700 underline"
              onClick={(event) => {
                event.preventDefault();
                onGo(step);
              }}
            >
              Fix in {label}
            </a>
          </li>
        );
      })}
    </ul>
  );
}

/** datetime-local value (the viewer's time) to RFC 3339. */
const toRfc3339 = (local: string) => new Date(local).toISOString();

const contactsLabel = (count: number) => `${formatCount(count)} ${count === 1 ? 'contact' : 'contacts'}`;
const senderLabel = (from: CampaignCheck['from']) =>
  from ? (from.name ? `${from.name} <${from.email}>` : from.email) : '—';
const listsLabel = (lists: CampaignCheck['lists']) =>
  lists.length ? lists.map((list) => list.name ?? '(deleted list)').join(', ') : '—';
const trackingLabel = (tracking: CampaignCheck['tracking']) =>
  `Opens ${tracking.open ? 'on' : 'off'}, clicks ${tracking.click ? 'on' : 'off'}`;

/** Above this audience, sending asks for the number typed, not a click. */
export const TYPED_CONFIRMATION_ABOVE = 1000;

/** What would go out and to whom: the summary on Review and in the confirmation alike. */
function CampaignSummary({ check, sendAt }: { check: CampaignCheck; sendAt?: string | null }) {
  const personal = check.preview && check.preview.subject !== check.subject ? check.preview : null;
  const rows: [string, ReactNode][] = [
    [
      'Subject',
      <>
        {check.subject || '—'}
        {/* Personalised: what one real member gets, so the placeholders are seen to work. */}
        {personal ? (
          <span className="block text-xs font-normal text-slate-600">
            {personal.sample_email} gets: {personal.subject}
          </span>
        ) : null}
      </>,
    ],
    ['Preview text', preheaderOf(check.preview?.html) ?? '—'],
    ['From', senderLabel(check.from)],
    ['Reply-to', check.reply_to ? senderLabel(check.reply_to) : 'The sender'],
    ['Lists', listsLabel(check.lists)],
    ['Audience now', contactsLabel(check.audience)],
    ['Tracking', trackingLabel(check.tracking)],
  ];
  if (sendAt !== undefined) rows.push(['Schedule', sendAt ? formatDateTimeWithUtc(toRfc3339(sendAt)) : 'Now']);
  return (
    <dl className="grid grid-cols-[auto_1fr] content-start gap-x-4 gap-y-1 text-sm" data-testid="campaign-summary">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-slate-600">{label}</dt>
          <dd className="min-w-0 font-medium wrap-anywhere">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * Step 5: what would go out, the checks sending would run, then Send now or Schedule, each confirmed
 * with the audience counted now; above TYPED_CONFIRMATION_ABOVE recipients the number is typed.
 * `preflight`: the preflight report's place (issue 31 builds it separately), shown above the summary.
 */
export function CampaignReviewStep({
  accountId,
  campaignId,
  flush,
  onGo,
  preflight,
  abPlan,
}: {
  accountId: string;
  campaignId: string;
  flush: () => Promise<boolean>;
  onGo: (step: WizardStep) => void;
  preflight?: ReactNode;
  /** An A/B test's plan in numbers, for the audience counted now. */
  abPlan?: (audience: number) => ReactNode;
}) {
  // The check reads what the server holds, so the latest typing is saved before it runs.
  // A result from an earlier visit is dropped: it would show failures already fixed.
  const client = useQueryClient();
  const [isFlushed, setIsFlushed] = useState(false);
  useEffect(() => {
    client.removeQueries({ queryKey: ['campaign-check', accountId, campaignId] });
    void flush().finally(() => setIsFlushed(true));
  }, [client, accountId, campaignId, flush]);
  const check = useCampaignCheck(accountId, campaignId, { enabled: isFlushed });
  const send = useSendCampaign(accountId, campaignId);
  const [sendAt, setSendAt] = useState('');
  // The moment being confirmed: null for now, a local time for a schedule; undefined while no dialog is open.
  const [confirming, setConfirming] = useState<string | null | undefined>(undefined);
  const [isPreparing, setIsPreparing] = useState(false);
  const [typed, setTyped] = useState('');
  const isValid = check.data?.is_valid === true;
  // Nothing leaves on one click: the dialog names the audience as counted the moment it opens.
  const ask = async (when: string | null) => {
    setIsPreparing(true);
    try {
      if (!(await flush())) return;
      const fresh = await check.refetch();
      if (fresh.data?.is_valid) {
        setTyped('');
        setConfirming(when);
      }
    } finally {
      setIsPreparing(false);
    }
  };
  const audience = check.data?.audience ?? 0;
  const needsTyping = audience > TYPED_CONFIRMATION_ABOVE;
  const isTypedRight = typed.replace(/\D/g, '') === String(audience);
  const title =
    confirming === null ? `Send to ${contactsLabel(audience)} now?` : `Schedule for ${contactsLabel(audience)}?`;
  return (
    <div className="space-y-4">
      {check.isPending || !isFlushed ? <LoadingState label="Checking the campaign…" /> : null}
      {check.error ? (
        <Alert tone="error" title="The check could not run">
          {check.error.message}
        </Alert>
      ) : null}
      {check.data && !isValid ? (
        <Alert tone="warning" title="Not ready to send">
          <CampaignProblemList problems={check.data.errors} onGo={onGo} />
        </Alert>
      ) : null}
      {check.data && isValid ? (
        <Alert tone="success" title="Ready to send">
          <span data-testid="review-audience">
            {formatCount(check.data.audience)} {check.data.audience === 1 ? 'recipient' : 'recipients'} right now, from{' '}
            {check.data.sender_domain}.
          </span>{' '}
          Every message carries an unsubscribe link and one-click unsubscribe headers.
        </Alert>
      ) : null}
      {check.data && isValid && abPlan ? abPlan(check.data.audience) : null}
      {/* Preflight slot: the preflight report (its own change) renders here, above what goes out. */}
      {preflight ? <div data-slot="preflight">{preflight}</div> : null}
      {check.data ? (
        <div className="grid gap-4 lg:grid-cols-2">
          <CampaignSummary check={check.data} />
          {check.data.preview?.html ? (
            <div className="space-y-1">
              <p className="text-sm text-slate-600">Preview, as {check.data.preview.sample_email} would see it</p>
              <TemplatePreviewFrame html={check.data.preview.html} title="Campaign preview" heightClass="h-64" />
            </div>
          ) : check.data.preview?.text ? (
            <pre className="max-h-64 overflow-auto rounded border border-slate-200 p-3 text-xs whitespace-pre-wrap">
              {check.data.preview.text}
            </pre>
          ) : null}
        </div>
      ) : null}
      {send.error ? (
        <Alert tone="error" title="Not sent">
          {send.error.message}
        </Alert>
      ) : null}
      <div className="flex flex-wrap items-end justify-between gap-4 border-t border-slate-200 pt-4">
        <div className="flex flex-wrap items-end gap-2">
          <Field
            label="Send at"
            htmlFor="campaign-send-at"
            hint={sendAt ? formatDateTimeWithUtc(toRfc3339(sendAt)) : 'Your local time.'}
          >
            <TextInput
              id="campaign-send-at"
              type="datetime-local"
              value={sendAt}
              onChange={(event) => setSendAt(event.target.value)}
            />
          </Field>
          <Button
            variant="secondary"
            disabled={!isValid || !sendAt}
            isBusy={isPreparing && Boolean(sendAt)}
            onClick={() => void ask(sendAt)}
          >
            Schedule…
          </Button>
        </div>
        <Button disabled={!isValid} isBusy={isPreparing && !sendAt} onClick={() => void ask(null)}>
          Send now…
        </Button>
      </div>
      <ConfirmDialog
        isOpen={confirming !== undefined && Boolean(check.data)}
        title={title}
        variant="primary"
        isConfirmDisabled={needsTyping && !isTypedRight}
        confirmLabel={confirming === null ? `Send to ${contactsLabel(audience)}` : 'Schedule'}
        onConfirm={() => send.mutateAsync(confirming ? { send_at: toRfc3339(confirming) } : {})}
        onClose={() => setConfirming(undefined)}
      >
        {check.data ? <CampaignSummary check={check.data} sendAt={confirming ?? null} /> : null}
        <p>
          {confirming
            ? `It goes out at ${formatDateTimeWithUtc(toRfc3339(confirming))}, to whoever is on the lists then.`
            : 'It starts going out at once and cannot be recalled once delivered.'}
        </p>
        {needsTyping ? (
          <Field
            label={`Type ${formatCount(audience)} to confirm`}
            htmlFor="campaign-confirm-count"
            hint="The number of recipients, so that a large send is never one click away."
          >
            <TextInput
              id="campaign-confirm-count"
              inputMode="numeric"
              autoComplete="off"
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
            />
          </Field>
        ) : null}
      </ConfirmDialog>
    </div>
  );
}
