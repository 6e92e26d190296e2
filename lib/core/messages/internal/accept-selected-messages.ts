import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { messageEventPayload } from '@/lib/core/events/message-event';
import { bulkInsertSql } from '@/lib/core/shared/bulk-insert';
import { Rollup } from '@/lib/core/statistics/rollup';
import type { Tx } from '@/lib/db/client';
import { events, messageContents, messages } from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';
import { returnPathTokenSql } from './return-path-token';
import { contentRow, dataRetainUntilOf, messageRow, type Acceptance } from './accept-messages';

/**
 * acceptMessages for recipients the database already holds (a campaign's frozen audience): the
 * same rows, event and counters, but built by the database from `source`, so no recipient travels
 * to Node and back. Every column comes from `messageRow`; only the per-recipient ones are SQL here.
 *
 * `source` selects `contact_id` (uuid), `email`, `name` (text or null) and `substitutions` (jsonb),
 * at most `limit` rows, in the order the caller's cursor walks. Returns how many were queued and
 * the greatest `contact_id` among them (the cursor), in the caller's transaction.
 */
export async function acceptSelectedMessages(
  tx: Tx,
  acceptance: Omit<Acceptance, 'recipients'>,
  source: SQL,
): Promise<{ queued: number; through: string | null }> {
  if (acceptance.options.messageIdHeader || acceptance.options.isOneMessage)
    throw new Error('acceptSelectedMessages: one Message-ID shared by many rows is not supported');
  const full: Acceptance = { ...acceptance, recipients: [] };
  const contentId = newId();
  await tx.execute(bulkInsertSql(messageContents, [contentRow(full, contentId, dataRetainUntilOf(full))])!);

  const sample = messageRow(
    full,
    contentId,
    { email: '', domain: '', name: null, substitutions: null },
    { id: '', messageIdHeader: '', returnPathToken: '' },
  );
  const perRecipient: Partial<Record<keyof typeof sample, SQL>> = {
    id: sql`r.id`,
    contactId: sql`r.contact_id`,
    messageIdHeader: sql`'<' || r.id::text || '@' || ${acceptance.sender.domain}::text || '>'`,
    recipient: sql`r.email`,
    recipientName: sql`r.name`,
    // After the last '@', without a regular expression (measured per row: 0.4 µs against 1.7).
    recipientDomain: sql`reverse(split_part(reverse(r.email), '@', 1))`,
    substitutions: sql`r.substitutions`,
    returnPathToken: returnPathTokenSql(sql`r.id`),
  };
  const columns = getTableColumns(messages) as Record<string, PgColumn>;
  const keys = Object.keys(sample) as (keyof typeof sample)[];
  const names = keys.map((key) => sql.identifier(columns[key].name));
  const values = keys.map((key) => perRecipient[key] ?? constant(columns[key], sample[key]));
  const payload = messageEventPayload('message.reception', sample);

  const result = await tx.execute(sql`
    with picked as (${source}),
    r as (select picked.*, ${UUID_V7} as id from picked),
    m as (
      insert into ${messages} (${sql.join(names, sql`, `)})
      select ${sql.join(values, sql`, `)} from r
      returning id, recipient, recipient_domain, message_id_header
    ),
    e as (
      insert into ${events} (id, account_id, type, message_id, domain_id, payload, is_sandbox, created_at)
      select ${UUID_V7}, ${acceptance.accountId}::uuid, 'message.reception', m.id, ${acceptance.sender.domainId}::uuid,
        ${JSON.stringify(payload)}::jsonb || jsonb_build_object('id', m.id, 'recipient', m.recipient, 'message_id_header', m.message_id_header),
        ${acceptance.options.isSandbox}::boolean, ${acceptance.now.toISOString()}::timestamptz
      from m
    )
    select (select max(contact_id::text) from picked) as through, d.domain, d.n
    from (select recipient_domain as domain, count(*)::int as n from m group by recipient_domain) d`);
  const { rows } = result as unknown as { rows: { through: string | null; domain: string; n: number }[] };
  if (rows.length === 0) return { queued: 0, through: null };

  const rollup = new Rollup();
  for (const row of rows) {
    rollup.countTimes(
      {
        accountId: acceptance.accountId,
        at: acceptance.now,
        senderDomain: acceptance.sender.domain,
        recipientDomain: row.domain,
        tags: acceptance.options.tags,
      },
      'reception',
      Number(row.n),
    );
  }
  await rollup.flush(tx);
  return { queued: rows.reduce((sum, row) => sum + Number(row.n), 0), through: rows[0].through };
}

/** A value shared by every row, as a typed parameter. */
function constant(column: PgColumn, value: unknown): SQL {
  const type = sql.raw(column.getSQLType());
  if (value === null || value === undefined) return sql`null::${type}`;
  if (value instanceof Date) return sql`${value.toISOString()}::timestamptz`;
  if (column.dataType === 'json') return sql`${JSON.stringify(value)}::jsonb`;
  return sql`${sql.param(value)}::${type}`;
}

/**
 * A version 7 UUID (time-ordered, as newId() makes on Node) from PostgreSQL 13+ built-ins: the
 * millisecond clock over the first 48 bits of a random UUID, and the version bits set to 7.
 */
const UUID_V7 = sql`encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid`;
