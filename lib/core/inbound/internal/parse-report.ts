import { simpleParser, type Attachment } from 'mailparser';
import { parseFieldBlocks, parseHeaderSection, type FieldBlock } from './report-fields';

/**
 * What mail to a return-path host says, read with mailparser (which hands the parts of a
 * multipart/report over as attachments when told to keep message/delivery-status).
 */
export type ParsedReturnPathMail = { subject: string; report: Report };

export type Report =
  /** RFC 3464: the per-message block, then one block per recipient. */
  | { kind: 'delivery-status'; perMessage: FieldBlock; recipients: FieldBlock[]; original: FieldBlock | null }
  /** RFC 5965: the one feedback-report block. */
  | { kind: 'feedback-report'; fields: FieldBlock; original: FieldBlock | null }
  | { kind: 'none'; reason: string };

/**
 * Reports are small; what they return of the original may not be. The report parts come before the
 * returned message (RFC 3464 section 2, RFC 5965 section 2), so reading the start is enough, and a
 * 20 MB or deeply nested body costs no more than this much parsing.
 */
export const REPORT_LIMITS = { bytes: 1024 * 1024, mimeNodes: 64, originalHeaderBytes: 64 * 1024 } as const;

const DELIVERY_STATUS_TYPES = new Set(['message/delivery-status', 'message/global-delivery-status']);
const ORIGINAL_TYPES = new Set(['message/rfc822', 'text/rfc822-headers', 'message/global', 'message/global-headers']);

/** Never throws for what the mail holds: anything unreadable is a report of kind `none` with the reason. */
export async function parseReturnPathMail(raw: Buffer): Promise<ParsedReturnPathMail> {
  let parsed: Awaited<ReturnType<typeof simpleParser>>;
  try {
    parsed = await simpleParser(raw.subarray(0, REPORT_LIMITS.bytes), {
      keepDeliveryStatus: true,
      skipHtmlToText: true,
      skipTextToHtml: true,
      skipTextLinks: true,
      skipImageLinks: true,
      checksumAlgo: false,
      maxChildNodes: REPORT_LIMITS.mimeNodes,
      // mailsplit: a returned message stays one part (its raw text), even when marked inline.
      ignoreEmbedded: true,
    } as Parameters<typeof simpleParser>[1]);
  } catch (error) {
    return {
      subject: '',
      report: { kind: 'none', reason: `unreadable MIME: ${String((error as Error)?.message ?? error).slice(0, 200)}` },
    };
  }
  return { subject: (parsed.subject ?? '').trim(), report: readReport(parsed) };
}

function readReport(parsed: Awaited<ReturnType<typeof simpleParser>>): Report {
  const contentType = parsed.headers.get('content-type') as
    { value?: string; params?: Record<string, string> } | undefined;
  if (contentType?.value?.toLowerCase() !== 'multipart/report')
    return { kind: 'none', reason: `not a multipart/report (${contentType?.value ?? 'no content type'})` };
  const reportType = (contentType.params?.['report-type'] ?? '').toLowerCase();
  // Only the report's own parts: a report-like attachment inside the returned message is the sender's content.
  const parts = parsed.attachments.filter((part) => /^\d+$/.test(part.partId ?? ''));
  const original = readOriginal(parts.find((part) => ORIGINAL_TYPES.has(part.contentType.toLowerCase())));
  if (reportType === 'delivery-status') {
    const part = parts.find((candidate) => DELIVERY_STATUS_TYPES.has(candidate.contentType.toLowerCase()));
    if (!part) return { kind: 'none', reason: 'a delivery-status report without its message/delivery-status part' };
    const [perMessage, ...recipients] = parseFieldBlocks(part.content.toString('utf8'));
    if (!perMessage || recipients.length === 0)
      return { kind: 'none', reason: 'a delivery-status part without per-recipient fields' };
    return { kind: 'delivery-status', perMessage, recipients, original };
  }
  if (reportType === 'feedback-report') {
    const part = parts.find((candidate) => candidate.contentType.toLowerCase() === 'message/feedback-report');
    const [fields] = part ? parseFieldBlocks(part.content.toString('utf8')) : [];
    if (!fields) return { kind: 'none', reason: 'a feedback report without its message/feedback-report fields' };
    return { kind: 'feedback-report', fields, original };
  }
  return {
    kind: 'none',
    reason: `a report of type "${reportType.slice(0, 60)}", neither delivery-status nor feedback-report`,
  };
}

/** The header section of the returned original (message/rfc822 or just its headers), if any. */
function readOriginal(part: Attachment | undefined): FieldBlock | null {
  if (!part) return null;
  return parseHeaderSection(part.content.subarray(0, REPORT_LIMITS.originalHeaderBytes).toString('utf8'));
}
