import { createHash } from 'node:crypto';
import { simpleParser, type ParsedMail } from 'mailparser';
import { v5 as uuidv5 } from 'uuid';
import type { Services } from '@/lib/core/context';
import { unsafeReceiveDomainReport } from '@/lib/core/domain-reports/internal/receive-domain-report';
import { buildRoutingPayload } from '@/lib/core/routes/internal/build-routing-payload';
import type { RouteRow } from '@/lib/core/routes/internal/present';
import { signalWork } from '@/lib/core/shared/work-signal';
import { webhookDeliveries } from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';
import {
  checkInboundMessage,
  INBOUND_MESSAGE_LIMITS,
  type InboundMessageRefusal,
} from './internal/check-inbound-message';
import type { InboundRecipient } from './check-inbound-recipient';
import { receiveReturnPathMail } from './internal/receive-return-path-mail';

/** The namespace of route-message ids (UUIDv5 of route, message and, ungrouped, recipient). */
const ROUTE_MESSAGE_NAMESPACE = '5b0c7a52-8f0e-4a51-9d3b-6f1f6e0c2a7d';

export type InboundMail = {
  /** The envelope sender ('' for the null sender). */
  sender: string;
  /** The recipients the MX accepted, as unsafeCheckInboundRecipient classified them. */
  recipients: Extract<InboundRecipient, { kind: 'route' | 'return_path' | 'report' }>[];
  raw: Buffer;
};

type RoutedCopy = { route: RouteRow; to: string; eventId: string };

export type InboundMailOutcome =
  { kind: 'received'; routed: number; returnPath: number; reports: number } | InboundMessageRefusal;

/**
 * A message the MX received, in order: (0) the limits of check-inbound-message.ts, a refusal when
 * the message breaks one, (1) the copies routes get, (2) those written to the outbox in one
 * statement (the MX answers 250 only after this returns), (3) return-path mail handed to
 * receiveReturnPathMail, (4) DMARC and TLS reports handed to unsafeReceiveDomainReport. A route-message id is derived from the route, the Message-ID (or the
 * message's hash when it has none) and, unless the route groups by Message-ID, the recipient: a
 * sender retrying after a lost 250, or a message split over several transactions, adds nothing.
 * Unsafe: mail for any account, by design (the MX).
 */
export async function unsafeReceiveInboundMail(services: Services, mail: InboundMail): Promise<InboundMailOutcome> {
  const refusal = checkInboundMessage(mail.raw);
  if (refusal) return refusal;
  const routed = mail.recipients.filter((recipient) => recipient.kind === 'route');
  let queued = 0;
  if (routed.length > 0) {
    const parsed = await parseRoutedMail(mail.raw);
    if ('kind' in parsed) return parsed;
    const copies = routedCopies(routed, messageKey(parsed, mail.raw));
    queued = await enqueueRoutedCopies(services, mail, parsed, copies);
  }
  const returnPath = mail.recipients.filter((recipient) => recipient.kind === 'return_path');
  for (const recipient of returnPath)
    await receiveReturnPathMail(services, { recipient: recipient.address, sender: mail.sender, raw: mail.raw });
  const reports = mail.recipients.filter((recipient) => recipient.kind === 'report');
  for (const recipient of reports) await unsafeReceiveDomainReport(services, { ...recipient, raw: mail.raw });
  return { kind: 'received', routed: queued, returnPath: returnPath.length, reports: reports.length };
}

/** The message as routes see it, or the refusal for what mailparser gave up on (mailsplit's EMAXLEN, or anything it threw). */
async function parseRoutedMail(raw: Buffer): Promise<ParsedMail | InboundMessageRefusal> {
  const { headerBytes, mimeParts } = INBOUND_MESSAGE_LIMITS;
  try {
    return await simpleParser(raw, {
      skipImageLinks: true,
      skipTextToHtml: true,
      skipTextLinks: true,
      maxHeadSize: headerBytes,
      maxChildNodes: mimeParts,
    });
  } catch (error) {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    const text = typeof message === 'string' ? message : String(error);
    if (code === 'EMAXLEN' && /header/i.test(text))
      return { kind: 'header_too_large', reason: `the header section of a MIME part exceeds ${headerBytes} bytes` };
    if (code === 'EMAXLEN')
      return { kind: 'too_complex', reason: `message too complex: more than ${mimeParts} MIME parts` };
    return { kind: 'too_complex', reason: `message could not be parsed: ${text.slice(0, 200)}` };
  }
}

function messageKey(parsed: ParsedMail, raw: Buffer): string {
  return parsed.messageId
    ? `message-id:${parsed.messageId}`
    : `sha256:${createHash('sha256').update(raw).digest('hex')}`;
}

/** One copy per (route, recipient), or per route when it groups by Message-ID (then `to` is its first recipient). */
function routedCopies(recipients: Extract<InboundRecipient, { kind: 'route' }>[], key: string): RoutedCopy[] {
  const copies = new Map<string, RoutedCopy>();
  for (const recipient of recipients) {
    for (const route of recipient.routes) {
      const name = route.groupByMessageId ? `${route.id}\n${key}` : `${route.id}\n${key}\n${recipient.address}`;
      if (!copies.has(name))
        copies.set(name, { route, to: recipient.address, eventId: uuidv5(name, ROUTE_MESSAGE_NAMESPACE) });
    }
  }
  return [...copies.values()];
}

async function enqueueRoutedCopies(
  services: Services,
  mail: InboundMail,
  parsed: ParsedMail,
  copies: RoutedCopy[],
): Promise<number> {
  const at = services.now();
  const rows = copies.map((copy) => ({
    id: newId(),
    accountId: copy.route.accountId,
    routeId: copy.route.id,
    eventId: copy.eventId,
    eventType: 'message.routing',
    samplePayload: buildRoutingPayload(
      parsed,
      {
        id: copy.eventId,
        routeId: copy.route.id,
        to: copy.to,
        envelopeSender: mail.sender,
        size: mail.raw.length,
        receivedAt: at,
      },
      { attachments: copy.route.attachments, headers: copy.route.headers, stripReplies: copy.route.stripReplies },
    ),
    status: 'pending',
    nextAttemptAt: at,
    createdAt: at,
    updatedAt: at,
  }));
  // One statement, so all copies or none; a copy already queued (same route-message id) is skipped.
  const inserted = await services.db
    .insert(webhookDeliveries)
    .values(rows)
    .onConflictDoNothing()
    .returning({ id: webhookDeliveries.id });
  signalWork('webhook-deliveries');
  return inserted.length;
}
