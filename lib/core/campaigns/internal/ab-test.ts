import { getTemplateInAccount } from '@/lib/core/templates/internal/queries';
import type { DbOrTx } from '@/lib/db/client';
import type { CampaignAbTest, CampaignVariant } from '@/lib/db/schema';
import { AppError } from '@/lib/shared/errors';
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
    ? {
        templateId: variant.templateId,
        templateVersion: variant.templateVersion ?? null,
        htmlContent: null,
        textContent: null,
      }
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
export async function resolveVariantContent(
  db: DbOrTx,
  row: CampaignRow,
  variant: CampaignVariant,
  options: { isSending?: boolean } = {},
) {
  const resolved = await resolveCampaignContent(db, campaignAsVariant(row, variant), options);
  return { ...resolved, subject: variant.subject ?? resolved.subject };
}

/**
 * The variants with each template's latest published version pinned, as sending starts: the test
 * part and the winner's rest, which goes out after the wait, send the same version whatever is
 * published meanwhile. A template that does not resolve stays unpinned, for validation to name.
 */
export async function pinVariantTemplates(db: DbOrTx, row: CampaignRow): Promise<CampaignVariant[] | null> {
  if (!isAbCampaign(row)) return row.variants;
  const pinned: CampaignVariant[] = [];
  for (const variant of row.variants) {
    if (!variant.templateId || variant.templateVersion != null) {
      pinned.push(variant);
      continue;
    }
    try {
      const { latestVersion } = await getTemplateInAccount(db, row.accountId, variant.templateId);
      pinned.push(latestVersion > 0 ? { ...variant, templateVersion: latestVersion } : variant);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      pinned.push(variant);
    }
  }
  return pinned;
}

export function variantOf(row: CampaignRow, variantId: string | null): CampaignVariant | null {
  if (!variantId || !row.variants) return null;
  return row.variants.find((variant) => variant.id === variantId) ?? null;
}
