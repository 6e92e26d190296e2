import { simpleParser, type Attachment } from 'mailparser';
import type { Services } from '@/lib/core/context';
import { INBOUND_MESSAGE_LIMITS } from '@/lib/core/inbound/internal/check-inbound-message';
import { dmarcReportSources, domainReports } from '@/lib/db/schema';
import { openReportArchive } from './open-report-archive';
import { parseDmarcReport, type DmarcAggregateReport } from './parse-dmarc-report';
import { parseTlsReport, type TlsReport } from './parse-tls-report';

/** A mail our MX accepted at a domain's report address (`dmarc-<token>@MAIL_HOSTNAME`). */
export type ReportMail = { accountId: string; domainId: string; domain: string; raw: Buffer };

export type ReportOutcome =
  { kind: 'stored' | 'duplicate'; report: 'dmarc' | 'tls'; reportId: string } | { kind: 'rejected'; reason: string };

type Parsed =
  { kind: 'dmarc'; report: DmarcAggregateReport; bytes: number } | { kind: 'tls'; report: TlsReport; bytes: number };

const REPORT_ATTACHMENT = /(gzip|zip|xml|json|tlsrpt|octet-stream)/i;
const ROWS_PER_INSERT = 1000;

/**
 * What a report mail does, in order: find the attachment, open the archive (caps in
 * open-report-archive.ts), parse it, check it is about the address's domain, store it once. Hostile
 * or broken input is recorded as a rejected report with its reason and never throws, so the MX
 * answers 250 and the reporter does not retry; database errors throw (451, the reporter retries).
 */
export async function unsafeReceiveDomainReport(services: Services, mail: ReportMail): Promise<ReportOutcome> {
  const parsed = await readReport(mail);
  const outcome =
    'reason' in parsed ? await recordRejected(services, mail, parsed) : await store(services, mail, parsed);
  services.logger.info({ domain: mail.domain, outcome }, 'domain report received');
  return outcome;
}

type Rejected = { reason: string; kind: 'dmarc' | 'tls' };

async function readReport(mail: ReportMail): Promise<Parsed | Rejected> {
  let attachments: Attachment[];
  try {
    ({ attachments } = await simpleParser(mail.raw, {
      skipHtmlToText: true,
      skipTextToHtml: true,
      skipTextLinks: true,
      skipImageLinks: true,
      maxHeadSize: INBOUND_MESSAGE_LIMITS.headerBytes,
      maxChildNodes: INBOUND_MESSAGE_LIMITS.mimeParts,
    }));
  } catch {
    return { kind: 'dmarc', reason: 'the mail could not be parsed as MIME' };
  }
  const attachment = attachments.find(
    (candidate) => REPORT_ATTACHMENT.test(candidate.contentType) || REPORT_ATTACHMENT.test(candidate.filename ?? ''),
  );
  if (!attachment) return { kind: 'dmarc', reason: 'the mail carries no report attachment (gzip, zip, XML or JSON)' };
  // Until the text is read, RFC 8460's media types are what tell a TLS report.
  const guess = /tlsrpt|json/i.test(`${attachment.contentType} ${attachment.filename ?? ''}`) ? 'tls' : 'dmarc';
  const opened = await openReportArchive(attachment.content);
  if (!opened.ok) return { kind: guess, reason: opened.reason };
  const start = opened.text.trimStart()[0];
  if (start === '<') {
    const result = parseDmarcReport(opened.text);
    if (!result.ok) return { kind: 'dmarc', reason: result.reason };
    if (result.report.policy.domain !== mail.domain)
      return {
        kind: 'dmarc',
        reason: `the report is about ${result.report.policy.domain.slice(0, 100)}, not ${mail.domain}`,
      };
    return { kind: 'dmarc', report: result.report, bytes: attachment.size };
  }
  if (start === '{') {
    const result = parseTlsReport(opened.text);
    if (!result.ok) return { kind: 'tls', reason: result.reason };
    const other = result.report.policies.find((policy) => policy.policy_domain !== mail.domain);
    if (other)
      return { kind: 'tls', reason: `the report is about ${other.policy_domain.slice(0, 100)}, not ${mail.domain}` };
    return { kind: 'tls', report: result.report, bytes: attachment.size };
  }
  return { kind: guess, reason: 'the attachment is neither a DMARC aggregate report (XML) nor a TLS report (JSON)' };
}

async function recordRejected(
  services: Services,
  mail: ReportMail,
  { kind, reason }: Rejected,
): Promise<ReportOutcome> {
  await services.db.insert(domainReports).values({
    accountId: mail.accountId,
    domainId: mail.domainId,
    kind,
    status: 'rejected',
    rejectionReason: reason.slice(0, 500),
    byteSize: mail.raw.length,
    receivedAt: services.now(),
  });
  return { kind: 'rejected', reason };
}

async function store(services: Services, mail: ReportMail, parsed: Parsed): Promise<ReportOutcome> {
  const { report } = parsed;
  const isDmarc = parsed.kind === 'dmarc';
  const sources = isDmarc ? parsed.report.sources : [];
  const tlsPolicies = isDmarc ? [] : parsed.report.policies;
  return services.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(domainReports)
      .values({
        accountId: mail.accountId,
        domainId: mail.domainId,
        kind: parsed.kind,
        status: 'stored',
        reporterOrg: report.reporterOrg,
        reporterEmail: report.reporterEmail,
        reportId: report.reportId,
        policyDomain: mail.domain,
        beginsAt: report.beginsAt,
        endsAt: report.endsAt,
        policy: isDmarc ? parsed.report.policy : tlsPolicies,
        messageCount: toInt4(
          isDmarc
            ? sources.reduce((sum, source) => sum + source.messageCount, 0)
            : tlsPolicies.reduce((sum, policy) => sum + policy.successful_sessions + policy.failed_sessions, 0),
        ),
        failureCount: toInt4(
          isDmarc
            ? sources.reduce(
                (sum, source) => sum + (source.dkimAligned || source.spfAligned ? 0 : source.messageCount),
                0,
              )
            : tlsPolicies.reduce((sum, policy) => sum + policy.failed_sessions, 0),
        ),
        byteSize: parsed.bytes,
        receivedAt: services.now(),
      })
      // A reporter re-sending the same report id adds nothing (domain_reports_once_idx).
      .onConflictDoNothing()
      .returning({ id: domainReports.id });
    if (!row) return { kind: 'duplicate', report: parsed.kind, reportId: report.reportId };
    for (let index = 0; index < sources.length; index += ROWS_PER_INSERT) {
      await tx.insert(dmarcReportSources).values(
        sources.slice(index, index + ROWS_PER_INSERT).map((source) => ({
          ...source,
          reportId: row.id,
          domainId: mail.domainId,
          beginsAt: report.beginsAt,
        })),
      );
    }
    return { kind: 'stored', report: parsed.kind, reportId: report.reportId };
  });
}

// A report's totals are sums a reporter controls: a hostile one (20,000 rows of 999,999,999) must not
// overflow the column, fail the insert and have the MX answer 451 for ever while it retries.
const INT4_MAX = 2_147_483_647;
const toInt4 = (value: number) => Math.min(value, INT4_MAX);
