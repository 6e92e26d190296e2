'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { AbTestPlan, CampaignAbTestStep } from '@/components/forms/campaign-ab-test-step';
import { CampaignAudienceStep } from '@/components/forms/campaign-audience-step';
import { CampaignContentStep } from '@/components/forms/campaign-content-step';
import { CampaignProblemList, CampaignReviewStep } from '@/components/forms/campaign-review-step';
import { CampaignSettingsStep } from '@/components/forms/campaign-settings-step';
import { CampaignTestStep } from '@/components/forms/campaign-test-step';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Alert } from '@/components/ui/feedback';
import { CampaignPreflightPanel } from '@/components/views/preflight-panel';
import { draftValuesOf, WIZARD_STEPS, type DraftValues, type WizardStep } from '@/lib/client/campaign-draft';
import { useDeleteCampaign, type CampaignObject } from '@/lib/client/campaign-queries';
import { useCampaignAutosave, type SaveState } from '@/lib/client/use-campaign-autosave';
import { useUnsavedChangesWarning } from '@/lib/client/use-unsaved-changes-warning';

function SaveIndicator({ state }: { state: SaveState }) {
  const text = {
    saved: 'Saved',
    saving: 'Saving…',
    pending: 'Editing…',
    invalid: 'Not saved: fix the fields marked',
    error: 'Not saved',
  }[state.kind];
  const tone = state.kind === 'error' || state.kind === 'invalid' ? 'text-red-700' : 'text-slate-600';
  return (
    <p className={`text-sm ${tone}`} role="status" data-testid="save-state" data-state={state.kind}>
      {text}
      {state.kind === 'error' ? `: ${state.message}` : ''}
    </p>
  );
}

/** A draft campaign as five steps over one form that saves itself; a step is a view of the same draft, never a gate. */
export function CampaignWizard({
  accountId,
  campaign,
  canWrite,
}: {
  accountId: string;
  campaign: CampaignObject;
  canWrite: boolean;
}) {
  const router = useRouter();
  const form = useForm<DraftValues>({ defaultValues: draftValuesOf(campaign), disabled: !canWrite });
  const { state, flush } = useCampaignAutosave(accountId, campaign.id, form);
  useUnsavedChangesWarning(canWrite && state.kind !== 'saved');
  // The first save clears the campaign's reasons; the page keeps showing them while the user fixes them.
  const [reasons] = useState(campaign.validation_errors);
  const [step, setStep] = useState<WizardStep>(reasons.length ? 'review' : 'content');
  const [isDeleting, setIsDeleting] = useState(false);
  const remove = useDeleteCampaign(accountId);
  const index = WIZARD_STEPS.findIndex((candidate) => candidate.name === step);
  const go = (next: WizardStep) => {
    void flush();
    setStep(next);
  };

  return (
    <div className="space-y-4">
      {reasons.length ? (
        <Alert tone="error" title="Validation sent this campaign back to draft">
          <CampaignProblemList problems={reasons} onGo={go} />
        </Alert>
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <SaveIndicator state={state} />
        {canWrite ? (
          <Button variant="ghost" size="sm" onClick={() => setIsDeleting(true)}>
            Delete draft…
          </Button>
        ) : null}
      </div>
      {form.formState.errors.root ? <Alert tone="error">{form.formState.errors.root.message}</Alert> : null}
      <nav aria-label="Campaign steps" className="-mx-1">
        <ol className="flex flex-wrap gap-1 px-1">
          {WIZARD_STEPS.map((candidate, position) => (
            <li key={candidate.name}>
              <button
                type="button"
                id={`step-${candidate.name}`}
                aria-current={candidate.name === step ? 'step' : undefined}
                onClick={() => go(candidate.name)}
                className={`rounded-md px-3 py-2 text-sm ${candidate.name === step ? 'bg-brand-600 font-medium text-white' : 'bg-white text-slate-700 ring-1 ring-slate-200 hover:bg-slate-50'}`}
              >
                {position + 1}. {candidate.label}
              </button>
            </li>
          ))}
        </ol>
      </nav>
      <section
        aria-labelledby="campaign-step-heading"
        className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5"
      >
        <h2 id="campaign-step-heading" className="mb-4 text-base font-semibold">
          {WIZARD_STEPS[index].label}
        </h2>
        {step === 'content' ? <CampaignContentStep accountId={accountId} form={form} /> : null}
        {step === 'audience' ? <CampaignAudienceStep accountId={accountId} form={form} /> : null}
        {step === 'settings' ? <CampaignSettingsStep accountId={accountId} form={form} /> : null}
        {step === 'ab' ? <CampaignAbTestStep accountId={accountId} form={form} /> : null}
        {step === 'test' ? <CampaignTestStep accountId={accountId} campaignId={campaign.id} flush={flush} /> : null}
        {step === 'review' ? (
          <CampaignReviewStep
            accountId={accountId}
            campaignId={campaign.id}
            flush={flush}
            onGo={go}
            abPlan={(audience) => <AbTestPlan audience={audience} form={form} />}
          />
        ) : null}
      </section>
      <CampaignPreflightPanel accountId={accountId} campaignId={campaign.id} step={step} />
      <div className="flex justify-between gap-2">
        <Button variant="secondary" disabled={index === 0} onClick={() => go(WIZARD_STEPS[index - 1].name)}>
          Back
        </Button>
        {index < WIZARD_STEPS.length - 1 ? (
          <Button onClick={() => go(WIZARD_STEPS[index + 1].name)}>Next: {WIZARD_STEPS[index + 1].label}</Button>
        ) : null}
      </div>
      <ConfirmDialog
        isOpen={isDeleting}
        title="Delete this draft?"
        confirmLabel="Delete draft"
        onConfirm={() => remove.mutateAsync(campaign.id)}
        onDone={() => router.push(`/${accountId}/campaigns`)}
        onClose={() => setIsDeleting(false)}
      >
        <p>The draft goes; its lists and their contacts stay.</p>
      </ConfirmDialog>
    </div>
  );
}
