import type { DbOrTx } from '@/lib/db/client';
import { events, messageContents, messages, type StructuredContent } from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';
import { messageEventPayload } from '@/lib/core/events/message-event';
import { sql, type SQL } from 'drizzle-orm';
import { bulkInsertSql } from '@/lib/core/shared/bulk-insert';
import { SHARED_COUNTER_WRITER, withAcceptanceCounterWriter } from '@/lib/core/statistics/counter-writers';
import { Rollup } from '@/lib/core/statistics/rollup';
import { signalWork } from '@/lib/core/shared/work-signal';
import { newReturnPathToken } from './return-path-token';

export type AcceptedRecipient = {
  email: string;
  domain: string;
  name: string | null;
  substitutions: Record<string, unknown> | null;
  contactId?: string | null;
};

export type Acceptance = {
  accountId: string;
  sender: { email: string; domainId: string; domain: string };
  subject: string;
  content:
    | {
        kind: 'structured';
        structured: StructuredContent;
        globalSubstitutions: Record<string, unknown> | null;
        isTemplated: boolean;
      }
    | { kind: 'raw'; raw: string };
  recipients: AcceptedRecipient[];
  options: {
    isSandbox: boolean;
    sandboxResult: string | null;
    tags: string[];
    trackOpens: boolean;
    trackClicks: boolean;
    firstAttemptAt: Date;
    expiresAt: Date;
    isScheduled: boolean;
    metadataRetentionDays: number;
    dataRetentionDays: number;
    campaignId?: string | null;
    /** An A/B campaign's message: the variant whose content it carries. */
    campaignVariantId?: string | null;
    /** Conversation: one message to many, so every envelope recipient's row carries one Message-ID. */
    isOneMessage?: boolean;
    /** SMTP: the Message-ID the raw content already carries, so that the rows name the same one. */
    messageIdHeader?: string;
  };
  now: Date;
};

const DAY_MS = 24 * 3600 * 1000;

/**
 * The one way mail enters the queue, whatever the entry point (v2, v1, SMTP, campaigns): content
 * stored once, a row and a `message.reception` event per recipient, and the reception counters, all
 * in one transaction. Once this returns, the mail is durable.
 */
export async function acceptMessages(db: DbOrTx, acceptance: Acceptance) {
  const rows = await withAcceptanceCounterWriter(async (writer) => {
    const prepared = prepareAcceptance(acceptance, writer);
    await db.execute(prepared.statement);
    return prepared.rows;
  });
  if (!acceptance.options.isScheduled) signalWork('messages');
  return rows;
}

/**
 * The rows and the one statement of an acceptance, built without touching the database: a bulk
 * sender (campaigns) builds the next batch while the previous one is being written.
 */
export function prepareAcceptance(acceptance: Acceptance, counterWriter = SHARED_COUNTER_WRITER) {
  const { now, options } = acceptance;
  const dataRetainUntil = dataRetainUntilOf(acceptance);
  const contentId = newId();
  let sharedMessageId: string | null = null;
  const rows = acceptance.recipients.map((recipient) => {
    const id = newId();
    sharedMessageId ??=
      options.messageIdHeader ?? (options.isOneMessage ? `<${id}@${acceptance.sender.domain}>` : null);
    return messageRow(acceptance, contentId, recipient, {
      id,
      messageIdHeader: sharedMessageId ?? `<${id}@${acceptance.sender.domain}>`,
      returnPathToken: newReturnPathToken(id),
    });
  });

  // Every row shares account, time, sender and tags: counted per recipient domain, not per row.
  const perRecipientDomain = new Map<string, number>();
  for (const row of rows)
    perRecipientDomain.set(row.recipientDomain, (perRecipientDomain.get(row.recipientDomain) ?? 0) + 1);
  const rollup = new Rollup(counterWriter);
  for (const [recipientDomain, times] of perRecipientDomain) {
    rollup.countTimes(
      {
        accountId: acceptance.accountId,
        at: now,
        senderDomain: acceptance.sender.domain,
        recipientDomain,
        tags: options.tags,
      },
      'reception',
      times,
    );
  }
  const eventRows = rows.map((row) => ({
    accountId: row.accountId,
    type: 'message.reception',
    messageId: row.id,
    domainId: row.domainId,
    payload: messageEventPayload('message.reception', row),
    isSandbox: row.isSandbox,
    createdAt: now,
  }));

  // One statement: content, rows, events and counters commit together (a single statement is
  // atomic) in one round trip, which is most of what a send costs.
  const writes = [
    bulkInsertSql(messageContents, [contentRow(acceptance, contentId, dataRetainUntil)]),
    bulkInsertSql(messages, rows),
    bulkInsertSql(
      events,
      eventRows.map((event) => ({ id: newId(), ...event })),
    ),
    ...rollup.statements(),
  ].filter((statement): statement is SQL => statement !== null);
  const [last, ...rest] = writes.reverse();
  const ctes = rest.reverse().map((statement, index) => sql`${sql.raw(`w${index}`)} as (${statement})`);
  return { rows, statement: sql`with ${sql.join(ctes, sql`, `)} ${last}` };
}

/** Content is kept this long, and in any case until every message of it has been sent (the purge job checks): 0 keeps it only for delivery. */
export function dataRetainUntilOf(acceptance: Acceptance): Date {
  return new Date(acceptance.now.getTime() + acceptance.options.dataRetentionDays * DAY_MS);
}

/** The one stored content of an acceptance. */
export function contentRow(acceptance: Acceptance, contentId: string, dataRetainUntil: Date) {
  const { content } = acceptance;
  return {
    id: contentId,
    accountId: acceptance.accountId,
    kind: content.kind,
    structured: content.kind === 'structured' ? content.structured : null,
    raw: content.kind === 'raw' ? content.raw : null,
    globalSubstitutions: content.kind === 'structured' ? content.globalSubstitutions : null,
    isTemplated: content.kind === 'structured' && content.isTemplated,
    dataRetainUntil,
    createdAt: acceptance.now,
  };
}

/** The fields of one recipient's row that differ from one recipient to the next. */
export type PerRecipient = { id: string; messageIdHeader: string; returnPathToken: string };

/** The queue row of one recipient: everything else is the acceptance's, shared by every row. */
export function messageRow(acceptance: Acceptance, contentId: string, recipient: AcceptedRecipient, own: PerRecipient) {
  const { now, options } = acceptance;
  return {
    id: own.id,
    accountId: acceptance.accountId,
    domainId: acceptance.sender.domainId,
    contentId,
    campaignId: options.campaignId ?? null,
    campaignVariantId: options.campaignVariantId ?? null,
    contactId: recipient.contactId ?? null,
    messageIdHeader: own.messageIdHeader,
    sender: acceptance.sender.email,
    senderDomain: acceptance.sender.domain,
    recipient: recipient.email,
    recipientName: recipient.name,
    recipientDomain: recipient.domain,
    subject: acceptance.subject,
    substitutions: recipient.substitutions,
    status: options.isScheduled ? 'scheduled' : 'queued',
    isSandbox: options.isSandbox,
    sandboxResult: options.sandboxResult,
    tags: options.tags,
    trackOpens: options.trackOpens,
    trackClicks: options.trackClicks,
    firstAttemptAt: options.firstAttemptAt,
    nextAttemptAt: options.firstAttemptAt,
    expiresAt: options.expiresAt,
    returnPathToken: own.returnPathToken,
    retainUntil: new Date(now.getTime() + options.metadataRetentionDays * DAY_MS),
    createdAt: now,
    updatedAt: now,
  };
}
