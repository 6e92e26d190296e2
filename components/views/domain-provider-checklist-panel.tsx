'use client';

import type { ReactNode } from 'react';
import { Alert } from '@/components/ui/feedback';
import { useDomainProviderChecklist } from '@/lib/client/queries';
import type { DomainObject } from '@/lib/client/types';

type Status = 'pass' | 'warn' | 'fail' | 'unknown';

const MARKS: Record<Status, { mark: string; className: string; spoken: string }> = {
  pass: { mark: '✔', className: 'text-green-600', spoken: 'met' },
  warn: { mark: '!', className: 'text-amber-600 font-bold', spoken: 'warning' },
  fail: { mark: '✖', className: 'text-red-600', spoken: 'not met' },
  unknown: { mark: '○', className: 'text-slate-400', spoken: 'not measured yet' },
};

function Item({
  label,
  status,
  isMeasured = false,
  children,
}: {
  label: string;
  status: Status;
  isMeasured?: boolean;
  children?: ReactNode;
}) {
  const mark = MARKS[status];
  return (
    <li
      className="flex items-start gap-2 text-sm"
      // Not measured yet (no mail in the window) is neither met nor unmet.
      data-checklist-item={status === 'pass' ? 'met' : status === 'unknown' && isMeasured ? 'unmeasured' : 'unmet'}
      data-status={status}
    >
      <span aria-hidden className={`w-4 shrink-0 text-center ${mark.className}`}>
        {mark.mark}
      </span>
      <div className="min-w-0">
        <span className={status === 'pass' ? 'text-slate-800' : 'text-slate-700'}>
          {label}
          <span className="sr-only"> ({mark.spoken})</span>
        </span>
        {children}
      </div>
    </li>
  );
}

/**
 * What Gmail, Yahoo and Microsoft require of senders: the DNS half read off the domain's records,
 * the measured half (one-click unsubscribe, complaints, TLS, DMARC alignment from reports) from the last 30 days of its mail.
 */
export function DomainProviderChecklistPanel({ accountId, domain }: { accountId: string; domain: DomainObject }) {
  const measured = useDomainProviderChecklist(accountId, domain.domain);
  const is = (label: string): Status =>
    domain.dns_records.find((record) => record.label === label)?.propagated ? 'pass' : 'unknown';
  const dnsItems = [
    { label: 'SPF authorises Mailstead to send for the domain', status: is('SPF') },
    { label: 'DKIM signs mail with a key published under the domain', status: is('DKIM') },
    { label: 'DMARC is published with a policy (p=none at least)', status: is('DMARC') },
    { label: 'Return path on the domain, so SPF aligns with the From address', status: is('Return path') },
  ];
  return (
    <div className="space-y-4">
      <ul className="space-y-2" aria-label="Mailbox provider requirements">
        {dnsItems.map((item) => (
          <Item key={item.label} label={item.label} status={item.status} />
        ))}
      </ul>
      <div>
        <h3 className="mb-2 text-sm font-semibold text-slate-800">
          Measured over the last {measured.data?.window_days ?? 30} days
        </h3>
        {measured.error ? (
          <Alert tone="error" title="The measured requirements could not be loaded">
            {measured.error.message}
          </Alert>
        ) : null}
        {!measured.error && !measured.data ? <p className="text-sm text-slate-600">Measuring…</p> : null}
        {measured.data ? (
          <ul className="space-y-3" aria-label="Measured requirements" data-testid="measured-checklist">
            {measured.data.data.map((item) => (
              <Item key={item.id} label={item.label} status={item.status} isMeasured>
                <p className="text-xs text-slate-700" data-measured={item.id}>
                  <span className="font-medium">{item.measured}</span> · {item.threshold}
                </p>
                <p className="mt-0.5 text-xs text-slate-500">{item.help}</p>
              </Item>
            ))}
          </ul>
        ) : null}
      </div>
    </div>
  );
}
