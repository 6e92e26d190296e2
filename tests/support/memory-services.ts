import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { systemPrincipal, type Principal } from '@/lib/auth/principal';
import { createAccount } from '@/lib/core/accounts/create-account';
import type { CoreConfig } from '@/lib/core/config';
import type { Services, VerbContext } from '@/lib/core/context';
import type { DnsAnswer, DnsLookup } from '@/lib/core/domains/dns-lookup';
import { createTemplateRenderer } from '@/lib/core/templates/engine/template-renderer';
import { createSignInLimiter } from '@/lib/api/rate-limiter';
import { SecretBox } from '@/lib/shared/crypto';
import { openMemoryDatabase } from './memory-database';

/** A clock the test moves by hand: verbs and the pipeline read time only through `now()`. */
export class TestClock {
  private at: number;
  constructor(start = '2026-11-22T10:00:00Z') {
    this.at = Date.parse(start);
  }
  now = (): Date => new Date(this.at);
  advance(ms: number): void {
    this.at += ms;
  }
}

type Zone = {
  txt: string[];
  cname: string[];
  mx: { exchange: string; priority: number }[];
  a: string[];
  isFailing?: boolean;
};

/** A resolver the test fills in: names answer exactly what was published, or fail when told to. */
export class TestDns implements DnsLookup {
  private readonly zones = new Map<string, Zone>();

  private zone(name: string): Zone {
    const key = name.toLowerCase().replace(/\.$/, '');
    let zone = this.zones.get(key);
    if (!zone) this.zones.set(key, (zone = { txt: [], cname: [], mx: [], a: [] }));
    return zone;
  }

  /** Publishes what a domain's API object asks for (its `dns_records`). */
  publishRecords(records: { type: string; host: string; content: string; priority?: number }[]): void {
    for (const record of records) {
      const zone = this.zone(record.host);
      if (record.type === 'TXT') zone.txt.push(record.content);
      else if (record.type === 'CNAME') zone.cname.push(record.content);
      else if (record.type === 'MX') zone.mx.push({ exchange: record.content, priority: record.priority ?? 10 });
    }
  }

  mxFor(domain: string, host: string, addresses: string[]): void {
    this.zone(domain).mx = [{ exchange: host, priority: 10 }];
    this.zone(host).a = addresses;
  }

  failName(name: string): void {
    this.zone(name).isFailing = true;
  }

  private answer(name: string, pick: (zone: Zone) => string[]): Promise<DnsAnswer> {
    const zone = this.zones.get(name.toLowerCase().replace(/\.$/, ''));
    if (zone?.isFailing) return Promise.resolve({ status: 'error', error: 'SERVFAIL' });
    const values = zone ? pick(zone) : [];
    return Promise.resolve(values.length ? { status: 'found', values } : { status: 'none' });
  }

  txt = (name: string) => this.answer(name, (zone) => zone.txt);
  cname = (name: string) => this.answer(name, (zone) => zone.cname);
  mx = (name: string) => this.answer(name, (zone) => zone.mx.map((record) => record.exchange));
  addresses = (name: string) => this.answer(name, (zone) => zone.a);
  reverse = async (): Promise<DnsAnswer> => ({ status: 'none' });
  mxRecords = async (name: string) => {
    const zone = this.zones.get(name.toLowerCase());
    if (zone?.isFailing) return { status: 'error' as const, error: 'SERVFAIL' };
    if (!zone || zone.mx.length === 0) return { status: 'none' as const };
    return { status: 'found' as const, values: [...zone.mx].sort((a, b) => a.priority - b.priority) };
  };
}

export const TEST_CONFIG: CoreConfig = {
  publicUrl: new URL('https://mailstead.test'),
  mailHostname: 'mx.mailstead.test',
  spfInclude: null,
  sendingIps: ['192.0.2.10'],
  smtpRelayUrl: null,
  smtpDeliveryPort: 25,
  httpPort: 0,
  allowPrivateNetworks: true,
  systemSender: null,
  invitationTtlSeconds: 7 * 24 * 3600,
  auditRetentionDays: 365,
  passwordResetTtlSeconds: 3600,
  mediaQuotaBytes: 100 * 1024 * 1024,
  dns: { timeoutMs: 1000, checkCacheSeconds: 60, recheckIntervalSeconds: 1200 },
  delivery: {
    retrySchedule: [60, 300],
    batchSize: 50,
    connections: 2,
    pollMs: 50,
    leaseSeconds: 60,
    threads: 0,
    smtpTimeoutMs: 5000,
  },
  pause: { bounceRate: 0.5, minVolume: 4, windowHours: 24 },
  webhooks: {
    timeoutMs: 2000,
    retrySchedule: [1, 2],
    routeRetrySchedule: [1, 2],
    disableAfterFailures: 3,
    disableAfterSeconds: 0,
    pollMs: 50,
    concurrency: 4,
  },
};

/** Password attempts counted in memory, with sign-in's figures (10 per 15 minutes). */
export const testAttemptLimiter = () =>
  createSignInLimiter({
    redis: null,
    namespace: 'test',
    logger: pino({ level: 'silent' }),
    attempts: 10,
    windowSeconds: 15 * 60,
    kind: 'password',
  });

export type TestServices = Services & { clock: TestClock; dns: TestDns; close: () => Promise<void> };

/** Every service a verb uses, real where we own it (PGlite in memory, the template workers), faked only for DNS and time. */
export async function memoryServices(config: Partial<CoreConfig> = {}): Promise<TestServices> {
  const db = await openMemoryDatabase();
  const clock = new TestClock();
  const renderer = createTemplateRenderer({ workers: 1 });
  return {
    db,
    config: { ...TEST_CONFIG, ...config },
    secrets: new SecretBox(randomBytes(32)),
    logger: pino({ level: 'silent' }),
    now: clock.now,
    clock,
    dns: new TestDns(),
    renderer,
    passwordAttempts: testAttemptLimiter(),
    resetRequests: testAttemptLimiter(),
    // The in-memory database goes with the test file's worker.
    close: () => renderer.close(),
  };
}

export const as = (services: Services, principal: Principal): VerbContext => ({ ...services, principal });

/** A new account and its system principal (every scope), as the CLI makes them. */
export async function newAccount(services: Services, name = 'Acme') {
  const created = await createAccount(as(services, systemPrincipal('')), {
    name,
    owner_email: `owner-${randomBytes(4).toString('hex')}@example.com`,
    owner_password: 'correct horse battery staple',
  });
  return { accountId: created.account_id, principal: systemPrincipal(created.account_id) };
}

/** A principal of the account holding only the given scopes, as an API key would. */
export function keyPrincipal(accountId: string, scopes: string[]): Principal {
  return {
    kind: 'api_key',
    accountId,
    targetAccountId: accountId,
    scopes,
    apiKeyId: '00000000-0000-4000-8000-00000000000a',
    clientIp: '127.0.0.1',
    isSandbox: false,
  };
}
