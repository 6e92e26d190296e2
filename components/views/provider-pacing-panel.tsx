'use client';

import { Badge } from '@/components/ui/feedback';
import { formatCount, formatDateTime, formatDateTimeWithUtc } from '@/lib/client/format';
import { useProviderPacing } from '@/lib/client/statistics-queries';
import type { ProviderPacing } from '@/lib/client/types';

const LABELS: Record<ProviderPacing['provider'], string> = {
  gmail: 'Gmail',
  microsoft: 'Microsoft',
  yahoo: 'Yahoo',
  apple: 'Apple',
  other: 'Other',
  relay: 'Relay',
};

/** Today's time alone ("10:42"); another day's with its date. */
function formatSince(value: string): string {
  const date = new Date(value);
  const isToday = date.toDateString() === new Date().toDateString();
  return isToday ? date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }) : formatDateTime(date);
}

function describe(pacing: ProviderPacing): string {
  const name = pacing.destination ?? LABELS[pacing.provider];
  const connections = `${formatCount(pacing.connections)} connection${pacing.connections === 1 ? '' : 's'}`;
  const rate =
    pacing.messages_per_minute === null
      ? ''
      : `, at most ${formatCount(pacing.messages_per_minute)} message${pacing.messages_per_minute === 1 ? '' : 's'} a minute`;
  if (pacing.state === 'slowed' && pacing.slowed_since)
    return `${name}: slowed down since ${formatSince(pacing.slowed_since)}, ${connections} (normally ${formatCount(pacing.normal_connections)})${rate}`;
  return `${name}: full speed, ${connections}`;
}

/**
 * Provider pacing, live: when a mailbox provider answers "slow down" (421/451 4.7.x), Mailstead
 * sends to it over fewer connections and speeds up again as it accepts mail. The server's state,
 * the same for every account; mail waiting meanwhile is deferred, never bounced.
 */
export function ProviderPacingPanel({ accountId }: { accountId: string }) {
  const pacing = useProviderPacing(accountId);
  const slowed = pacing.data?.data.filter((row) => row.state === 'slowed') ?? [];
  return (
    <section
      aria-labelledby="provider-pacing"
      className="space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
      data-testid="provider-pacing"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="provider-pacing" className="text-base font-semibold">
          Sending speed by mailbox provider
        </h2>
        {pacing.data ? (
          <Badge tone={slowed.length ? 'amber' : 'green'}>
            {slowed.length ? `${slowed.length} slowed down` : 'All at full speed'}
          </Badge>
        ) : null}
      </div>
      {pacing.error ? (
        <p className="text-sm text-red-700">Sending speed could not be loaded: {pacing.error.message}</p>
      ) : !pacing.data ? (
        <p className="text-sm text-slate-600">Loading sending speed…</p>
      ) : (
        <ul className="grid gap-2 text-sm sm:grid-cols-2">
          {pacing.data.data.map((row) => (
            <li
              key={`${row.provider}:${row.destination ?? ''}`}
              className={`rounded-md px-3 py-2 ring-1 ${row.state === 'slowed' ? 'bg-amber-50 ring-amber-200 text-amber-900' : 'ring-slate-200 text-slate-700'}`}
              data-testid={`pacing-${row.destination ?? row.provider}`}
              title={
                row.last_throttled_at
                  ? `${formatCount(row.throttled_replies)} throttling replies, the last at ${formatDateTimeWithUtc(row.last_throttled_at)}`
                  : undefined
              }
            >
              {describe(row)}
            </li>
          ))}
        </ul>
      )}
      <p className="text-xs text-slate-600">
        When a provider answers with a throttling reply (such as Gmail&apos;s 421 4.7.28), Mailstead halves its
        connections to it, down to one, then spaces its messages out, and speeds up again a step for every run of
        accepted messages. Messages it holds back are deferred and retried, never bounced. This is the server's sending
        speed, the same for every account.
      </p>
    </section>
  );
}
