'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Alert, Badge, LoadingState } from '@/components/ui/feedback';
import { sectionCard } from '@/components/ui/section-card';
import { useDomainWarmup, useUpdateDomain } from '@/lib/client/queries';
import type { DomainObject } from '@/lib/client/types';

const count = (value: number) => value.toLocaleString('en');

/** The domain's warm-up: on or off, the day of the plan, and per provider today's sent, limit and held. */
export function DomainWarmupPanel({
  accountId,
  domain,
  canWrite,
}: {
  accountId: string;
  domain: DomainObject;
  canWrite: boolean;
}) {
  const warmup = useDomainWarmup(accountId, domain.domain);
  const update = useUpdateDomain(accountId, domain.domain);
  const [isConfirmingOff, setIsConfirmingOff] = useState(false);
  const setEnabled = async (enabled: boolean) => {
    await update.mutateAsync({ warmup: { enabled } });
    await warmup.refetch();
  };
  const data = warmup.data;
  const isOn = domain.warmup.enabled;
  return (
    <section aria-labelledby="warmup-heading" className={sectionCard} data-testid="warmup-panel">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="warmup-heading" className="flex items-center gap-2 text-base font-semibold">
          Warm-up
          {isOn ? (
            <Badge tone={data?.is_over ? 'green' : 'blue'}>
              {data?.is_over ? 'Complete' : data?.day ? `Day ${data.day} of ${data.plan_days}` : 'On'}
            </Badge>
          ) : (
            <Badge>Off</Badge>
          )}
        </h2>
        {canWrite ? (
          <Button
            variant="secondary"
            isBusy={update.isPending}
            onClick={() => (isOn ? setIsConfirmingOff(true) : void setEnabled(true).catch(() => {}))}
          >
            {isOn ? 'Turn off warm-up' : 'Start warm-up'}
          </Button>
        ) : null}
      </div>
      {update.error && !isConfirmingOff ? <Alert tone="error">{update.error.message}</Alert> : null}
      <p className="text-sm text-slate-600">
        {isOn
          ? `Mail to each mailbox provider is limited per UTC day by the ${domain.warmup.plan === 'default' ? 'default' : 'custom'} plan; mail beyond the limit stays queued until the next day.`
          : 'A new domain or IP address earns its reputation by sending a little more each day. Warm-up limits mail to each mailbox provider per day (50 on day 1, about doubling, no limit after 17 days); the rest waits in the queue.'}
      </p>
      {warmup.isPending ? <LoadingState label="Loading warm-up…" /> : null}
      {warmup.error ? <Alert tone="error">Warm-up could not be loaded: {warmup.error.message}</Alert> : null}
      {data && isOn ? (
        <>
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" aria-label="Warm-up today by provider">
              <thead className="text-xs text-slate-600">
                <tr>
                  <th className="py-2 pr-3 font-medium">Provider</th>
                  <th className="py-2 pr-3 text-right font-medium">Sent today</th>
                  <th className="py-2 pr-3 text-right font-medium">Limit</th>
                  <th className="py-2 text-right font-medium">Held</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.providers.map((row) => (
                  <tr key={row.provider} data-provider={row.provider}>
                    <td className="py-2 pr-3">{row.label}</td>
                    <td className="py-2 pr-3 text-right">{count(row.sent)}</td>
                    <td className="py-2 pr-3 text-right">{row.limit === null ? 'No limit' : count(row.limit)}</td>
                    <td className={`py-2 text-right ${row.held > 0 ? 'font-semibold text-amber-700' : ''}`}>
                      {count(row.held)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="text-xs text-slate-500">
            {data.held > 0 ? `${count(data.held)} held today; ` : ''}counts start afresh at{' '}
            {new Date(data.resets_at).toLocaleString()}.
          </p>
        </>
      ) : null}
      {data?.server_ip && !data.server_ip.is_over ? <ServerIpWarmup ip={data.server_ip} /> : null}
      <ConfirmDialog
        isOpen={isConfirmingOff}
        title="Turn off warm-up?"
        confirmLabel="Turn off warm-up"
        onConfirm={() => setEnabled(false)}
        onClose={() => setIsConfirmingOff(false)}
      >
        <p>
          Mail from {domain.domain} will go at full volume to every mailbox provider
          {data && data.held > 0 ? `, starting with the ${count(data.held)} messages held today` : ''}. A domain that
          sends much more than it used to may see its mail deferred or filtered as spam.
        </p>
      </ConfirmDialog>
    </section>
  );
}

type ServerIp = NonNullable<NonNullable<ReturnType<typeof useDomainWarmup>['data']>['server_ip']>;

/**
 * The server's IP warm-up, which the operator set (IP_WARMUP_STARTED_AT): it limits this domain's
 * mail together with every other domain's, so a person reading why mail waits sees it here too.
 */
function ServerIpWarmup({ ip }: { ip: ServerIp }) {
  const limited = ip.providers.filter((row) => row.limit !== null);
  return (
    <div className="rounded-md bg-slate-50 p-3 text-sm text-slate-700" data-testid="server-ip-warmup">
      <p className="font-medium text-slate-900">
        This server&apos;s IP address is warming up too: day {ip.day} of {ip.plan_days}
      </p>
      <p>
        All of the server&apos;s mail, every domain&apos;s together, is limited per mailbox provider today:{' '}
        {limited.map((row) => `${row.label} ${count(row.sent)} of ${count(row.limit!)}`).join(' · ') ||
          'no limit today'}
        {ip.held > 0 ? `; ${count(ip.held)} held for tomorrow` : ''}.
      </p>
    </div>
  );
}
