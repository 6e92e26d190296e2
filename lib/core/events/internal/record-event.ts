import type { DbOrTx } from '@/lib/db/client';
import { events } from '@/lib/db/schema';

/** Webhook vocabulary: what happened, as subscribers will see it. */
export type EventType =
  | 'message.reception'
  | 'message.delivered'
  | 'message.transient_error'
  | 'message.failed'
  | 'message.bounced'
  | 'message.suppressed'
  | 'message.opened'
  | 'message.clicked'
  // A complaint report (ARF) about the message: a Mailstead extension, not in the AhaSend contract.
  | 'message.complained'
  | 'suppression.created'
  | 'domain.dns_error';

/** Appends to the event log; callers pass their transaction so the event commits with the change. */
export async function recordEvent(
  db: DbOrTx,
  event: {
    accountId: string;
    type: EventType;
    payload: Record<string, unknown>;
    domainId?: string | null;
    messageId?: string | null;
    at?: Date;
  },
) {
  await db.insert(events).values({
    accountId: event.accountId,
    type: event.type,
    payload: event.payload,
    domainId: event.domainId ?? null,
    messageId: event.messageId ?? null,
    ...(event.at ? { createdAt: event.at } : {}),
  });
}
