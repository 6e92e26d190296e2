import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import { assertContentRenders, type RenderedParts } from '@/lib/core/messages/render-content';
import { loadReputationShield } from '@/lib/core/messages/reputation-shield';
import type { DbOrTx } from '@/lib/db/client';
import { contactLists, domains, type CampaignValidationError } from '@/lib/db/schema';
import { AppError } from '@/lib/shared/errors';
import { sampleContact } from './sample-contact';
import { countAudience, hasAudience } from './audience';
import { checkAudienceNarrowing } from './check-audience-narrowing';
import {
  missingUnsubscribeLink,
  resolveCampaignContent,
  SAMPLE_UNSUBSCRIBE_URL,
  UNSUBSCRIBE_VARIABLE,
  withUnsubscribeLink,
  type CampaignParts,
} from '../campaign-content';
import type { CampaignRow } from './present';
import { campaignSenderDomain } from './queries';
import { validateAbTest } from './ab-test-design';

export const NOBODY = 'nobody would receive it: the lists have no confirmed, subscribed, unsuppressed members';

export type Validation = {
  errors: CampaignValidationError[];
  domain: typeof domains.$inferSelect | null;
  content: (CampaignParts & { templateVersion: number | null }) | null;
  /** Who would receive it now; null unless counted (`audience: 'count'`). */
  audience: number | null;
  /** How many more the audience would hold without the Reputation Shield; null unless counted. */
  shielded?: number | null;
  /** The content as the sample recipient would get it (null when not rendered: an earlier check failed). */
  sample: { email: string; parts: RenderedParts } | null;
};

/**
 * How much to learn about the audience: a count (the dashboard's check), whether anyone would get it
 * (the worker's validation: it stops at the first member), or nothing (the start step, whose
 * snapshot counts it anyway).
 */
export type AudienceCheck = 'count' | 'exists' | 'skip';

/**
 * The checks before a campaign may be scheduled (marketing-api.md, Campaigns), each failure a reason
 * naming its field: target lists, a verified unpaused marketing domain, content that renders for a
 * real recipient, and someone to send to. The unsubscribe link is added by the server unless the
 * author placed it; one placed where it renders no link is refused. These are the preflight's cheap
 * checks (sender, audience, unsubscribe_link, content); its network checks (links, images, spam score)
 * stay out of sending: they take seconds, and a link that is down for a minute must not stop a send.
 */
export async function validateCampaign(
  services: Pick<Services, 'renderer' | 'now'>,
  db: DbOrTx,
  row: CampaignRow,
  options: { audience: AudienceCheck } = { audience: 'count' },
): Promise<Validation> {
  const errors: CampaignValidationError[] = [];
  const fail = (field: string, message: string) => errors.push({ field, message });

  const liveLists = await liveListIds(db, row);
  if (row.listIds.length === 0) fail('list_ids', 'choose at least one list to send to');
  else if (liveLists.length < row.listIds.length)
    fail('list_ids', `${row.listIds.length - liveLists.length} of the target lists no longer exist; remove them`);

  const isNarrowingUsable = await checkAudienceNarrowing(db, row, fail);
  const domain = await senderDomain(db, row, fail);

  let content: Validation['content'] = null;
  try {
    content = await resolveCampaignContent(db, row);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    fail(error.field ?? 'template_id', error.message);
  }
  if (content && !content.subject.trim()) fail('subject', 'the campaign has no subject');
  if (content && !content.html && !content.text)
    fail('html_content', 'the campaign has no html_content or text_content');

  let audience: number | null = null;
  let shielded: number | null = null;
  if (domain && liveLists.length && isNarrowingUsable && options.audience !== 'skip') {
    const target = {
      accountId: row.accountId,
      listIds: liveLists,
      segmentIds: row.segmentIds,
      excludeListIds: row.excludeListIds,
      excludeSegmentIds: row.excludeSegmentIds,
      senderDomain: domain.domain,
      at: services.now(),
    };
    audience = options.audience === 'count' ? await countAudience(db, target) : null;
    if (audience !== null && (await isShieldOn(db, row.accountId)))
      shielded = (await countAudience(db, { ...target, isShieldIgnored: true })) - audience;
    const isEmpty = audience === null ? !(await hasAudience(db, target)) : audience === 0;
    if (isEmpty) fail('list_ids', NOBODY);
  }

  if (content && errors.length === 0) errors.push(...(await validateAbTest(services, db, row, liveLists)));
  let sample: Validation['sample'] = null;
  if (content && errors.length === 0)
    sample = await renderSample(services, db, row.accountId, content, liveLists, ownFieldOf(row, fail));
  return { errors, domain, content, audience, shielded, sample };
}

/** A text part made from the HTML fails where the author wrote it: in html_content. */
function ownFieldOf(row: CampaignRow, fail: (field: string, message: string) => void) {
  if (!row.textGenerated) return fail;
  return (field: string, message: string) =>
    field === 'text_content'
      ? fail('html_content', message.replace(/^text_content(,[a-z_]+)*: /, 'html_content: '))
      : fail(field, message);
}

async function isShieldOn(db: DbOrTx, accountId: string): Promise<boolean> {
  const shield = await loadReputationShield(db, accountId);
  return shield.rejectBadRecipients || shield.rejectMistypedRecipients;
}

/** The content rendered for one real member (or a stand-in), as sending would: a render error is a reason. */
export async function renderSample(
  services: Pick<Services, 'renderer'>,
  db: DbOrTx,
  accountId: string,
  content: CampaignParts,
  listIds: string[],
  fail: (field: string, message: string) => void,
): Promise<Validation['sample']> {
  const sample = await sampleContact(db, accountId, listIds);
  const parts = withUnsubscribeLink(content);
  try {
    const rendered = await assertContentRenders(
      services.renderer,
      { ...parts, amp: null },
      { [UNSUBSCRIBE_VARIABLE]: SAMPLE_UNSUBSCRIBE_URL },
      [{ email: sample.email, substitutions: sample.values }],
    );
    const missing = missingUnsubscribeLink(rendered);
    if (missing) fail(missing.field, missing.message);
    return { email: sample.email, parts: rendered };
  } catch (error) {
    if (!(error instanceof AppError) || error.kind !== 'invalid_input') throw error;
    fail(error.field ?? 'html_content', error.message);
    return null;
  }
}

async function liveListIds(db: DbOrTx, row: CampaignRow): Promise<string[]> {
  if (row.listIds.length === 0) return [];
  const found = await db
    .select({ id: contactLists.id })
    .from(contactLists)
    .where(
      and(
        eq(contactLists.accountId, row.accountId),
        inArray(contactLists.id, row.listIds),
        isNull(contactLists.deletedAt),
      ),
    );
  return found.map((list) => list.id);
}

async function senderDomain(db: DbOrTx, row: CampaignRow, fail: (field: string, message: string) => void) {
  const found = await campaignSenderDomain(db, row);
  if (!found) {
    fail('from', 'the campaign has no sender address');
    return null;
  }
  const { name, domain } = found;
  if (!domain) fail('from', `${name} is not a domain of this account`);
  else if (!domain.dnsValid) fail('from', `${name} is not verified: publish its DNS records and check DNS`);
  else if (domain.isPaused)
    fail('from', `sending from ${name} is paused${domain.pauseReason ? `: ${domain.pauseReason}` : ''}`);
  else if (domain.sendingType !== 'marketing')
    fail(
      'from',
      `${name} is a transactional domain; campaigns are sent from a marketing domain: change its sending type under Domains > ${name} > Sending type`,
    );
  else return domain;
  return null;
}
