'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field, TextInput } from '@/components/ui/field';
import { Alert, LoadingState } from '@/components/ui/feedback';
import { stepOfField, WIZARD_STEPS, type WizardStep } from '@/lib/client/campaign-draft';
import { useCampaignCheck, useSendCampaign } from '@/lib/client/campaign-queries';
import { formatCount } from '@/lib/client/format';

export type FieldProblem = { field: string; message: string };

/** Failures with what each means and a way to the step that fixes it (validation's and the check's alike). */
export function CampaignProblemList({ problems, onGo }: { problems: FieldProblem[]; onGo: (step: WizardStep) => void }) {
  return (
    <ul className="space-y-2" data-testid="campaign-problems">
      {problems.map((problem, index) => {
        const step = stepOfField(problem.field);
        const label = WIZARD_STEPS.find((candidate) => candidate.name === step)!.label;
        return (
          <li key={index} className="flex flex-wrap items-baseline justify-between gap-2 text-sm" data-problem-field={problem.field}>
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

/** Step 5: the checks sending would run, then Send now or Schedule. The worker checks again before sending. */
export function CampaignReviewStep({ accountId, campaignId, flush, onGo }: { accountId: string; campaignId: string; flush: () => Promise<boolean>; onGo: (step: WizardStep) => void }) {
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
  const isValid = check.data?.is_valid === true;
  const submit = async (when: string | null) => {
    if (!(await flush())) return;
    const fresh = await check.refetch();
    if (!fresh.data?.is_valid) return;
    send.mutate(when ? { send_at: toRfc3339(when) } : {});
  };
  return (
    <div className="space-y-4">
      {check.isPending || !isFlushed ? <LoadingState label="Checking the campaign…" /> : null}
      {check.error ? <Alert tone="error" title="The check could not run">{check.error.message}</Alert> : null}
      {check.data && !isValid ? (
        <Alert tone="warning" title="Not ready to send">
          <CampaignProblemList problems={check.data.errors} onGo={onGo} />
        </Alert>
      ) : null}
      {check.data && isValid ? (
        <Alert tone="success" title="Ready to send">
          <span data-testid="review-audience">
            {formatCount(check.data.audience)} {check.data.audience === 1 ? 'recipient' : 'recipients'} right now, from {check.data.sender_domain}.
          </span>{' '}
          Every message carries an unsubscribe link and one-click unsubscribe headers.
        </Alert>
      ) : null}
      {send.error ? <Alert tone="error" title="Not sent">{send.error.message}</Alert> : null}
      <div className="flex flex-wrap items-end justify-between gap-4 border-t border-slate-200 pt-4">
        <div className="flex flex-wrap items-end gap-2">
          <Field label="Send at" htmlFor="campaign-send-at" hint="Your local time.">
            <TextInput id="campaign-send-at" type="datetime-local" value={sendAt} onChange={(event) => setSendAt(event.target.value)} />
          </Field>
          <Button variant="secondary" disabled={!isValid || !sendAt} isBusy={send.isPending && Boolean(sendAt)} onClick={() => void submit(sendAt)}>
            Schedule
          </Button>
        </div>
        <Button disabled={!isValid} isBusy={send.isPending && !sendAt} onClick={() => void submit(null)}>
          Send now
        </Button>
      </div>
    </div>
  );
}
