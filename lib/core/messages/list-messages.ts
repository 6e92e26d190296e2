import { and, arrayOverlaps, eq, gte, ilike, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { authorizedDomains } from '@/lib/auth/authorize';
import { AppError, invalidInput } from '@/lib/shared/errors';
import { normalizeEmailAddress } from '@/lib/core/shared/email-address';
import { paginate } from '@/lib/core/shared/pagination';
import { defineVerb } from '@/lib/core/verb';
import { domains, messages } from '@/lib/db/schema';
import { presentMessageSummary } from './internal/present';
import { listMessagesQuerySchema } from './schemas';
import { parseStatusFilter } from './statuses';

/** The message log, newest first, with the contract's filters; domain-scoped keys see their domains only. */
export const listMessages = defineVerb({
  scope: 'messages:read:{domain}',
  input: listMessagesQuerySchema,
  async run({ db, principal }, query) {
    const accountId = principal.targetAccountId;
    const conditions: (SQL | undefined)[] = [eq(messages.accountId, accountId)];

    const accountDomains = await db
      .select({ domain: domains.domain })
      .from(domains)
      .where(and(eq(domains.accountId, accountId), isNull(domains.deletedAt)));
    const visible = authorizedDomains(
      principal,
      'messages:read:{domain}',
      accountDomains.map((row) => row.domain),
    );
    if (visible !== 'all') conditions.push(visible.length ? inArray(messages.senderDomain, visible) : sql`false`);

    if (query.status) {
      const { pairs, unknown } = parseStatusFilter(query.status);
      if (unknown.length) throw invalidInput(`status: unknown status "${unknown[0]}"`, 'status');
      conditions.push(
        or(
          ...pairs.map((pair) =>
            and(
              inArray(messages.status, pair.states),
              pair.isSandbox === null ? undefined : eq(messages.isSandbox, pair.isSandbox),
            ),
          ),
        ),
      );
    }
    if (query.sender) {
      const sender = normalizeEmailAddress(query.sender);
      if (!sender.ok) throw invalidInput(`sender: ${sender.reason}`, 'sender');
      if (visible !== 'all' && !visible.includes(sender.domain))
        throw new AppError(
          'forbidden',
          `sender: the domain ${sender.domain} is not within this key's scopes`,
          'sender',
        );
      conditions.push(eq(messages.sender, sender.email));
    }
    if (query.recipient) conditions.push(eq(messages.recipient, query.recipient.trim().toLowerCase()));
    if (query.subject)
      conditions.push(ilike(messages.subject, `%${query.subject.replace(/[\\%_]/g, (char) => `\\${char}`)}%`));
    if (query.message_id_header) {
      const value = query.message_id_header.trim();
      conditions.push(eq(messages.messageIdHeader, value.startsWith('<') ? value : `<${value}>`));
    }
    if (query.tags) {
      const tags = query.tags
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean);
      if (tags.length > 20) throw invalidInput('tags: at most 20 tags', 'tags');
      if (tags.length) conditions.push(arrayOverlaps(messages.tags, tags));
    }
    if (query.from_time) conditions.push(gte(messages.createdAt, new Date(query.from_time)));
    if (query.to_time) conditions.push(lte(messages.createdAt, new Date(query.to_time)));
    if (query.campaign_id) conditions.push(eq(messages.campaignId, query.campaign_id.toLowerCase()));

    return paginate(db, {
      table: messages,
      idColumn: messages.id,
      where: and(...conditions),
      query,
      map: (rows: (typeof messages.$inferSelect)[]) => rows.map(presentMessageSummary),
    });
  },
});
