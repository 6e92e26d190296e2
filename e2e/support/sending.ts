import { Resolver } from 'node:dns/promises';
import { expect } from '@playwright/test';
import type { ApiClient } from './client';
import { DnsControl } from './dns-server';

/** A sending domain of the account, with its records published and verified. */
export async function verifiedDomain(
  api: ApiClient,
  name: string,
): Promise<{ domain: string; records: { label: string; host: string; content: string; type: string }[] }> {
  const created = await api.post(api.account('/domains'), { domain: name });
  expect(created.status).toBe(201);
  await new DnsControl().publish(created.body.dns_records);
  const checked = await api.post(api.account(`/domains/${name}/check-dns`));
  expect(checked.body.dns_valid).toBe(true);
  return { domain: name, records: checked.body.dns_records };
}

/** Recipients in `domain` are delivered to the test MX on 127.0.0.1 (with SMTP_DELIVERY_PORT). */
export async function routeDomainToLoopback(domain: string): Promise<void> {
  const dns = new DnsControl();
  await dns.setMx(domain, `mx.${domain}`);
  await dns.setA(`mx.${domain}`, '127.0.0.1');
}

/** A resolver for an independent DKIM verifier: asks the run's DNS server, like any receiving MX would. */
export function testDnsResolver() {
  const resolver = new Resolver();
  resolver.setServers([process.env.MAILSTEAD_TEST_DNS!]);
  return async (name: string, type: string): Promise<string[] | string[][]> => {
    if (type === 'TXT') return resolver.resolveTxt(name);
    if (type === 'A') return resolver.resolve4(name);
    if (type === 'AAAA') return resolver.resolve6(name);
    throw Object.assign(new Error(`no ${type}`), { code: 'ENOTFOUND' });
  };
}

/**
 * Background work (a delivery, a campaign's next step) mostly lands within a second: polled every
 * 250 ms, where expect.poll's default waits a whole second between tries after the first three.
 */
export const BACKGROUND_POLL_INTERVALS = [100, 250];

export async function waitForStatus(api: ApiClient, id: string, status: string | RegExp, timeout = 30_000) {
  let last: any = null;
  await expect
    .poll(
      async () => {
        last = (await api.get(api.account(`/messages/${encodeURIComponent(id)}`))).body;
        return last.status;
      },
      { timeout, intervals: BACKGROUND_POLL_INTERVALS, message: `message ${id} never reached ${status}` },
    )
    .toMatch(status);
  return last;
}
