import type { Services } from '@/lib/core/context';
import { acceptMessages } from '@/lib/core/messages/internal/accept-messages';
import type { DbOrTx } from '@/lib/db/client';
import { escapeHtml } from '@/lib/shared/html';
import { CONFIRM_URL_PLACEHOLDER } from '../schemas';
import { confirmationContent, type SignupFormRow } from './present';
import type { ConfirmationSending } from './queries';

/**
 * The confirmation mail's subject and bodies: the form's text as plain text (never a template: a
 * form owner's braces are not code), the link where the placeholder is, or below the text.
 */
export function confirmationMail(form: Pick<SignupFormRow, 'confirmationSubject' | 'confirmationText'>, url: string) {
  const { subject, text: written } = confirmationContent(form);
  const text = written.includes(CONFIRM_URL_PLACEHOLDER)
    ? written.split(CONFIRM_URL_PLACEHOLDER).join(url)
    : `${written}\n\n${url}`;
  const link = `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
  const html = (written.includes(CONFIRM_URL_PLACEHOLDER) ? written : `${written}\n\n${CONFIRM_URL_PLACEHOLDER}`)
    .split(/\n{2,}/)
    .map((paragraph) =>
      paragraph
        .split(CONFIRM_URL_PLACEHOLDER)
        .map((part) => escapeHtml(part).replace(/\n/g, '<br>'))
        .join(link),
    )
    .map((paragraph) => `<p>${paragraph}</p>`)
    .join('\n');
  return { subject, text, html };
}

/** Queues the confirmation mail in the caller's transaction (the link and its mail commit together). */
export async function sendConfirmationMail(
  services: Pick<Services, 'now'>,
  db: DbOrTx,
  input: {
    form: SignupFormRow;
    sending: ConfirmationSending;
    to: { email: string; domain: string; name: string | null };
    url: string;
    expiresAt: Date;
  },
): Promise<void> {
  const content = confirmationMail(input.form, input.url);
  const from = { email: input.sending.email, name: input.sending.name };
  const now = services.now();
  await acceptMessages(db, {
    accountId: input.form.accountId,
    sender: { email: from.email, domainId: input.sending.domain.id, domain: input.sending.domain.domain },
    subject: content.subject,
    content: {
      kind: 'structured',
      structured: {
        from,
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
    recipients: [{ email: input.to.email, domain: input.to.domain, name: input.to.name, substitutions: null }],
    options: {
      isSandbox: false,
      sandboxResult: null,
      tags: ['mailstead-signup-confirmation'],
      trackOpens: false,
      trackClicks: false,
      firstAttemptAt: now,
      expiresAt: input.expiresAt,
      isScheduled: false,
      metadataRetentionDays: input.sending.account.messageMetadataRetention,
      dataRetentionDays: input.sending.account.messageDataRetention,
    },
    now,
  });
}
