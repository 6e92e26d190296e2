import MailComposer from 'nodemailer/lib/mail-composer';
import type { StructuredContent } from '@/lib/db/schema';
import { compileTemplate, renderTemplate } from '@/lib/core/messages/templates';

type Compiled = { subject: ReturnType<typeof compileTemplate> | null; text: ReturnType<typeof compileTemplate> | null; html: ReturnType<typeof compileTemplate> | null; amp: ReturnType<typeof compileTemplate> | null };

/** Templates compiled once per stored content, reused for every recipient of a batch. */
export function compileContent(content: StructuredContent): Compiled {
  return {
    subject: compileTemplate(content.subject, 'plain'),
    text: content.text ? compileTemplate(content.text, 'plain') : null,
    html: content.html ? compileTemplate(content.html, 'html') : null,
    amp: content.amp ? compileTemplate(content.amp, 'html') : null,
  };
}

export type MessageToBuild = {
  messageIdHeader: string;
  recipient: string;
  recipientName: string | null;
  substitutions: Record<string, unknown> | null;
  date: Date;
};

/**
 * RFC 5322 message for one recipient: rendered (per-recipient values over global ones) when the
 * send had substitutions, built with nodemailer's MIME composer. Custom header names keep their case.
 */
export async function buildMime(content: StructuredContent, compiled: Compiled | null, globals: Record<string, unknown> | null, message: MessageToBuild): Promise<Buffer> {
  const context = { ...(globals ?? {}), ...(message.substitutions ?? {}) };
  const render = (template: Compiled[keyof Compiled], source: string | null) => (source === null ? undefined : compiled && template ? renderTemplate(template, context) : source);
  const composer = new MailComposer({
    from: { name: content.from.name ?? '', address: content.from.email },
    to: { name: message.recipientName ?? '', address: message.recipient },
    subject: render(compiled?.subject ?? null, content.subject),
    text: render(compiled?.text ?? null, content.text),
    html: render(compiled?.html ?? null, content.html),
    amp: render(compiled?.amp ?? null, content.amp),
    replyTo: content.replyTo ? { name: content.replyTo.name ?? '', address: content.replyTo.email } : undefined,
    headers: content.headers.map(([key, value]) => ({ key, value })),
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
