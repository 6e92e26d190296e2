import EmailReplyParser from 'email-reply-parser';
import type { AddressObject, ParsedMail } from 'mailparser';

export type RoutingOptions = { attachments: boolean; headers: boolean; stripReplies: boolean };

export type RoutingMessage = {
  /** The route-message id (`data.id`); also the outbox row's event id. */
  id: string;
  routeId: string;
  /** The envelope recipient the route matched (the first, when grouped by Message-ID). */
  to: string;
  /** The envelope sender, for `from` when the message has no From header. */
  envelopeSender: string;
  size: number;
  receivedAt: Date;
};

const firstAddress = (field: AddressObject | AddressObject[] | undefined): string => {
  const list = Array.isArray(field) ? field : field ? [field] : [];
  return list.flatMap((item) => item.value).find((address) => address.address)?.address ?? '';
};
const allAddresses = (field: AddressObject | AddressObject[] | undefined): string[] => {
  const list = Array.isArray(field) ? field : field ? [field] : [];
  return list.flatMap((item) => item.value).flatMap((address) => (address.address ? [address.address] : []));
};

/** A header's raw text as the message carries it, unfolded (`Date`, `Auto-Submitted`). */
function rawHeader(mail: ParsedMail, name: string): string {
  const line = mail.headerLines.find((header) => header.key === name)?.line ?? '';
  return unfold(line.slice(line.indexOf(':') + 1));
}
const unfold = (value: string) => value.replace(/\r?\n[ \t]+/g, ' ').trim();

/**
 * Header name (as written) to value; a header given more than once has its values joined with ", "
 * as HTTP does, since the contract's map holds one string per name.
 */
function headerMap(mail: ParsedMail): Record<string, string> {
  const map = new Map<string, { name: string; values: string[] }>();
  for (const header of mail.headerLines) {
    const colon = header.line.indexOf(':');
    const name = header.line.slice(0, colon).trim();
    const entry = map.get(header.key) ?? { name, values: [] };
    entry.values.push(unfold(header.line.slice(colon + 1)));
    map.set(header.key, entry);
  }
  return Object.fromEntries([...map.values()].map((entry) => [entry.name, entry.values.join(', ')]));
}

/** A delivery status report or a mail from the null sender: what the contract calls a bounce. */
function isBounce(mail: ParsedMail, envelopeSender: string): boolean {
  const contentType = mail.headers.get('content-type') as
    { value?: string; params?: Record<string, string> } | undefined;
  const isReport =
    contentType?.value?.toLowerCase() === 'multipart/report' &&
    contentType.params?.['report-type']?.toLowerCase() === 'delivery-status';
  return isReport || envelopeSender === '';
}

/**
 * The `message.routing` body (contract 6.4, ahasend-webhooks.yaml RouteWebhookPayload): every data
 * field but `headers` always present; attachments (base64) only with the route's flag, otherwise
 * `[]`; `headers` only with its flag; `reply_from_plain_body` only with `strip_replies`, the plain
 * body without its quoted history (email-reply-parser, a port of GitHub's parser), otherwise `""`.
 * No spam filter runs here: `spam_score` is 0.
 */
export function buildRoutingPayload(mail: ParsedMail, message: RoutingMessage, options: RoutingOptions) {
  const from = firstAddress(mail.from) || message.envelopeSender;
  const plainBody = mail.text ?? '';
  const references = Array.isArray(mail.references) ? mail.references.join(' ') : (mail.references ?? '');
  const data: Record<string, unknown> = {
    id: message.id,
    from,
    reply_to: firstAddress(mail.replyTo) || from,
    to: message.to,
    subject: mail.subject ?? '',
    message_id: mail.messageId ?? '',
    size: message.size,
    spam_score: 0,
    bounce: isBounce(mail, message.envelopeSender),
    cc: allAddresses(mail.cc).join(', '),
    date: rawHeader(mail, 'date'),
    in_reply_to: mail.inReplyTo ?? '',
    references,
    auto_submitted: rawHeader(mail, 'auto-submitted'),
    html_body: typeof mail.html === 'string' ? mail.html : '',
    plain_body: plainBody,
    reply_from_plain_body: options.stripReplies && plainBody ? new EmailReplyParser().parseReply(plainBody) : '',
    attachments: options.attachments
      ? mail.attachments.map((attachment) => ({
          filename: attachment.filename ?? '',
          content_type: attachment.contentType,
          content_id: decodeContentId(attachment.contentId),
          disposition: (attachment.contentDisposition ?? '').toLowerCase(),
          data: attachment.content.toString('base64'),
        }))
      : [],
  };
  if (options.headers) data.headers = headerMap(mail);
  return {
    type: 'message.routing',
    timestamp: message.receivedAt.toISOString(),
    route_id: message.routeId,
    data: storable(data),
  };
}

/** PostgreSQL's jsonb cannot hold U+0000, which mail can: it becomes U+FFFD (the replacement character). */
function storable<T>(value: T): T {
  if (typeof value === 'string') return value.replace(/\u0000/g, '\uFFFD') as T;
  if (Array.isArray(value)) return value.map(storable) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [storable(key), storable(item)])) as T;
  return value;
}

/** `content_id` as [S] has it: angle brackets stripped and percent-decoded; "" when the part had none. */
function decodeContentId(raw: string | undefined): string {
  const bare = (raw ?? '').trim().replace(/^<|>$/g, '');
  try {
    return decodeURIComponent(bare);
  } catch {
    return bare;
  }
}
