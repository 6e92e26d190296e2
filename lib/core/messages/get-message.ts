import { and, eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { defineVerb } from '@/lib/core/verb';
import { messageContents } from '@/lib/db/schema';
import { buildMime } from './build-mime';
import { presentMessageSummary } from './internal/present';
import { getMessageInAccount } from './internal/queries';
import { renderContents, substitutionContext } from './render-content';
import { messageIdParamSchema } from './schemas';

/**
 * One message with its content while the data is retained: the RFC 822 source (rebuilt from the
 * stored content exactly as the worker builds it, without the DKIM signature) and its parsed parts.
 */
export const getMessage = defineVerb({
  scope: 'messages:read:{domain}',
  input: messageIdParamSchema,
  domains: async ({ db, principal }, input) =>
    [
      (await getMessageInAccount(db, principal.targetAccountId, input.message_id).catch(() => null))?.senderDomain ??
        '',
    ].filter(Boolean),
  async run({ db, principal, now, renderer }, input) {
    const row = await getMessageInAccount(db, principal.targetAccountId, input.message_id);
    const [content] = await db
      .select()
      .from(messageContents)
      .where(and(eq(messageContents.accountId, principal.targetAccountId), eq(messageContents.id, row.contentId)))
      .limit(1);
    let raw: string | null = null;
    let rendered: Awaited<ReturnType<typeof renderContents>>[number] | null = null;
    if (content && content.dataRetainUntil > now()) {
      // Rendered as the worker renders it; a template that cannot be rendered is shown as written.
      rendered =
        content.kind === 'structured' && content.isTemplated
          ? (
              await renderContents(renderer, [
                {
                  parts: content.structured!,
                  context: substitutionContext(content.globalSubstitutions, row.substitutions),
                },
              ])
            )[0]
          : null;
      raw =
        content.kind === 'raw'
          ? content.raw
          : (
              await buildMime(content.structured!, rendered?.ok ? rendered.parts : null, {
                messageIdHeader: row.messageIdHeader,
                recipient: row.recipient,
                recipientName: row.recipientName,
                date: row.firstAttemptAt,
              })
            ).toString('utf8');
    }
    // Without retained data both fields are left out (the SDK accepts absence; the schema has no null object).
    // A templated message's subject rendered as the worker renders it (stored from the first attempt on).
    const subject = rendered?.ok ? rendered.parts.subject : row.subject;
    return {
      ...presentMessageSummary(row),
      subject,
      ...(raw === null ? {} : { content: raw, content_parsed: await parseContent(raw) }),
    };
  },
});

async function parseContent(raw: string) {
  const parsed = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true });
  const headers: Record<string, string[]> = {};
  for (const line of parsed.headerLines) {
    const name = line.line.slice(0, line.line.indexOf(':')).trim();
    const value = line.line
      .slice(line.line.indexOf(':') + 1)
      .replace(/\r?\n[ \t]+/g, ' ')
      .trim();
    (headers[name] ??= []).push(value);
  }
  const parts = [
    ...(parsed.text ? [{ content_type: 'text/plain', content: parsed.text }] : []),
    ...(typeof parsed.html === 'string' ? [{ content_type: 'text/html', content: parsed.html }] : []),
  ];
  return {
    parts,
    attachments: parsed.attachments.map((attachment) => ({
      filename: attachment.filename ?? '',
      content: attachment.content.toString('base64'),
      content_type: attachment.contentType,
      content_id: (attachment.contentId ?? '').replace(/^<|>$/g, ''),
    })),
    headers,
  };
}
