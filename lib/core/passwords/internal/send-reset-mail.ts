import type { Services } from '@/lib/core/context';
import { acceptMessages } from '@/lib/core/messages/internal/accept-messages';
import { normalizeEmailAddress } from '@/lib/core/shared/email-address';
import { findSystemSending } from '@/lib/core/shared/find-system-sending';
import type { DbOrTx } from '@/lib/db/client';
import { escapeHtml } from '@/lib/shared/html';

/**
 * Queues the reset link from the system sender through the delivery engine, in the caller's
 * transaction (the token and its mail commit together). False when it cannot be sent: no system
 * sender, or its domain is no verified, active domain of any account (logged, never told the asker).
 */
export async function sendResetMail(
  services: Pick<Services, 'config' | 'logger'>,
  db: DbOrTx,
  input: { email: string; name: string | null; url: string; expiresAt: Date; now: Date },
): Promise<boolean> {
  const systemSender = services.config.systemSender;
  if (!systemSender) return false;
  const recipient = normalizeEmailAddress(input.email);
  const sending = await findSystemSending(db, services.config);
  if (!sending || !recipient.ok) {
    services.logger.warn(
      { reason: !recipient.ok ? 'recipient' : 'sender domain' },
      'password reset link not mailed: the system sender cannot send it',
    );
    return false;
  }
  const content = resetContent(input.url, input.expiresAt);
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
    recipients: [{ email: recipient.email, domain: recipient.domain, name: input.name, substitutions: null }],
    options: {
      isSandbox: false,
      sandboxResult: null,
      tags: ['mailstead-password-reset'],
      trackOpens: false,
      trackClicks: false,
      firstAttemptAt: input.now,
      expiresAt: input.expiresAt,
      isScheduled: false,
      metadataRetentionDays: sending.account.messageMetadataRetention,
      // The body holds a working link: kept only until it is delivered.
      dataRetentionDays: 0,
    },
    now: input.now,
  });
  return true;
}

function resetContent(url: string, expiresAt: Date) {
  const expires = expiresAt.toUTCString();
  const subject = 'Reset your Mailstead password';
  const text = [
    'Someone (hopefully you) asked to reset the password of your Mailstead user.',
    '',
    'Open this link to choose a new password:',
    url,
    '',
    `The link works once, until ${expires}. Every session of your user ends when the password is reset.`,
    'If you did not ask for this, ignore this email: your password stays as it is.',
  ].join('\n');
  const html = [
    '<p>Someone (hopefully you) asked to reset the password of your Mailstead user.</p>',
    `<p><a href="${escapeHtml(url)}">Choose a new password</a></p>`,
    `<p>Or paste this link into your browser: ${escapeHtml(url)}</p>`,
    `<p>The link works once, until ${escapeHtml(expires)}. Every session of your user ends when the password is reset.</p>`,
    '<p>If you did not ask for this, ignore this email: your password stays as it is.</p>',
  ].join('\n');
  return { subject, text, html };
}
