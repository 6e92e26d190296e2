import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { CoreConfig } from '@/lib/core/config';
import { contentColumns, EMPTY_CONTENT, type ContentColumns } from '@/lib/core/content/content-columns';
import { normalizeEmailAddress } from '@/lib/core/shared/email-address';
import { checkTemplateSyntax } from '@/lib/core/templates/internal/check-template-syntax';
import type { DbOrTx } from '@/lib/db/client';
import { campaigns, contactLists, segments, templates } from '@/lib/db/schema';
import { invalidInput } from '@/lib/shared/errors';
import type { UpdateCampaignInput } from '../schemas';
import { abTestColumns } from './ab-test-design';

type Design = Omit<UpdateCampaignInput, 'name'>;

/**
 * The columns a create or update writes for the design fields the request gave: omitted fields stay,
 * null clears. Content is either inline or a template, so giving one clears the other. References
 * (lists, template) must be the account's now; whether the whole can be sent is checked at send.
 */
export async function designColumns(
  db: DbOrTx,
  accountId: string,
  input: Design,
  current: ContentColumns,
  config: Pick<CoreConfig, 'publicUrl'>,
): Promise<Partial<typeof campaigns.$inferInsert>> {
  const columns: Partial<typeof campaigns.$inferInsert> = {};
  if (input.from !== undefined) {
    const from = input.from ? address(input.from, 'from') : null;
    columns.fromEmail = from?.email ?? null;
    columns.fromName = from?.name ?? null;
  }
  if (input.reply_to !== undefined) columns.replyTo = input.reply_to ? address(input.reply_to, 'reply_to') : null;

  const inline = { subject: input.subject, html_content: input.html_content, text_content: input.text_content };
  checkTemplateSyntax(inline);
  if (input.subject !== undefined) columns.subject = input.subject || null;
  Object.assign(columns, await contentColumns(input, current, config));
  const givesInline = Boolean(
    input.subject || input.html_content || input.text_content || input.markdown_content || input.blocks_content,
  );
  if (input.template_id) {
    await assertTemplateInAccount(db, accountId, input.template_id);
    Object.assign(columns, { templateId: input.template_id.toLowerCase(), subject: null, ...EMPTY_CONTENT });
  } else if (input.template_id === null || givesInline) {
    Object.assign(columns, { templateId: null, templateVersion: null });
  }
  if (input.template_version !== undefined) columns.templateVersion = input.template_version ?? null;

  if (input.list_ids !== undefined) columns.listIds = await listsInAccount(db, accountId, input.list_ids);
  if (input.exclude_list_ids !== undefined)
    columns.excludeListIds = await listsInAccount(db, accountId, input.exclude_list_ids, 'exclude_list_ids');
  if (input.segment_ids !== undefined)
    columns.segmentIds = await segmentsInAccount(db, accountId, input.segment_ids, 'segment_ids');
  if (input.exclude_segment_ids !== undefined)
    columns.excludeSegmentIds = await segmentsInAccount(
      db,
      accountId,
      input.exclude_segment_ids,
      'exclude_segment_ids',
    );
  if (input.tracking !== undefined) {
    columns.trackOpens = input.tracking?.open ?? null;
    columns.trackClicks = input.tracking?.click ?? null;
  }
  Object.assign(columns, await abTestColumns(db, accountId, input, config));
  return columns;
}

function address(value: { email: string; name?: string | null }, field: string) {
  const normalized = normalizeEmailAddress(value.email);
  if (!normalized.ok) throw invalidInput(`${field}.email: ${normalized.reason}`, field);
  return { email: normalized.email, name: value.name || null };
}

async function assertTemplateInAccount(db: DbOrTx, accountId: string, templateId: string) {
  const [row] = await db
    .select({ id: templates.id })
    .from(templates)
    .where(
      and(eq(templates.accountId, accountId), eq(templates.id, templateId.toLowerCase()), isNull(templates.deletedAt)),
    );
  if (!row) throw invalidInput(`template_id: no template ${templateId} in this account`, 'template_id');
}

/** A request's segments and excluded lists, each the account's (400 naming the ids otherwise). */
export async function narrowingInAccount(
  db: DbOrTx,
  accountId: string,
  input: { segment_ids?: string[]; exclude_list_ids?: string[]; exclude_segment_ids?: string[] },
) {
  return {
    segmentIds: await segmentsInAccount(db, accountId, input.segment_ids ?? [], 'segment_ids'),
    excludeListIds: await listsInAccount(db, accountId, input.exclude_list_ids ?? [], 'exclude_list_ids'),
    excludeSegmentIds: await segmentsInAccount(db, accountId, input.exclude_segment_ids ?? [], 'exclude_segment_ids'),
  };
}

async function listsInAccount(db: DbOrTx, accountId: string, listIds: string[], field = 'list_ids'): Promise<string[]> {
  const ids = [...new Set(listIds.map((id) => id.toLowerCase()))];
  if (ids.length === 0) return [];
  const found = await db
    .select({ id: contactLists.id })
    .from(contactLists)
    .where(and(eq(contactLists.accountId, accountId), inArray(contactLists.id, ids), isNull(contactLists.deletedAt)));
  const known = new Set(found.map((row) => row.id));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length) throw invalidInput(`${field}: no list ${missing.join(', ')} in this account`, field);
  return ids;
}

async function segmentsInAccount(db: DbOrTx, accountId: string, segmentIds: string[], field: string) {
  const ids = [...new Set(segmentIds.map((id) => id.toLowerCase()))];
  if (ids.length === 0) return [];
  const found = await db
    .select({ id: segments.id })
    .from(segments)
    .where(and(eq(segments.accountId, accountId), inArray(segments.id, ids)));
  const known = new Set(found.map((row) => row.id));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length) throw invalidInput(`${field}: no segment ${missing.join(', ')} in this account`, field);
  return ids;
}
