'use client';

import { useFieldArray, useWatch, type UseFormReturn } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Checkbox, Field, Select, TextArea, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { MAX_VARIANTS, MIN_VARIANTS, TEST_PERCENT } from '@/lib/core/campaigns/ab-test-schemas';
import { minimumAbAudience } from '@/lib/core/campaigns/ab-test-rules';
import { abPlanSentence, newVariant, WAIT_CHOICES, waitLabel } from '@/lib/client/campaign-ab-draft';
import type { DraftValues } from '@/lib/client/campaign-draft';
import { useAudiencePreview } from '@/lib/client/campaign-queries';

/** What sending an A/B campaign will do, with the audience counted now; or why it cannot. */
export function AbTestPlan({ audience, form }: { audience: number | null; form: UseFormReturn<DraftValues> }) {
  const ab = useWatch({ control: form.control, name: 'ab' });
  if (!ab.is_enabled) return null;
  if (audience === null) return <p className="text-sm text-slate-600">Counting the audience…</p>;
  const sentence = abPlanSentence(audience, {
    testPercent: Number(ab.test_percent),
    metric: ab.metric,
    waitMinutes: Number(ab.wait_minutes),
    variants: ab.variants.length,
  });
  return sentence ? (
    <Alert tone="info" title="What will happen">
      <span data-testid="ab-plan">{sentence}</span>
    </Alert>
  ) : (
    <Alert tone="warning" title="The audience is too small for this test">
      <span data-testid="ab-plan">
        {ab.variants.length} variants need at least {minimumAbAudience(ab.variants.length)} recipients (one per variant
        and one for the winner); the audience has {audience}. Sending would be refused.
      </span>
    </Alert>
  );
}

/**
 * Step 4: an optional A/B test. 2-4 variants of subject, from name or content (empty fields use the
 * campaign's), the share of the audience that tests them, the metric and the wait; then the winner
 * goes to everyone else.
 */
export function CampaignAbTestStep({ accountId, form }: { accountId: string; form: UseFormReturn<DraftValues> }) {
  const { register, control, formState } = form;
  const variants = useFieldArray({ control, name: 'ab.variants', keyName: 'key' });
  const [isEnabled, listIds, fromEmail] = useWatch({ control, name: ['ab.is_enabled', 'list_ids', 'from_email'] });
  const preview = useAudiencePreview(accountId, listIds, fromEmail.includes('@') ? fromEmail.trim() : null);
  const error = formState.errors.ab?.message;

  return (
    <div className="space-y-4">
      <Checkbox
        label="Test variants before sending to everyone"
        description="A share of the audience gets 2-4 versions; after the wait, the one that did best goes to the rest."
        {...register('ab.is_enabled')}
      />
      {error ? <Alert tone="error">{error}</Alert> : null}
      {isEnabled ? (
        <>
          <div className="grid gap-4 sm:grid-cols-3">
            <Field
              label="Test share (%)"
              htmlFor="ab-test-percent"
              hint={`${TEST_PERCENT.min}-${TEST_PERCENT.max}% of the audience, split evenly among the variants.`}
            >
              <TextInput
                id="ab-test-percent"
                type="number"
                min={TEST_PERCENT.min}
                max={TEST_PERCENT.max}
                {...register('ab.test_percent')}
              />
            </Field>
            <Field label="Winner by" htmlFor="ab-metric" hint="The highest rate among delivered messages wins.">
              <Select id="ab-metric" {...register('ab.metric')}>
                <option value="opens">Unique opens</option>
                <option value="clicks">Unique clicks</option>
              </Select>
            </Field>
            <Field label="Wait before choosing" htmlFor="ab-wait" hint="You can also choose the winner by hand sooner.">
              <Select id="ab-wait" {...register('ab.wait_minutes')}>
                {WAIT_CHOICES.map((minutes) => (
                  <option key={minutes} value={String(minutes)}>
                    {waitLabel(minutes)}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <AbTestPlan audience={preview.data?.recipients ?? null} form={form} />
          <ol className="grid gap-4 lg:grid-cols-2">
            {variants.fields.map((variant, index) => (
              <li
                key={variant.key}
                className="space-y-3 rounded-lg p-4 ring-1 ring-slate-200"
                data-ab-variant={variant.id}
                aria-label={`Variant ${variant.id.toUpperCase()}`}
              >
                <div className="flex items-center justify-between gap-2">
                  <p className="text-sm font-semibold">Variant {variant.id.toUpperCase()}</p>
                  {variants.fields.length > MIN_VARIANTS ? (
                    <Button variant="ghost" size="sm" onClick={() => variants.remove(index)}>
                      Remove
                    </Button>
                  ) : null}
                </div>
                <Field label="Name" htmlFor={`ab-${index}-name`} hint="Shown in the report.">
                  <TextInput id={`ab-${index}-name`} {...register(`ab.variants.${index}.name`)} />
                </Field>
                <Field
                  label="Subject"
                  htmlFor={`ab-${index}-subject`}
                  hint="Empty: the campaign's subject."
                  error={formState.errors.ab?.variants?.[index]?.subject?.message}
                >
                  <TextInput id={`ab-${index}-subject`} {...register(`ab.variants.${index}.subject`)} />
                </Field>
                <Field label="From name" htmlFor={`ab-${index}-from`} hint="Empty: the campaign's from name.">
                  <TextInput id={`ab-${index}-from`} {...register(`ab.variants.${index}.from_name`)} />
                </Field>
                {variant.kept ? (
                  <p className="text-sm text-slate-600">
                    Its own {variant.kept.format === 'markdown' ? 'Markdown' : 'visual'} body (written through the API)
                    is kept.
                  </p>
                ) : (
                  <Field
                    label="Content (HTML)"
                    htmlFor={`ab-${index}-html`}
                    hint="Empty: the campaign's content."
                    error={formState.errors.ab?.variants?.[index]?.html_content?.message}
                  >
                    <TextArea id={`ab-${index}-html`} rows={4} {...register(`ab.variants.${index}.html_content`)} />
                  </Field>
                )}
              </li>
            ))}
          </ol>
          {variants.fields.length < MAX_VARIANTS ? (
            <Button
              variant="secondary"
              onClick={() => variants.append(newVariant(variants.fields.map((variant) => variant.id)))}
            >
              Add a variant
            </Button>
          ) : (
            <p className="text-sm text-slate-600">{MAX_VARIANTS} variants at most.</p>
          )}
        </>
      ) : null}
    </div>
  );
}
