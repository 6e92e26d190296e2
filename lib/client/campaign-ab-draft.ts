import { planAbSplit } from '@/lib/core/campaigns/ab-test-rules';
import type { CampaignObject } from '@/lib/core/campaigns/internal/present';
import { MAX_VARIANTS, VARIANT_LETTERS, type AbMetric } from '@/lib/core/campaigns/ab-test-schemas';
import type { UpdateCampaignInput } from '@/lib/core/campaigns/schemas';
import { formatCount } from './format';

/** The wizard's A/B test values (strings, as inputs hold them); what a variant leaves empty comes from the campaign. */
export type AbVariantDraft = {
  id: string;
  name: string;
  subject: string;
  from_name: string;
  html_content: string;
  /** A Markdown or Visual body written through the API: kept as it is, not edited here. */
  kept: Pick<NonNullable<CampaignObject['variants']>[number], 'format' | 'markdown_content' | 'blocks_content'> | null;
};
export type AbDraft = {
  is_enabled: boolean;
  variants: AbVariantDraft[];
  test_percent: string;
  metric: AbMetric;
  wait_minutes: string;
};

export const WAIT_CHOICES = [15, 30, 60, 120, 240, 480, 720, 1440] as const;

export const waitLabel = (minutes: number) =>
  minutes < 60 ? `${minutes} minutes` : minutes === 60 ? '1 hour' : `${minutes / 60} hours`;

export function newVariant(taken: string[]): AbVariantDraft {
  const id = VARIANT_LETTERS.find((letter) => !taken.includes(letter)) ?? `v${taken.length + 1}`;
  return { id, name: `Variant ${id.toUpperCase()}`, subject: '', from_name: '', html_content: '', kept: null };
}

export function abDraftOf(campaign: CampaignObject): AbDraft {
  const variants = (campaign.variants ?? []).map((variant) => ({
    id: variant.id,
    name: variant.name,
    subject: variant.subject ?? '',
    from_name: variant.from_name ?? '',
    html_content: variant.format === 'html' || variant.format === null ? (variant.html_content ?? '') : '',
    kept: variant.format === 'markdown' || variant.format === 'blocks' ? variant : null,
  }));
  return {
    is_enabled: variants.length > 0,
    variants: variants.length ? variants : [newVariant([]), newVariant(['a'])],
    test_percent: String(campaign.ab_test?.test_percent ?? 20),
    metric: campaign.ab_test?.metric ?? 'opens',
    wait_minutes: String(campaign.ab_test?.wait_minutes ?? 240),
  };
}

const orNull = (value: string) => (value.trim() ? value : null);

/** The A/B part of the wizard's PUT body: both halves, or null for both when the test is off. */
export function abBodyOf(draft: AbDraft): Pick<UpdateCampaignInput, 'variants' | 'ab_test'> {
  if (!draft.is_enabled) return { variants: null, ab_test: null };
  return {
    variants: draft.variants.slice(0, MAX_VARIANTS).map((variant) => ({
      id: variant.id,
      name: variant.name.trim() || undefined,
      subject: orNull(variant.subject),
      from_name: orNull(variant.from_name),
      ...(variant.kept
        ? {
            format: variant.kept.format ?? undefined,
            markdown_content: variant.kept.markdown_content,
            blocks_content: variant.kept.blocks_content as never,
          }
        : { html_content: orNull(variant.html_content) }),
    })),
    ab_test: {
      test_percent: Number(draft.test_percent),
      metric: draft.metric,
      wait_minutes: Number(draft.wait_minutes),
    },
  };
}

/**
 * What sending will do, in numbers: "20% of 4,996 = 999 people get one of 2 variants; after 4 hours
 * the variant with more unique opens goes to the other 3,997". Null when the audience is too small.
 */
export function abPlanSentence(
  audience: number,
  test: { testPercent: number; metric: AbMetric; waitMinutes: number; variants: number },
) {
  const split = planAbSplit(audience, test.testPercent, test.variants);
  if (!split) return null;
  const people = (count: number) => `${formatCount(count)} ${count === 1 ? 'person' : 'people'}`;
  return `${test.testPercent}% of ${formatCount(audience)} = ${people(split.test)} get one of ${test.variants} variants (about ${formatCount(split.perVariant[split.perVariant.length - 1])} each); after ${waitLabel(test.waitMinutes)} the variant with the highest rate of unique ${test.metric} goes to the other ${formatCount(split.rest)}.`;
}
