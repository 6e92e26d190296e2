import { and, eq, isNull } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import type { CoreConfig } from '@/lib/core/config';
import { contentColumns, EMPTY_CONTENT } from '@/lib/core/content/content-columns';
import { checkTemplateSyntax } from '@/lib/core/templates/internal/check-template-syntax';
import type { DbOrTx } from '@/lib/db/client';
import { templates, type CampaignAbTest, type CampaignVariant } from '@/lib/db/schema';
import { AppError, invalidInput } from '@/lib/shared/errors';
import { VARIANT_LETTERS, type AbPhase, type VariantInput } from '../ab-test-schemas';
import type { UpdateCampaignInput } from '../schemas';
import { isAbCampaign, resolveVariantContent } from './ab-test';
import type { CampaignRow } from './present';
import { renderSample } from './validate-campaign';

// The parsed variant, or the form's input: the blocks document is checked by its own schema.
type GivenVariant = Omit<VariantInput, 'blocks_content'> & { blocks_content?: unknown };

/**
 * The A/B columns a create or update writes (omitted: they stay; null clears). Each variant is
 * stored whole, its markdown or blocks rendered to html_content once here, as the campaign's are.
 */
export async function abTestColumns(
  db: DbOrTx,
  accountId: string,
  input: { variants?: GivenVariant[] | null; ab_test?: UpdateCampaignInput['ab_test'] },
  config: Pick<CoreConfig, 'publicUrl'>,
): Promise<{ variants?: CampaignVariant[] | null; abTest?: CampaignAbTest | null }> {
  const columns: { variants?: CampaignVariant[] | null; abTest?: CampaignAbTest | null } = {};
  if (input.ab_test !== undefined)
    columns.abTest = input.ab_test
      ? {
          testPercent: input.ab_test.test_percent,
          metric: input.ab_test.metric,
          waitMinutes: input.ab_test.wait_minutes,
        }
      : null;
  if (input.variants === null) return { variants: null, abTest: null };
  if (input.variants === undefined) return columns;
  const given = new Set(input.variants.map((variant) => variant.id).filter(Boolean));
  const free = VARIANT_LETTERS.filter((letter) => !given.has(letter));
  const variants: CampaignVariant[] = [];
  for (const [index, variant] of input.variants.entries()) {
    const id = variant.id ?? free.shift()!;
    variants.push(await variantColumns(db, accountId, variant, id, index, config));
  }
  return { ...columns, variants };
}

async function variantColumns(
  db: DbOrTx,
  accountId: string,
  variant: GivenVariant,
  id: string,
  index: number,
  config: Pick<CoreConfig, 'publicUrl'>,
): Promise<CampaignVariant> {
  const field = (name: string) => `variants.${index}.${name}`;
  try {
    checkTemplateSyntax({
      subject: variant.subject,
      html_content: variant.html_content,
      text_content: variant.text_content,
    });
    if (variant.template_id) await assertTemplate(db, accountId, variant.template_id);
    const content = await contentColumns(variant, EMPTY_CONTENT, config);
    const hasContent = content.htmlContent || content.textContent;
    return {
      id,
      name: variant.name || `Variant ${id.toUpperCase()}`,
      subject: variant.subject || null,
      fromName: variant.from_name || null,
      preheader: content.preheader ?? null,
      format: hasContent ? (content.format ?? 'html') : null,
      htmlContent: content.htmlContent ?? null,
      textContent: content.textContent ?? null,
      markdownContent: content.markdownContent ?? null,
      blocksContent: content.blocksContent ?? null,
      templateId: variant.template_id?.toLowerCase() ?? null,
    };
  } catch (error) {
    if (!(error instanceof AppError) || error.kind !== 'invalid_input') throw error;
    const name = error.field ?? 'html_content';
    throw invalidInput(`${field(name)}: ${error.message.replace(new RegExp(`^${name}: `), '')}`, field(name));
  }
}

async function assertTemplate(db: DbOrTx, accountId: string, templateId: string) {
  const [row] = await db
    .select({ id: templates.id })
    .from(templates)
    .where(
      and(eq(templates.accountId, accountId), eq(templates.id, templateId.toLowerCase()), isNull(templates.deletedAt)),
    );
  if (!row) throw invalidInput(`template_id: no template ${templateId} in this account`, 'template_id');
}

export function presentAbTest(row: CampaignRow) {
  return {
    variants:
      row.variants?.map((variant) => ({
        id: variant.id,
        name: variant.name,
        subject: variant.subject,
        from_name: variant.fromName,
        preheader: variant.preheader ?? null,
        format: variant.format,
        html_content: variant.htmlContent,
        text_content: variant.textContent,
        markdown_content: variant.markdownContent,
        blocks_content: variant.blocksContent ?? null,
        template_id: variant.templateId,
      })) ?? null,
    ab_test: row.abTest
      ? { test_percent: row.abTest.testPercent, metric: row.abTest.metric, wait_minutes: row.abTest.waitMinutes }
      : null,
    ab_phase: (row.abPhase as AbPhase | null) ?? null,
    winner_variant_id: row.winnerVariantId,
    ab_wait_until: row.abWaitUntil?.toISOString() ?? null,
  };
}

/**
 * The A/B checks of validation, each failure naming its field: both halves given, and every
 * variant's content resolving, with a subject, and rendering for a real recipient with its link.
 */
export async function validateAbTest(
  services: Pick<Services, 'renderer'>,
  db: DbOrTx,
  row: CampaignRow,
  listIds: string[],
): Promise<{ field: string; message: string }[]> {
  const errors: { field: string; message: string }[] = [];
  if (row.variants?.length && !row.abTest)
    errors.push({ field: 'ab_test', message: 'variants need ab_test (test_percent, metric, wait_minutes)' });
  if (row.abTest && !row.variants?.length)
    errors.push({ field: 'variants', message: 'an A/B test needs 2 to 4 variants' });
  if (!isAbCampaign(row)) return errors;
  for (const [index, variant] of row.variants.entries()) {
    const fail = (name: string, message: string) =>
      errors.push({ field: `variants.${index}.${name}`, message: message.replace(/^[a-z_]+: /, '') });
    let content;
    try {
      content = await resolveVariantContent(db, row, variant);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      fail(error.field ?? 'template_id', error.message);
      continue;
    }
    if (!content.subject.trim()) fail('subject', `${variant.name} has no subject`);
    else if (!content.html && !content.text) fail('html_content', `${variant.name} has no content`);
    else await renderSample(services, db, row.accountId, content, listIds, fail);
  }
  return errors;
}
