import type { DbOrTx } from '@/lib/db/client';
import type { CampaignAbTest, CampaignVariant } from '@/lib/db/schema';
import { resolveCampaignContent } from '../campaign-content';
import type { CampaignRow } from './present';

/** An A/B campaign's variants as they are sent (the rules without a database: ../ab-test-rules.ts). */

export const isAbCampaign = (
  row: Pick<CampaignRow, 'variants' | 'abTest'>,
): row is CampaignRow & {
  variants: CampaignVariant[];
  abTest: CampaignAbTest;
} => Array.isArray(row.variants) && row.variants.length > 0 && row.abTest !== null;

const hasOwnContent = (variant: CampaignVariant) =>
  Boolean(variant.templateId || variant.htmlContent || variant.textContent);

/** The campaign as one variant sends it: what the variant gives over the campaign's own. */
export function campaignAsVariant(row: CampaignRow, variant: CampaignVariant): CampaignRow {
  const content = variant.templateId
    ? { templateId: variant.templateId, templateVersion: null, htmlContent: null, textContent: null }
    : hasOwnContent(variant)
      ? { templateId: null, templateVersion: null, htmlContent: variant.htmlContent, textContent: variant.textContent }
      : {};
  return {
    ...row,
    fromName: variant.fromName ?? row.fromName,
    preheader: variant.preheader ?? row.preheader,
    ...content,
  };
}

/** A variant's parts, rendered as the campaign's are; its own subject wins over a template's. */
export async function resolveVariantContent(db: DbOrTx, row: CampaignRow, variant: CampaignVariant) {
  const resolved = await resolveCampaignContent(db, campaignAsVariant(row, variant));
  return { ...resolved, subject: variant.subject ?? resolved.subject };
}

export function variantOf(row: CampaignRow, variantId: string | null): CampaignVariant | null {
  if (!variantId || !row.variants) return null;
  return row.variants.find((variant) => variant.id === variantId) ?? null;
}
