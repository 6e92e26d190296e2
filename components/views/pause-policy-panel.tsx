'use client';

import Link from 'next/link';
import { formatCount, formatPercent } from '@/lib/client/format';
import { useDeliverabilitySettings } from '@/lib/client/statistics-queries';

/**
 * The limits that pause a sending domain, read only: they are the server's configuration
 * (PAUSE_BOUNCE_RATE, PAUSE_MIN_VOLUME, PAUSE_WINDOW_HOURS), the same for every account.
 */
export function PausePolicyPanel({ accountId }: { accountId: string }) {
  const settings = useDeliverabilitySettings(accountId);
  if (!settings.data) return null;
  const { bounce_rate: bounce, complaint_rate: complaint } = settings.data;
  return (
    <section
      aria-labelledby="pause-policy"
      className="space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <h2 id="pause-policy" className="text-base font-semibold">
        Automatic pauses
      </h2>
      <dl className="grid gap-3 text-sm sm:grid-cols-2">
        <div>
          <dt className="font-medium text-slate-800">Bounce rate</dt>
          <dd className="text-slate-600" data-testid="pause-bounce-rate">
            A sending domain pauses when more than {formatPercent(bounce.pause_above)} of its messages bounce over{' '}
            {formatCount(bounce.window_hours)} hours, once it has sent at least {formatCount(bounce.min_volume)}.
          </dd>
        </div>
        <div>
          <dt className="font-medium text-slate-800">Complaint rate</dt>
          <dd className="text-slate-600">
            {complaint.is_enforced
              ? `A sending domain pauses above ${formatPercent(complaint.pause_above)} complaints.`
              : `Complaints are counted but pause nothing; stay under ${formatPercent(complaint.pause_above)}, the rate big mailbox providers ask of bulk senders.`}
          </dd>
        </div>
      </dl>
      <p className="text-xs text-slate-600">
        Set by the server&apos;s operator for every account. A paused domain is resumed from its page; rates are charted
        on{' '}
        <Link href={`/${accountId}/deliverability`} className="font-medium text-brand-700 underline">
          Deliverability
        </Link>
        .
      </p>
    </section>
  );
}
