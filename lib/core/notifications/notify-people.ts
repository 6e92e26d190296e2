import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { systemPrincipal } from '@/lib/auth/principal';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import type { Services } from '@/lib/core/context';
import { acceptMessages } from '@/lib/core/messages/internal/accept-messages';
import { normalizeEmailAddress } from '@/lib/core/shared/email-address';
import type { DbOrTx } from '@/lib/db/client';
import { accounts, memberships, notificationPreferences, notificationSends, users } from '@/lib/db/schema';
import { renderNotification } from './internal/render-notification';
import { findSystemSending, type SystemSending } from '@/lib/core/shared/find-system-sending';
import { NOTIFICATION_KINDS, type NotificationKind } from './kinds';

export type NotifyInput = {
  kind: NotificationKind;
  /** The account the resource belongs to (for a sub account's cap: the sub account). */
  accountId: string;
  resource: { id: string; name: string };
  detail?: string | null;
  /** For kinds about one person: who. */
  userId?: string;
  requestId?: string;
};

type Recipient = { userId: string; email: string; name: string | null };
type NotifyServices = Pick<Services, 'config' | 'logger' | 'now'>;

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Mails a notification to the people of its kind who have not turned it off, each at most once per
 * kind, resource and hour. Call it with the transaction of the change: the once-an-hour row, the
 * queued mail and the `notification.send` audit event commit with it. Each person's mail is a
 * savepoint whose failure is logged and rolled back alone, so a mail never undoes the change.
 * Without SYSTEM_SENDER it does nothing. Returns how many mails were queued.
 */
export async function notifyPeople(services: NotifyServices, db: DbOrTx, input: NotifyInput): Promise<number> {
  if (!services.config.systemSender) return 0;
  try {
    // A savepoint around the lookups too: a failed query must not abort the caller's transaction.
    return await db.transaction(async (tx) => {
      const sending = await findSystemSending(tx, services.config);
      if (!sending) {
        services.logger.warn(
          { kind: input.kind },
          "notification not mailed: the system sender's domain is not a verified, active domain of any account",
        );
        return 0;
      }
      const target = await notifiedAccount(tx, input);
      if (!target) return 0;
      let queued = 0;
      for (const recipient of await recipientsOf(tx, input, target.id)) {
        const isQueued = await tx
          .transaction((personal) => mailOne(services, personal, { input, target, recipient, sending }))
          .catch((error: unknown) => {
            services.logger.error(
              { err: error, kind: input.kind, userId: recipient.userId },
              'notification not mailed',
            );
            return false;
          });
        if (isQueued) queued++;
      }
      return queued;
    });
  } catch (error) {
    services.logger.error({ err: error, kind: input.kind }, 'notifications not mailed');
    return 0;
  }
}

/** The account whose people are told, and whose page the link opens. */
async function notifiedAccount(db: DbOrTx, input: NotifyInput) {
  const definition = NOTIFICATION_KINDS[input.kind];
  const [account] = await db
    .select({ id: accounts.id, name: accounts.name, parentId: accounts.parentAccountId })
    .from(accounts)
    .where(and(eq(accounts.id, input.accountId), isNull(accounts.deletedAt)))
    .limit(1);
  if (!account || definition.recipients !== 'parent_administrators' || !account.parentId) return account ?? null;
  const [parent] = await db
    .select({ id: accounts.id, name: accounts.name, parentId: accounts.parentAccountId })
    .from(accounts)
    .where(eq(accounts.id, account.parentId))
    .limit(1);
  return parent ?? account;
}

/** The owner and the Administrators (or the one person), minus those who turned this kind off. */
async function recipientsOf(db: DbOrTx, input: NotifyInput, accountId: string): Promise<Recipient[]> {
  const definition = NOTIFICATION_KINDS[input.kind];
  const optedOut = db
    .select({ userId: notificationPreferences.userId })
    .from(notificationPreferences)
    .where(and(eq(notificationPreferences.kind, input.kind), eq(notificationPreferences.isEnabled, false)));
  const who =
    definition.recipients === 'person'
      ? eq(users.id, input.userId ?? '00000000-0000-0000-0000-000000000000')
      : or(
          inArray(users.id, db.select({ id: accounts.ownerId }).from(accounts).where(eq(accounts.id, accountId))),
          inArray(
            users.id,
            db
              .select({ id: memberships.userId })
              .from(memberships)
              .where(and(eq(memberships.accountId, accountId), eq(memberships.role, 'Administrator'))),
          ),
        );
  return db
    .select({ userId: users.id, email: users.email, name: users.name })
    .from(users)
    .where(and(who, sql`${users.id} not in ${optedOut}`))
    .orderBy(asc(users.id));
}

async function mailOne(
  services: NotifyServices,
  tx: DbOrTx,
  job: { input: NotifyInput; target: { id: string; name: string }; recipient: Recipient; sending: SystemSending },
): Promise<boolean> {
  const { input, target, recipient, sending } = job;
  const definition = NOTIFICATION_KINDS[input.kind];
  const now = services.now();
  const address = normalizeEmailAddress(recipient.email);
  if (!address.ok) return false;
  // The unique key decides: a concurrent trigger (another process) that inserted first wins.
  const [claimed] = await tx
    .insert(notificationSends)
    .values({
      userId: recipient.userId,
      accountId: target.id,
      kind: input.kind,
      resourceType: definition.resourceType,
      resourceId: input.resource.id,
      hourBucket: new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS),
    })
    .onConflictDoNothing()
    .returning({ id: notificationSends.id });
  if (!claimed) return false;
  const mail = renderNotification(
    input.kind,
    {
      accountId: target.id,
      accountName: target.name,
      resourceId: input.resource.id,
      resourceName: input.resource.name,
      detail: input.detail ?? null,
    },
    services.config.publicUrl.origin,
  );
  await acceptMessages(tx, {
    accountId: sending.account.id,
    sender: { email: sending.email, domainId: sending.domain.id, domain: sending.domain.domain },
    subject: mail.subject,
    content: {
      kind: 'structured',
      structured: {
        from: { email: sending.email, name: sending.name },
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        amp: null,
        replyTo: null,
        headers: [],
        attachments: [],
      },
      globalSubstitutions: null,
      isTemplated: false,
    },
    recipients: [{ email: address.email, domain: address.domain, name: null, substitutions: null }],
    options: {
      isSandbox: false,
      sandboxResult: null,
      tags: ['mailstead-notification', `notification:${input.kind}`],
      trackOpens: false,
      trackClicks: false,
      firstAttemptAt: now,
      expiresAt: new Date(now.getTime() + DAY_MS),
      isScheduled: false,
      metadataRetentionDays: sending.account.messageMetadataRetention,
      dataRetentionDays: sending.account.messageDataRetention,
    },
    now,
  });
  await recordAuditEvent(
    tx,
    { principal: systemPrincipal(target.id), requestId: input.requestId },
    {
      action: 'notification.send',
      resource: { type: definition.resourceType, id: input.resource.id },
      changes: [input.kind],
      accountId: target.id,
      actor: { type: 'system', id: null, label: null },
    },
  );
  return true;
}
