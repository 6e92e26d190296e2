import MailComposer from 'nodemailer/lib/mail-composer';
import type { StructuredContent } from '@/lib/db/schema';
import type { RenderedParts } from './render-content';

export type MessageToBuild = {
  messageIdHeader: string;
  recipient: string;
  recipientName: string | null;
  date: Date;
  /** Headers of this message alone (a campaign recipient's List-Unsubscribe). */
  extraHeaders?: [string, string][];
};

/**
 * RFC 5322 message for one recipient, built with nodemailer's MIME composer: from the recipient's
 * rendered parts when the send had substitutions (render-content.ts) or tracking, from the content as written
 * otherwise. Custom header names keep their case.
 */
export async function buildMime(
  content: StructuredContent,
  rendered: RenderedParts | null,
  message: MessageToBuild,
): Promise<Buffer> {
  const parts = rendered ?? content;
  const composer = new MailComposer({
    from: { name: content.from.name ?? '', address: content.from.email },
    to: content.to
      ? content.to.map((address) => ({ name: address.name ?? '', address: address.email }))
      : { name: message.recipientName ?? '', address: message.recipient },
    cc: content.cc?.map((address) => ({ name: address.name ?? '', address: address.email })),
    subject: parts.subject,
    text: parts.text ?? undefined,
    html: parts.html ?? undefined,
    amp: parts.amp ?? undefined,
    replyTo: content.replyTo ? { name: content.replyTo.name ?? '', address: content.replyTo.email } : undefined,
    headers: [...content.headers, ...(message.extraHeaders ?? [])].map(([key, value]) => ({ key, value })),
    messageId: message.messageIdHeader,
    date: message.date,
    attachments: content.attachments.map((attachment) => ({
      filename: attachment.fileName,
      content: Buffer.from(attachment.base64, 'base64'),
      contentType: attachment.contentType,
      ...(attachment.contentId ? { cid: attachment.contentId } : {}),
      contentDisposition: attachment.isInline ? ('inline' as const) : ('attachment' as const),
    })),
  });
  return composer.compile().build();
}

const PLACEHOLDER_RECIPIENT = 'mailstead-recipient@placeholder.invalid';
const PLACEHOLDER_MESSAGE_ID = '<mailstead-message-id@placeholder.invalid>';

/** The header block (without the blank line that ends it) and the body after that line. */
export type SharedMime = { head: string; body: Buffer } | null;

/**
 * For content without substitutions every recipient's message is the same but for To and
 * Message-ID: build (and encode) it once, then swap those two header lines per recipient.
 * Null when the composer's output does not have the expected shape (the caller builds in full).
 */
export async function buildSharedMime(content: StructuredContent, date: Date): Promise<SharedMime> {
  const raw = await buildMime(content, null, {
    messageIdHeader: PLACEHOLDER_MESSAGE_ID,
    recipient: PLACEHOLDER_RECIPIENT,
    recipientName: null,
    date,
  });
  const split = raw.indexOf('\r\n\r\n');
  if (split === -1) return null;
  const head = raw.subarray(0, split).toString('utf8');
  if (
    !/^To: mailstead-recipient@placeholder\.invalid$/m.test(head) ||
    !head.includes(`Message-ID: ${PLACEHOLDER_MESSAGE_ID}`)
  )
    return null;
  return { head, body: raw.subarray(split + 4) };
}

/** The shared encoding's header block with this recipient's To and Message-ID (the body is shared as it is). */
export function personalizeSharedHead(
  shared: NonNullable<SharedMime>,
  message: Pick<MessageToBuild, 'messageIdHeader' | 'recipient' | 'recipientName'>,
): string {
  return shared.head
    .replace(
      /^To: mailstead-recipient@placeholder\.invalid$/m,
      `To: ${formatAddress(message.recipientName, message.recipient)}`,
    )
    .replace(`Message-ID: ${PLACEHOLDER_MESSAGE_ID}`, `Message-ID: ${message.messageIdHeader}`);
}

/** `Name <address>`: quoted when plain ASCII, an RFC 2047 encoded word otherwise. */
function formatAddress(name: string | null, address: string): string {
  if (!name) return address;
  if (/^[\x20-\x7e]*$/.test(name)) return `"${name.replace(/(["\\])/g, '\\$1')}" <${address}>`;
  return `=?UTF-8?B?${Buffer.from(name, 'utf8').toString('base64')}?= <${address}>`;
}
