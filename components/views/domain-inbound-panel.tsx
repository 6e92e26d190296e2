'use client';

import Link from 'next/link';
import { describeRecipient } from '@/components/dialogs/route-dialogs';
import { mayOpen } from '@/components/layout/sections';
import { DnsRecordStatus } from '@/components/tables/dns-record-table';
import { CopyButton } from '@/components/ui/copy-button';
import { Alert, LoadingState } from '@/components/ui/feedback';
import { sectionCard } from '@/components/ui/section-card';
import { WebhookStatusBadge } from '@/components/ui/webhook-status-badge';
import { useRoutes } from '@/lib/client/route-queries';
import type { DomainObject } from '@/lib/client/types';

/**
 * The MX the domain needs for inbound mail: the record the server lists for it (with its DNS status),
 * or else the one to publish, pointing at the host the return-path CNAME already names (the mail
 * hostname).
 */
function inboundMxRecord(domain: DomainObject) {
  const listed = domain.dns_records.find((record) => record.type === 'MX');
  if (listed) return { record: listed, host: listed.host, value: `${listed.priority ?? 10} ${listed.content}` };
  const mailHost = domain.dns_records.find((record) => record.label === 'Return path')?.content ?? null;
  return { record: null, host: domain.domain, value: mailHost ? `10 ${mailHost}` : null };
}

/** Inbound on a domain's page: the routes that take its mail, and the MX record that brings the mail here. */
export function DomainInboundPanel({
  accountId,
  domain,
  scopes,
}: {
  accountId: string;
  domain: DomainObject;
  scopes: readonly string[];
}) {
  const canReadRoutes = mayOpen(scopes, 'routes:read');
  const routes = useRoutes(accountId, { domain: domain.domain, enabled: canReadRoutes });
  const mx = inboundMxRecord(domain);
  const list = routes.data?.data ?? [];

  return (
    <section aria-labelledby="inbound-heading" className={sectionCard} data-testid="domain-inbound">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="inbound-heading" className="text-base font-semibold">
          Inbound
        </h2>
        {canReadRoutes ? (
          <Link href={`/${accountId}/routes`} className="text-sm text-brand-700 hover:underline">
            All routes
          </Link>
        ) : null}
      </div>
      <p className="text-sm text-slate-600">
        Mail sent to addresses at {domain.domain} reaches Mailstead once the domain&apos;s MX record points here and its
        DNS is verified; a route then POSTs each message to your endpoint.
      </p>

      <div className="space-y-2" data-testid="inbound-mx">
        <h3 className="text-sm font-semibold">MX record</h3>
        {mx.value ? (
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-md bg-slate-50 p-3 text-xs">
            <span className="font-mono font-semibold">MX</span>
            <code className="min-w-0 font-mono wrap-anywhere">{mx.host}</code>
            <code className="min-w-0 font-mono wrap-anywhere" data-testid="inbound-mx-value">
              {mx.value}
            </code>
            <CopyButton value={mx.value} what="value of the inbound MX record" />
            {mx.record ? <DnsRecordStatus record={mx.record} /> : null}
          </div>
        ) : (
          <p className="text-sm text-slate-600">
            Publish an MX record with priority 10 pointing at this server&apos;s mail hostname.
          </p>
        )}
        {mx.record && !mx.record.propagated && mx.record.found ? (
          <p className="text-xs text-slate-600 wrap-anywhere">
            DNS has <code>{mx.record.found.join(' | ')}</code> now: mail for {domain.domain} goes there. Replace it only
            if Mailstead should receive all of the domain&apos;s mail; otherwise use a subdomain.
          </p>
        ) : null}
        {!domain.dns_valid ? (
          <p className="text-xs text-amber-800">
            Inbound mail is accepted only once the domain&apos;s DNS is verified (SPF, DKIM and DMARC).
          </p>
        ) : null}
      </div>

      <div className="space-y-2">
        <h3 className="text-sm font-semibold">Routes for {domain.domain}</h3>
        {!canReadRoutes ? <p className="text-sm text-slate-600">Your role cannot view routes.</p> : null}
        {routes.isPending && canReadRoutes ? <LoadingState label="Loading routes…" /> : null}
        {routes.error ? <Alert tone="error">{routes.error.message}</Alert> : null}
        {routes.data && list.length === 0 ? (
          <p className="text-sm text-slate-600" data-testid="inbound-no-routes">
            No route names this domain. Mail for it is refused unless a route for every domain takes it.{' '}
            <Link href={`/${accountId}/routes`} className="text-brand-700 hover:underline">
              Create a route
            </Link>
          </p>
        ) : null}
        {list.length > 0 ? (
          <ul
            className="divide-y divide-slate-100 rounded-md ring-1 ring-slate-200"
            aria-label={`Routes for ${domain.domain}`}
          >
            {list.map((route) => (
              <li
                key={route.id}
                className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 px-3 py-2 text-sm"
                data-inbound-route={route.name}
              >
                <span className="min-w-0">
                  <Link
                    href={`/${accountId}/routes/${route.id}`}
                    className="font-medium text-brand-700 wrap-break-word hover:underline"
                  >
                    {route.name}
                  </Link>
                  <span className="block font-mono text-xs text-slate-600 wrap-anywhere">
                    {describeRecipient(route.recipient)} → {route.url}
                  </span>
                </span>
                <WebhookStatusBadge webhook={route} />
              </li>
            ))}
          </ul>
        ) : null}
        {canReadRoutes ? (
          <p className="text-xs text-slate-500">
            Routes without a domain in their recipient take mail for every domain of the account, this one too.
          </p>
        ) : null}
      </div>
    </section>
  );
}
