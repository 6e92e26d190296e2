import { and, desc, eq, gt, inArray } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { messageContents, suppressions } from '@/lib/db/schema';
import { bounceSeverity } from './internal/bounce-severity';
import { getMessageInAccount } from './internal/queries';
import { messageIdParamSchema } from './schemas';

const WAITING_STATES = new Set(['scheduled', 'queued', 'deferred']);

/**
 * What the dashboard's message page needs beyond the contract's message object: when the next
 * attempt is due and whether a cancel can still stop it, the bounce's severity, whether the
 * recipient is suppressed now, and whether the stored source is the bytes sent or a rebuild.
 */
export const getMessageDetails = defineVerb({
  scope: 'messages:read:{domain}',
  input: messageIdParamSchema,
  domains: async ({ db, principal }, input) =>
    [
      (await getMessageInAccount(db, principal.targetAccountId, input.message_id).catch(() => null))?.senderDomain ??
        '',
    ].filter(Boolean),
  async run({ db, principal, now }, input) {
    const accountId = principal.targetAccountId;
    const row = await getMessageInAccount(db, accountId, input.message_id);
    const at = now();
    const [content] = await db
      .select({ kind: messageContents.kind, dataRetainUntil: messageContents.dataRetainUntil })
      .from(messageContents)
      .where(and(eq(messageContents.accountId, accountId), eq(messageContents.id, row.contentId)))
      .limit(1);
    const [suppression] = await db
      .select()
      .from(suppressions)
      .where(
        and(
          eq(suppressions.accountId, accountId),
          eq(suppressions.email, row.recipient),
          inArray(suppressions.domain, ['', row.senderDomain]),
          gt(suppressions.expiresAt, at),
        ),
      )
      .orderBy(desc(suppressions.expiresAt))
      .limit(1);
    const isScheduled = row.status === 'scheduled';
    const isLeased = row.leaseUntil !== null && row.leaseUntil > at;
    const isRetained = content !== undefined && content.dataRetainUntil > at;
    return {
      object: 'message_details' as const,
      id: row.id,
      state: row.status,
      is_scheduled: isScheduled,
      // The cancel verb's own condition: scheduled, and no worker holds it right now.
      is_cancellable: isScheduled && !isLeased,
      next_attempt_at: WAITING_STATES.has(row.status) ? (row.nextAttemptAt?.toISOString() ?? null) : null,
      expires_at: row.expiresAt.toISOString(),
      bounce: row.bounceClassification
        ? { classification: row.bounceClassification, severity: bounceSeverity(row.bounceClassification) }
        : null,
      recipient_suppression: suppression
        ? {
            kind: suppression.kind,
            reason: suppression.reason,
            domain: suppression.domain || null,
            created_at: suppression.createdAt.toISOString(),
            expires_at: suppression.expiresAt.toISOString(),
          }
        : null,
      // Raw content (SMTP submission) is sent as received plus a DKIM-Signature; structured content is
      // built afresh for each view, so its MIME boundaries (and tracked links) differ from the copy sent.
      source: isRetained ? (content.kind === 'raw' ? ('as_received' as const) : ('reconstruction' as const)) : null,
      is_tracked: row.trackOpens || row.trackClicks,
    };
  },
});

export type MessageDetails = Awaited<ReturnType<typeof getMessageDetails>>;
