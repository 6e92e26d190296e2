import { describe, expect, it } from 'vitest';
import type { DnsLookup } from '@/lib/core/domains/dns-lookup';
import { Destinations } from '@/lib/mail/destinations';

const config = {
  smtpRelayUrl: null,
  smtpDeliveryPort: 25,
  mailHostname: 'mx.test',
  allowPrivateNetworks: true,
  delivery: { connections: 8, smtpTimeoutMs: 1000 },
};

function slowDns(answer: 'found' | 'error', exchange = 'mx.to.example') {
  let lookups = 0;
  const dns = {
    async mxRecords() {
      lookups++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return answer === 'found'
        ? { status: 'found' as const, values: [{ exchange, priority: 10 }] }
        : { status: 'error' as const, error: 'timeout' };
    },
    async addresses() {
      return { status: 'found' as const, values: ['127.0.0.1'] };
    },
  } as unknown as DnsLookup;
  return { dns, lookups: () => lookups };
}

describe('Destinations.poolFor', () => {
  it('callers asking at the same time share one lookup and one pool (so DELIVERY_CONNECTIONS holds)', async () => {
    const { dns, lookups } = slowDns('found');
    const destinations = new Destinations({ config: config as never, dns });
    const pools = await Promise.all(Array.from({ length: 50 }, () => destinations.poolFor('to.example')));
    expect(new Set(pools).size).toBe(1);
    expect(lookups()).toBe(1);
    expect(await destinations.poolFor('to.example')).toBe(pools[0]);
    destinations.close();
  });

  it('a failed lookup is shared too, and the next attempt looks up again', async () => {
    const { dns, lookups } = slowDns('error');
    const destinations = new Destinations({ config: config as never, dns });
    const answers = await Promise.all(Array.from({ length: 10 }, () => destinations.poolFor('to.example')));
    expect(answers.every((answer) => 'kind' in answer && answer.kind === 'temporary')).toBe(true);
    expect(lookups()).toBe(1);
    await destinations.poolFor('to.example');
    expect(lookups()).toBe(2);
  });
});

describe('Destinations.providerOf', () => {
  it("is the mailbox provider of the MX hosts a domain's pool was opened with, unknown before and through a relay", async () => {
    const { dns } = slowDns('found', 'alt1.gmail-smtp-in.l.google.com');
    const destinations = new Destinations({ config: config as never, dns });
    expect(destinations.providerOf('to.example')).toBeNull();
    await destinations.poolFor('to.example');
    expect(destinations.providerOf('to.example')).toBe('gmail');
    destinations.forget('to.example');
    expect(destinations.providerOf('to.example')).toBeNull();
    destinations.close();
    const relayed = new Destinations({ config: { ...config, smtpRelayUrl: 'smtp://relay.example:587' } as never, dns });
    await relayed.poolFor('to.example');
    expect(relayed.providerOf('to.example')).toBeNull();
    relayed.close();
  });

  it('a domain whose MX host only looks like a provider is other', async () => {
    const { dns } = slowDns('found', 'google.com.mx.example');
    const destinations = new Destinations({ config: config as never, dns });
    await destinations.poolFor('to.example');
    expect(destinations.providerOf('to.example')).toBe('other');
    destinations.close();
  });
});

describe('Destinations.warmupProviderOf', () => {
  it('through a relay, looks the MX up for the warm-up alone: Gmail is counted as Gmail; no answer is other', async () => {
    const relayed = { ...config, smtpRelayUrl: 'smtp://relay.test:2525' };
    const gmail = slowDns('found', 'alt1.gmail-smtp-in.l.google.com');
    const destinations = new Destinations({ config: relayed as never, dns: gmail.dns });
    expect(destinations.isRelayed).toBe(true);
    expect(await destinations.warmupProviderOf('workspace.example')).toBe('gmail');
    expect(await destinations.warmupProviderOf('workspace.example')).toBe('gmail');
    expect(gmail.lookups()).toBe(1);
    // The relay is still where the mail goes, and what it is paced as.
    expect(destinations.pacingKeyOf('workspace.example')).toBe('relay');
    const failing = new Destinations({ config: relayed as never, dns: slowDns('error').dns });
    expect(await failing.warmupProviderOf('unknown.example')).toBe('other');
  });

  it('direct delivery: the provider the pool was opened with, before that other', async () => {
    const { dns } = slowDns('found', 'mx1.mail.icloud.com');
    const destinations = new Destinations({ config: config as never, dns });
    expect(await destinations.warmupProviderOf('me.example')).toBe('other');
    await destinations.poolFor('me.example');
    expect(await destinations.warmupProviderOf('me.example')).toBe('apple');
    expect(destinations.isRelayed).toBe(false);
    destinations.close();
  });
});
