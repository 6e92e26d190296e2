import { eq } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import { acceptMessages } from '@/lib/core/messages/internal/accept-messages';
import { normalizeEmailAddress } from '@/lib/core/shared/email-address';
import { findSystemSending } from '@/lib/core/shared/find-system-sending';
import type { DbOrTx } from '@/lib/db/client';
import { memberInvitations } from '@/lib/db/schema';
import { randomToken, sha256Hex } from '@/lib/shared/crypto';
import { escapeHtml } from '@/lib/shared/html';
import type { InvitationDelivery } from './present';

type InvitationRow = typeof memberInvitations.$inferSelect;

const DAY_MS = 24 * 3600 * 1000;

/** A new link secret: the token goes to the person, only its hash to the database. */
export function newInvitationToken() {
  const token = randomToken(43);
  return { token, tokenHash: hashInvitationToken(token) };
}

export const hashInvitationToken = (token: string) => sha256Hex(`member-invitation:${token}`);

export const invitationUrl = (services: Pick<Services, 'config'>, token: string) =>
  `${services.config.publicUrl.origin}/invite/${token}`;

/**
 * Mails the link from the system sender through the delivery engine, in the caller's transaction, so
 * the invitation and its mail commit together. Without a system sender the link is handed back to
 * show; with one whose domain no account can send from, too, with the reason (and a warning logged).
 */
export async function sendInvitationMail(
  services: Pick<Services, 'config' | 'logger'>,
  db: DbOrTx,
  invitation: InvitationRow,
  context: { token: string; accountName: string; inviterName: string | null; now: Date },
): Promise<InvitationDelivery> {
  const delivery = await deliverInvitation(services, db, invitation, context);
  // Accepting a mailed link proves the address; a link handed to the inviter does not.
  await db
    .update(memberInvitations)
    .set({ isMailed: delivery.delivery === 'email' })
    .where(eq(memberInvitations.id, invitation.id));
  return delivery;
}

async function deliverInvitation(
  services: Pick<Services, 'config' | 'logger'>,
  db: DbOrTx,
  invitation: InvitationRow,
  context: { token: string; accountName: string; inviterName: string | null; now: Date },
): Promise<InvitationDelivery> {
  const url = invitationUrl(services, context.token);
  const systemSender = services.config.systemSender;
  if (!systemSender) return { delivery: 'link', url };
  const senderDomain = systemSender.email.slice(systemSender.email.lastIndexOf('@') + 1);
  const recipient = normalizeEmailAddress(invitation.email);
  const sending = await findSystemSending(db, services.config);
  if (!sending || !recipient.ok) {
    const reason = !recipient.ok
      ? `the address cannot receive mail (${recipient.reason})`
      : `the system sender's domain ${senderDomain} is not a verified, active domain of any account`;
    services.logger.warn({ invitationId: invitation.id }, `member invitation not mailed: ${reason}`);
    return { delivery: 'link', url, delivery_error: `the invitation could not be mailed: ${reason}` };
  }
  const content = invitationContent({
    url,
    accountName: context.accountName,
    inviterName: context.inviterName,
    role: invitation.role,
    expiresAt: invitation.expiresAt,
  });
  await acceptMessages(db, {
    accountId: sending.account.id,
    sender: { email: systemSender.email, domainId: sending.domain.id, domain: sending.domain.domain },
    subject: content.subject,
    content: {
      kind: 'structured',
      structured: {
        from: systemSender,
        subject: content.subject,
        text: content.text,
        html: content.html,
        amp: null,
        replyTo: null,
        headers: [],
        attachments: [],
      },
      globalSubstitutions: null,
      isTemplated: false,
    },
    recipients: [{ email: recipient.email, domain: recipient.domain, name: invitation.name, substitutions: null }],
    options: {
      isSandbox: false,
      sandboxResult: null,
      tags: ['mailstead-invitation'],
      trackOpens: false,
      trackClicks: false,
      firstAttemptAt: context.now,
      expiresAt: new Date(Math.min(invitation.expiresAt.getTime(), context.now.getTime() + DAY_MS)),
      isScheduled: false,
      metadataRetentionDays: sending.account.messageMetadataRetention,
      // The body holds a working link: kept only until it is delivered.
      dataRetentionDays: 0,
    },
    now: context.now,
  });
  return { delivery: 'email' };
}

/** Never templated: names people typed are escaped, not interpreted. */
function invitationContent(input: {
  url: string;
  accountName: string;
  inviterName: string | null;
  role: string;
  expiresAt: Date;
}) {
  const who = input.inviterName ? `${input.inviterName} invited you` : 'You are invited';
  const expires = input.expiresAt.toUTCString();
  const subject = `You are invited to join ${input.accountName} on Mailstead`.replace(/[\r\n]+/g, ' ');
  const text = [
    `${who} to join the account "${input.accountName}" on Mailstead as ${input.role}.`,
    '',
    'Open this link to choose your password and sign in:',
    input.url,
    '',
    `The link works once, until ${expires}. If you did not expect this invitation, ignore this email.`,
  ].join('\n');
  const html = [
    `<p>${escapeHtml(who)} to join the account <strong>${escapeHtml(input.accountName)}</strong> on Mailstead as ${escapeHtml(input.role)}.</p>`,
    `<p><a href="${escapeHtml(input.url)}">Choose your password and sign in</a></p>`,
    `<p>Or paste this link into your browser: ${escapeHtml(input.url)}</p>`,
    `<p>The link works once, until ${escapeHtml(expires)}. If you did not expect this invitation, ignore this email.</p>`,
  ].join('\n');
  return { subject, text, html };
}
