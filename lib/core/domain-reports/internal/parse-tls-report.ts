import type { ParsedReport } from './parse-dmarc-report';

export type TlsPolicyResult = {
  policy_type: string;
  policy_domain: string;
  successful_sessions: number;
  failed_sessions: number;
  failures: {
    result_type: string;
    sending_mta_ip: string | null;
    receiving_mx_hostname: string | null;
    count: number;
  }[];
};

export type TlsReport = {
  reporterOrg: string;
  reporterEmail: string | null;
  reportId: string;
  beginsAt: Date;
  endsAt: Date;
  policies: TlsPolicyResult[];
};

const MAX_POLICIES = 100;
const MAX_FAILURE_DETAILS = 1000;

type Node = Record<string, unknown>;
const node = (value: unknown): Node =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Node) : {};
const text = (value: unknown, max = 255): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, max) : null;
const count = (value: unknown): number | null =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value < 1e12 ? value : null;
const date = (value: unknown): Date | null => {
  const given = text(value, 64);
  const parsed = given ? new Date(given) : null;
  return parsed && !Number.isNaN(parsed.getTime()) ? parsed : null;
};

/** An RFC 8460 section 4 report, or why the text is not one. */
export function parseTlsReport(json: string): ParsedReport<TlsReport> {
  let document: Node;
  try {
    document = node(JSON.parse(json));
  } catch {
    return { ok: false, reason: 'the TLS report is not valid JSON' };
  }
  const range = node(document['date-range']);
  const reporterOrg = text(document['organization-name']);
  const reportId = text(document['report-id']);
  const beginsAt = date(range['start-datetime']);
  const endsAt = date(range['end-datetime']);
  if (!reporterOrg || !reportId) return { ok: false, reason: 'the TLS report has no organization-name or report-id' };
  if (!beginsAt || !endsAt || endsAt < beginsAt) return { ok: false, reason: 'the TLS report has no valid date-range' };
  const policies = Array.isArray(document.policies) ? document.policies : null;
  if (!policies || policies.length === 0) return { ok: false, reason: 'the TLS report has no policies' };
  if (policies.length > MAX_POLICIES)
    return { ok: false, reason: `the TLS report has more than ${MAX_POLICIES} policies` };
  const results: TlsPolicyResult[] = [];
  for (const entry of policies.map(node)) {
    const policy = node(entry.policy);
    const summary = node(entry.summary);
    const domain = text(policy['policy-domain'])?.toLowerCase().replace(/\.$/, '');
    const successes = count(summary['total-successful-session-count']);
    const failures = count(summary['total-failure-session-count']);
    if (!domain || successes === null || failures === null)
      return { ok: false, reason: 'a policy of the TLS report has no policy-domain or summary counts' };
    const details = Array.isArray(entry['failure-details']) ? entry['failure-details'].map(node) : [];
    results.push({
      policy_type: text(policy['policy-type'], 40) ?? 'no-policy-found',
      policy_domain: domain,
      successful_sessions: successes,
      failed_sessions: failures,
      failures: details.slice(0, MAX_FAILURE_DETAILS).map((detail) => ({
        result_type: text(detail['result-type'], 80) ?? 'unknown',
        sending_mta_ip: text(detail['sending-mta-ip'], 64),
        receiving_mx_hostname: text(detail['receiving-mx-hostname']),
        count: count(detail['failed-session-count']) ?? 0,
      })),
    });
  }
  return {
    ok: true,
    report: {
      reporterOrg,
      reporterEmail: text(document['contact-info']),
      reportId,
      beginsAt,
      endsAt,
      policies: results,
    },
  };
}
