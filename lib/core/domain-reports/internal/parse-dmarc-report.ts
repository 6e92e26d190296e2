import { isIP } from 'node:net';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export type DmarcSource = {
  sourceIp: string;
  messageCount: number;
  disposition: string;
  headerFrom: string | null;
  dkimAligned: boolean;
  spfAligned: boolean;
  dkimResult: string | null;
  dkimDomain: string | null;
  spfResult: string | null;
  spfDomain: string | null;
};

export type DmarcAggregateReport = {
  reporterOrg: string;
  reporterEmail: string | null;
  reportId: string;
  beginsAt: Date;
  endsAt: Date;
  policy: {
    domain: string;
    p: string | null;
    sp: string | null;
    adkim: string | null;
    aspf: string | null;
    pct: string | null;
  };
  sources: DmarcSource[];
};

export type ParsedReport<T> = { ok: true; report: T } | { ok: false; reason: string };

/** More rows than any real reporter sends for one domain and day; the cap bounds the rows written per mail. */
export const MAX_REPORT_SOURCES = 20_000;
const DISPOSITIONS = new Set(['none', 'quarantine', 'reject', 'pass']);

// No entity is ever expanded (a DTD is refused before parsing, and processEntities is off as well).
const parser = new XMLParser({
  ignoreAttributes: true,
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  trimValues: true,
  maxNestedTags: 20,
  isArray: (_name, jpath) =>
    ['feedback.record', 'feedback.record.auth_results.dkim', 'feedback.record.auth_results.spf'].includes(
      String(jpath),
    ),
});

type Node = Record<string, unknown>;
const node = (value: unknown): Node => (value && typeof value === 'object' ? (value as Node) : {});
const text = (value: unknown, max = 255): string | null => {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const trimmed = String(value).trim();
  return trimmed === '' ? null : trimmed.slice(0, max);
};
const lower = (value: unknown) => text(value)?.toLowerCase() ?? null;

function epoch(value: unknown): Date | null {
  const digits = text(value);
  if (!digits || !/^\d{1,12}$/.test(digits)) return null;
  return new Date(Number(digits) * 1000);
}

/** An RFC 7489 appendix C aggregate report, or why the text is not one. */
export function parseDmarcReport(xml: string): ParsedReport<DmarcAggregateReport> {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml))
    return { ok: false, reason: 'the XML declares a DTD or entities, which a DMARC report never has' };
  const valid = XMLValidator.validate(xml);
  if (valid !== true) return { ok: false, reason: `the XML is malformed (line ${valid.err.line}: ${valid.err.msg})` };
  let document: Node;
  try {
    document = node(parser.parse(xml));
  } catch (error) {
    return { ok: false, reason: `the XML could not be read: ${String((error as Error).message).slice(0, 120)}` };
  }
  if (!('feedback' in document))
    return { ok: false, reason: 'the XML is not a DMARC aggregate report (no <feedback>)' };
  const feedback = node(document.feedback);
  const metadata = node(feedback.report_metadata);
  const range = node(metadata.date_range);
  const published = node(feedback.policy_published);
  const reporterOrg = text(metadata.org_name);
  const reportId = text(metadata.report_id);
  const beginsAt = epoch(range.begin);
  const endsAt = epoch(range.end);
  const domain = lower(published.domain)?.replace(/\.$/, '') ?? null;
  if (!reporterOrg || !reportId) return { ok: false, reason: 'the report has no org_name or report_id' };
  if (!beginsAt || !endsAt || endsAt < beginsAt) return { ok: false, reason: 'the report has no valid date_range' };
  if (!domain) return { ok: false, reason: 'the report has no policy_published domain' };
  const records = Array.isArray(feedback.record) ? feedback.record : [];
  if (records.length > MAX_REPORT_SOURCES)
    return { ok: false, reason: `the report has more than ${MAX_REPORT_SOURCES} records` };
  const sources: DmarcSource[] = [];
  for (const [index, entry] of records.entries()) {
    const source = readRecord(node(entry));
    if (typeof source === 'string') return { ok: false, reason: `record ${index + 1}: ${source}` };
    sources.push(source);
  }
  return {
    ok: true,
    report: {
      reporterOrg,
      reporterEmail: text(metadata.email),
      reportId,
      beginsAt,
      endsAt,
      policy: {
        domain,
        p: lower(published.p),
        sp: lower(published.sp),
        adkim: lower(published.adkim),
        aspf: lower(published.aspf),
        pct: text(published.pct),
      },
      sources,
    },
  };
}

/** One `<record>`; policy_evaluated's dkim and spf are the aligned verdicts (RFC 7489 appendix C). */
function readRecord(record: Node): DmarcSource | string {
  const row = node(record.row);
  const evaluated = node(row.policy_evaluated);
  const sourceIp = text(row.source_ip, 64);
  if (!sourceIp || isIP(sourceIp) === 0) return 'source_ip is not an IP address';
  const count = text(row.count);
  if (!count || !/^\d{1,9}$/.test(count)) return 'count is not a whole number';
  const disposition = lower(evaluated.disposition);
  if (!disposition || !DISPOSITIONS.has(disposition)) return 'disposition is not none, quarantine or reject';
  const results = node(record.auth_results);
  const dkim = (Array.isArray(results.dkim) ? results.dkim : []).map(node);
  const spf = (Array.isArray(results.spf) ? results.spf : []).map(node);
  // The passing signature tells most; otherwise the first one.
  const dkimShown = dkim.find((entry) => lower(entry.result) === 'pass') ?? dkim[0];
  return {
    sourceIp,
    messageCount: Number(count),
    disposition,
    headerFrom: lower(node(record.identifiers).header_from),
    dkimAligned: lower(evaluated.dkim) === 'pass',
    spfAligned: lower(evaluated.spf) === 'pass',
    dkimResult: dkimShown ? lower(dkimShown.result) : null,
    dkimDomain: dkimShown ? lower(dkimShown.domain) : null,
    spfResult: spf[0] ? lower(spf[0].result) : null,
    spfDomain: spf[0] ? lower(spf[0].domain) : null,
  };
}
