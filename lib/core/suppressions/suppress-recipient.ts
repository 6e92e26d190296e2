import { sql } from 'drizzle-orm';
import { recordEvent } from '@/lib/core/events/internal/record-event';
import type { DbOrTx } from '@/lib/db/client';
import { suppressions } from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';
import type { SuppressionKind } from './schemas';

export const AUTOMATIC_SUPPRESSION_DAYS = 30;

export type SuppressionInput = {
  accountId: string;
  email: string;
  /** A domain name, or '' for every domain of the account. */
  domain: string;
  kind: SuppressionKind;
  reason: string | null;
  expiresAt: Date;
  at: Date;
  /** The sender domain's id, when the suppression is for one domain (the event carries it for webhooks). */
  domainId?: string | null;
};

/**
 * Adds a suppression and records `suppression.created` when it is new. An expired one of the same
 * address and domain is replaced (new id, kind, reason, times). A live one is renewed (`renew`, what
 * hard bounces do: the later expiry wins) or left as it is (`keep`, what the API does: a duplicate).
 * A renewal also takes over the kind and reason of a live row whose kind is in `replaceKinds` (a
 * complaint outranks a bounce or a manual entry).
 */
export async function suppressRecipient(
  db: DbOrTx,
  input: SuppressionInput,
  options: { ifSuppressed: 'renew' | 'keep'; replaceKinds?: readonly SuppressionKind[] } = { ifSuppressed: 'renew' },
): Promise<{ row: typeof suppressions.$inferSelect; isNew: boolean } | null> {
  const id = newId();
  const at = input.at.toISOString();
  const isExpired = sql`${suppressions.expiresAt} <= ${at}::timestamptz`;
  const fresh = (column: { name: string }, otherwise: unknown) =>
    sql`case when ${isExpired} then excluded.${sql.identifier(column.name)} else ${otherwise} end`;
  const isOutranked = options.replaceKinds?.length
    ? sql`${suppressions.kind} in (${sql.join(
        options.replaceKinds.map((kind) => sql`${kind}`),
        sql`, `,
      )})`
    : sql`false`;
  const [row] = await db
    .insert(suppressions)
    .values({
      id,
      accountId: input.accountId,
      email: input.email,
      domain: input.domain,
      kind: input.kind,
      reason: input.reason,
      expiresAt: input.expiresAt,
      createdAt: input.at,
      updatedAt: input.at,
    })
    .onConflictDoUpdate({
      target: [suppressions.accountId, suppressions.email, suppressions.domain],
      set: {
        id: fresh(suppressions.id, suppressions.id),
        kind: fresh(suppressions.kind, sql`case when ${isOutranked} then excluded.kind else ${suppressions.kind} end`),
        // A renewal keeps the reason of another kind (a bounce does not overwrite a complaint's).
        reason: fresh(
          suppressions.reason,
          sql`case when ${suppressions.kind} = excluded.kind or ${isOutranked} then excluded.reason else ${suppressions.reason} end`,
        ),
        expiresAt: fresh(suppressions.expiresAt, sql`greatest(${suppressions.expiresAt}, excluded.expires_at)`),
        createdAt: fresh(suppressions.createdAt, suppressions.createdAt),
        updatedAt: sql`excluded.updated_at`,
      },
      setWhere: options.ifSuppressed === 'keep' ? isExpired : undefined,
    })
    .returning();
  if (!row) return null;
  const isNew = row.id === id;
  if (isNew) {
    await recordEvent(db, {
      accountId: input.accountId,
      type: 'suppression.created',
      domainId: input.domainId ?? null,
      at: input.at,
      payload: {
        account_id: input.accountId,
        recipient: input.email,
        created_at: at,
        expires_at: input.expiresAt.toISOString(),
        reason: input.reason ?? `${input.kind} suppression`,
        sending_domain: input.domain,
      },
    });
  }
  return { row, isNew };
}
