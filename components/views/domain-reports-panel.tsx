'use client';

import { Button } from '@/components/ui/button';
import { Alert, Badge, LoadingState } from '@/components/ui/feedback';
import { sectionCard } from '@/components/ui/section-card';
import { useDmarcReports, useTlsReports, type DmarcReportsResponse } from '@/lib/client/domain-report-queries';
import { useUpdateDomain } from '@/lib/client/queries';
import type { DomainObject } from '@/lib/client/types';

const percent = (share: number | null) => (share === null ? '–' : `${Math.round(share * 1000) / 10}%`);
/** RFC 8460's policy types, as a person knows them. */
const POLICY_NAMES: Record<string, string> = { sts: 'MTA-STS', tlsa: 'DANE (TLSA)', 'no-policy-found': 'No policy' };
// The type is whatever the report's sender wrote: "__proto__" or "constructor" must not reach the prototype.
const policyName = (type: string) => (Object.hasOwn(POLICY_NAMES, type) ? POLICY_NAMES[type] : type);

function Figure({ label, value, tone }: { label: string; value: string; tone?: 'red' }) {
  return (
    <div className="rounded-md bg-slate-50 px-3 py-2">
      <div className="text-xs text-slate-600">{label}</div>
      <div className={`text-lg font-semibold ${tone === 'red' ? 'text-red-700' : 'text-slate-900'}`}>{value}</div>
    </div>
  );
}

/** 30 days of messages reported, passed (green) over failed (red), one bar a day. */
function TrendBars({ trend }: { trend: { date: string; messages: number; passed: number; failed: number }[] }) {
  const highest = Math.max(1, ...trend.map((day) => day.messages));
  return (
    <div>
      <div className="flex h-24 items-end gap-0.5" role="img" aria-label="Messages reported per day over 30 days">
        {trend.map((day) => (
          <div
            key={day.date}
            className="flex flex-1 flex-col justify-end"
            style={{ height: '100%' }}
            title={`${day.date}: ${day.passed} passed, ${day.failed} failed`}
          >
            <div className="bg-red-400" style={{ height: `${(day.failed / highest) * 100}%` }} />
            <div className="bg-green-500" style={{ height: `${(day.passed / highest) * 100}%` }} />
          </div>
        ))}
      </div>
      <div className="mt-1 flex justify-between text-xs text-slate-500">
        <span>{trend[0]?.date}</span>
        <span>{trend.at(-1)?.date}</span>
      </div>
    </div>
  );
}

function Rejected({ rejected }: { rejected: { id: string; received_at: string; reason: string }[] }) {
  if (rejected.length === 0) return null;
  return (
    <div>
      <h4 className="mb-1 text-sm font-semibold">Refused reports</h4>
      <ul className="space-y-1 text-sm text-slate-700" aria-label="Refused reports">
        {rejected.map((entry) => (
          <li key={entry.id} className="break-words">
            <span className="text-slate-500">{new Date(entry.received_at).toLocaleString()}</span> — {entry.reason}
          </li>
        ))}
      </ul>
    </div>
  );
}

type Source = DmarcReportsResponse['summary']['sources'][number];

const dispositionsOf = (source: Source) =>
  Object.entries(source.dispositions)
    .filter(([, count]) => count > 0)
    .map(([name, count]) => `${name} ${count}`)
    .join(', ');

/** At a phone's width: one card a source, every figure labelled, nothing to scroll sideways for. */
function SourceCards({ summary }: { summary: DmarcReportsResponse['summary'] }) {
  return (
    <ul className="space-y-2 sm:hidden" aria-label="Sending sources">
      {summary.sources.map((source) => (
        <li
          key={source.source_ip}
          className={`rounded-md p-3 text-sm ring-1 ${source.is_unknown_sender ? 'bg-red-50 ring-red-200' : 'ring-slate-200'}`}
          data-unknown-sender={source.is_unknown_sender ? 'true' : undefined}
        >
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-mono text-xs">{source.source_ip}</span>
            {source.is_unknown_sender ? <Badge tone="red">Unknown sender</Badge> : null}
          </div>
          <div className="break-all text-slate-700">{source.reverse_name ?? 'No reverse name'}</div>
          <div className="mt-1 text-slate-700">
            {source.messages} messages · SPF aligned {source.spf_aligned} · DKIM aligned {source.dkim_aligned} · DMARC
            pass {source.dmarc_passed} · {dispositionsOf(source)}
          </div>
        </li>
      ))}
    </ul>
  );
}

function SourcesTable({ summary }: { summary: DmarcReportsResponse['summary'] }) {
  return (
    <div className="hidden overflow-x-auto sm:block">
      <table className="min-w-full text-left text-sm" aria-label="Sending sources">
        <thead className="text-xs text-slate-600">
          <tr>
            <th className="py-2 pr-3 font-medium">Source IP</th>
            <th className="py-2 pr-3 font-medium">Reverse name</th>
            <th className="py-2 pr-3 text-right font-medium">Messages</th>
            <th className="py-2 pr-3 text-right font-medium">SPF aligned</th>
            <th className="py-2 pr-3 text-right font-medium">DKIM aligned</th>
            <th className="py-2 pr-3 text-right font-medium">DMARC pass</th>
            <th className="py-2 pr-3 font-medium">Disposition</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {summary.sources.map((source) => (
            <tr
              key={source.source_ip}
              className={source.is_unknown_sender ? 'bg-red-50' : undefined}
              data-unknown-sender={source.is_unknown_sender ? 'true' : undefined}
            >
              <td className="py-2 pr-3 font-mono text-xs">
                {source.source_ip}
                {source.is_unknown_sender ? (
                  <span className="ml-2">
                    <Badge tone="red">Unknown sender</Badge>
                  </span>
                ) : null}
              </td>
              <td className="py-2 pr-3 text-slate-700">{source.reverse_name ?? '–'}</td>
              <td className="py-2 pr-3 text-right">{source.messages}</td>
              <td className="py-2 pr-3 text-right">{source.spf_aligned}</td>
              <td className="py-2 pr-3 text-right">{source.dkim_aligned}</td>
              <td className="py-2 pr-3 text-right">{source.dmarc_passed}</td>
              <td className="py-2 pr-3 text-xs text-slate-700">{dispositionsOf(source)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function DmarcSection({ accountId, domain }: { accountId: string; domain: string }) {
  const reports = useDmarcReports(accountId, domain);
  if (reports.isPending) return <LoadingState label="Loading DMARC reports…" />;
  if (reports.error) return <Alert tone="error">DMARC reports could not be loaded: {reports.error.message}</Alert>;
  const { summary } = reports.data;
  if (summary.reports === 0 && summary.rejected_reports === 0)
    return (
      <p className="text-sm text-slate-600">
        No DMARC report yet. Mailbox providers send one a day once they see the DMARC record with its <code>rua</code>{' '}
        address; expect the first within 24 to 48 hours of publishing it.
      </p>
    );
  return (
    <div className="space-y-4">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Figure label="Messages reported (30 days)" value={summary.messages.toLocaleString()} />
        <Figure label="DMARC pass" value={percent(summary.dmarc_pass_share)} />
        <Figure
          label="SPF aligned / DKIM aligned"
          value={`${percent(summary.spf_aligned_share)} / ${percent(summary.dkim_aligned_share)}`}
        />
        <Figure
          label="Unknown senders"
          value={String(summary.unknown_senders)}
          tone={summary.unknown_senders > 0 ? 'red' : undefined}
        />
      </div>
      {summary.unknown_senders > 0 ? (
        <Alert tone="warning" title="Mail you may not have sent">
          {summary.unknown_senders} source{summary.unknown_senders === 1 ? '' : 's'} sent mail as {domain} that mostly
          failed DMARC. If it is a service you use, authorise it in SPF or have it sign with DKIM for {domain}; if not,
          someone is spoofing the domain.
        </Alert>
      ) : null}
      <TrendBars trend={summary.trend} />
      <SourcesTable summary={summary} />
      <SourceCards summary={summary} />
      <p className="text-xs text-slate-500">
        {summary.reports} report{summary.reports === 1 ? '' : 's'} in the last 30 days
        {summary.rejected_reports ? `, ${summary.rejected_reports} refused` : ''}.
      </p>
      <Rejected rejected={summary.rejected} />
    </div>
  );
}

function TlsSection({ accountId, domain }: { accountId: string; domain: string }) {
  const reports = useTlsReports(accountId, domain);
  if (reports.isPending) return <LoadingState label="Loading TLS reports…" />;
  if (reports.error) return <Alert tone="error">TLS reports could not be loaded: {reports.error.message}</Alert>;
  const { summary } = reports.data;
  if (summary.reports === 0 && summary.rejected_reports === 0)
    return (
      <p className="text-sm text-slate-600">No TLS report yet (senders mail them daily once TLSRPT is published).</p>
    );
  return (
    <div className="space-y-3 text-sm">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        <Figure label="Successful TLS sessions" value={summary.successful_sessions.toLocaleString()} />
        <Figure
          label="Failed sessions"
          value={summary.failed_sessions.toLocaleString()}
          tone={summary.failed_sessions > 0 ? 'red' : undefined}
        />
        <Figure label="Success" value={percent(summary.success_share)} />
      </div>
      <ul aria-label="TLS results per policy" className="space-y-1">
        {summary.policies.map((policy) => (
          <li key={`${policy.policy_type} ${policy.policy_domain}`}>
            <strong>{policyName(policy.policy_type)}</strong> for {policy.policy_domain}: {policy.successful_sessions}{' '}
            succeeded, {policy.failed_sessions} failed
          </li>
        ))}
      </ul>
      {summary.failure_types.length ? (
        <ul aria-label="TLS failures by type" className="space-y-1">
          {summary.failure_types.map((failure) => (
            <li key={failure.result_type}>
              <Badge tone="red">{failure.result_type}</Badge> {failure.sessions} session
              {failure.sessions === 1 ? '' : 's'}
            </li>
          ))}
        </ul>
      ) : null}
      <Rejected rejected={summary.rejected} />
    </div>
  );
}

/** DMARC and TLS reports received on our MX for the domain; off, it says what turning them on does. */
export function DomainReportsPanel({
  accountId,
  domain,
  canWrite,
}: {
  accountId: string;
  domain: DomainObject;
  canWrite: boolean;
}) {
  const update = useUpdateDomain(accountId, domain.domain);
  return (
    <section aria-labelledby="reports-heading" className={sectionCard}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="reports-heading" className="text-base font-semibold">
          DMARC reports
        </h2>
        {canWrite ? (
          <Button
            variant="secondary"
            isBusy={update.isPending}
            onClick={() => update.mutate({ reports_enabled: !domain.reports_enabled })}
          >
            {domain.reports_enabled ? 'Stop receiving reports' : 'Receive reports'}
          </Button>
        ) : null}
      </div>
      {update.error ? <Alert tone="error">{update.error.message}</Alert> : null}
      {domain.reports_enabled ? (
        <>
          <p className="text-sm text-slate-600">
            Reports go to <code className="break-all">{domain.report_address}</code>: publish the DMARC and TLSRPT
            records above as shown, with their <code>rua</code>.
          </p>
          <DmarcSection accountId={accountId} domain={domain.domain} />
          <h3 className="text-sm font-semibold">TLS reports</h3>
          <TlsSection accountId={accountId} domain={domain.domain} />
        </>
      ) : (
        <p className="text-sm text-slate-600">
          Reports are off. Turn them on to see who sends mail as {domain.domain}: mailbox providers then mail daily
          DMARC and TLS reports to Mailstead, which shows every sending IP, whether it passes SPF, DKIM and DMARC, and
          senders you do not know. The DMARC record gains a <code>rua</code> address and a TLSRPT record is added;
          publish both.
        </p>
      )}
    </section>
  );
}
