import type { Services } from '@/lib/core/context';
import { classifyMailboxProvider, type MailboxProvider } from '@/lib/core/providers/classify-mailbox-provider';
import { ProviderPacing } from './provider-pacing';
import { resolveDestination, type Destination } from './resolve-destination';
import { SmtpPool, type SmtpTarget } from './smtp-pool';

const MX_CACHE_MS = 5 * 60 * 1000;

type Unavailable = { kind: 'permanent' | 'temporary'; reason: string };

/**
 * Connection pools by destination: one per recipient domain (direct MX delivery), or one for
 * everything when SMTP_RELAY_URL is set. MX answers are cached for a few minutes.
 */
export class Destinations {
  private readonly pools = new Map<string, SmtpPool>();
  private readonly opening = new Map<string, Promise<SmtpPool | Unavailable>>();
  private readonly resolved = new Map<string, { destination: Destination; until: number }>();
  private readonly providers = new Map<string, MailboxProvider>();
  /** Through a relay, recipient domains' providers for warm-up alone (warmupProviderOf). */
  private readonly relayedProviders = new Map<string, { provider: MailboxProvider; until: number }>();
  private readonly relay: SmtpTarget | null;
  /** Connections per provider, lowered when it throttles (provider-pacing.ts). */
  readonly pacing: ProviderPacing;
  /** Told each domain's provider when its pool opens (recorded for statistics, record-domain-provider.ts). */
  onClassified: ((domain: string, provider: MailboxProvider, mxHosts: string[]) => void) | null = null;

  constructor(private readonly services: Pick<Services, 'config' | 'dns'>) {
    this.pacing = new ProviderPacing({
      normalConcurrency: services.config.delivery.connections,
      raiseAfterAccepted: services.config.delivery.pacingRaiseAfterAccepted ?? 10,
    });
    const url = services.config.smtpRelayUrl ? new URL(services.config.smtpRelayUrl) : null;
    this.relay = url
      ? {
          host: url.hostname,
          address: url.hostname,
          port: Number(url.port) || (url.protocol === 'smtps:' ? 465 : 587),
          secure: url.protocol === 'smtps:',
          auth: url.username
            ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
            : undefined,
        }
      : null;
  }

  /**
   * The pool for a recipient domain, or why there is none (permanent or temporary). Callers that
   * ask at the same time share one lookup and one pool: otherwise each would open its own
   * connections, beyond DELIVERY_CONNECTIONS.
   */
  poolFor(recipientDomain: string): Promise<SmtpPool | Unavailable> {
    const key = this.relay ? 'relay' : recipientDomain;
    const existing = this.pools.get(key);
    if (existing) return Promise.resolve(existing);
    let opening = this.opening.get(key);
    if (!opening) {
      opening = this.open(key, recipientDomain).finally(() => this.opening.delete(key));
      this.opening.set(key, opening);
    }
    return opening;
  }

  private async open(key: string, recipientDomain: string): Promise<SmtpPool | Unavailable> {
    let targets: SmtpTarget[];
    if (this.relay) {
      targets = [this.relay];
    } else {
      const destination = await this.resolve(recipientDomain);
      if (destination.kind !== 'hosts') return destination;
      const mxHosts = destination.hosts.map(({ host }) => host);
      const provider = classifyMailboxProvider(mxHosts);
      this.providers.set(recipientDomain, provider);
      this.onClassified?.(recipientDomain, provider, mxHosts);
      targets = destination.hosts.flatMap(({ host, addresses }) =>
        addresses.map((address) => ({ host, address, port: this.services.config.smtpDeliveryPort, secure: false })),
      );
    }
    // Each pool of a provider follows the provider's limit: it is per recipient domain's pool, not a
    // sum across them (100 Workspace domains may each hold that many connections to Google's MX).
    const pacingKey = this.pacingKeyOf(recipientDomain);
    const pool = new SmtpPool(targets, {
      ehloName: this.services.config.mailHostname,
      maxConnections: this.services.config.delivery.connections,
      timeoutMs: this.services.config.delivery.smtpTimeoutMs,
      pacedLimit: () => this.pacing.limit(pacingKey),
      pacedSpacingMs: () => this.pacing.spacing(pacingKey),
      // Past half its lease a message waiting for a paced connection goes back to the queue: after
      // the lease another process may claim and send it while this one still would.
      maxWaitMs: (this.services.config.delivery.leaseSeconds * 1000) / 2,
    });
    this.pools.set(key, pool);
    return pool;
  }

  /**
   * The mailbox provider of a recipient domain whose pool is open, from the MX hosts it was opened
   * with; null through a relay (no MX is looked up) or before the pool opens.
   */
  providerOf(recipientDomain: string): MailboxProvider | null {
    return this.relay ? null : (this.providers.get(recipientDomain) ?? null);
  }

  /** Whether everything goes through SMTP_RELAY_URL (then the relay's addresses send it, not ours). */
  get isRelayed(): boolean {
    return this.relay !== null;
  }

  /**
   * The provider a warm-up counts a recipient domain under: the open pool's, or through a relay,
   * from an MX lookup made only for this (cached as the pools' are), so that a warming domain's
   * Gmail limit holds whatever carries its mail. A domain whose MX cannot be read counts as other.
   */
  async warmupProviderOf(recipientDomain: string): Promise<MailboxProvider> {
    if (!this.relay) return this.providers.get(recipientDomain) ?? 'other';
    const cached = this.relayedProviders.get(recipientDomain);
    if (cached && cached.until > Date.now()) return cached.provider;
    // The MX hosts' names are all it takes: nothing is connected to, so no address is resolved or checked.
    const answer = await this.services.dns.mxRecords(recipientDomain).catch(() => null);
    const provider =
      answer?.status === 'found' ? classifyMailboxProvider(answer.values.map(({ exchange }) => exchange)) : 'other';
    if (this.relayedProviders.size >= 10_000) this.relayedProviders.clear();
    this.relayedProviders.set(recipientDomain, { provider, until: Date.now() + MX_CACHE_MS });
    return provider;
  }

  /** What a recipient domain is paced as: its provider, the domain itself for others, or the relay. */
  pacingKeyOf(recipientDomain: string): string {
    return ProviderPacing.keyFor(this.relay ? null : (this.providers.get(recipientDomain) ?? 'other'), recipientDomain);
  }

  /** A pool whose hosts could not be reached is forgotten, so the next attempt resolves again. */
  forget(recipientDomain: string): void {
    const key = this.relay ? 'relay' : recipientDomain;
    this.pools.get(key)?.close();
    this.pools.delete(key);
    this.resolved.delete(recipientDomain);
    this.providers.delete(recipientDomain);
  }

  closeIdle(): void {
    for (const [key, pool] of this.pools) {
      pool.closeIdle();
      if (!pool.isEmpty) continue;
      this.pools.delete(key);
      this.providers.delete(key);
    }
  }

  close(): void {
    for (const pool of this.pools.values()) pool.close();
    this.pools.clear();
  }

  private async resolve(domain: string): Promise<Destination> {
    const cached = this.resolved.get(domain);
    if (cached && cached.until > Date.now()) return cached.destination;
    const destination = await resolveDestination(this.services.dns, domain, {
      allowPrivateNetworks: this.services.config.allowPrivateNetworks,
    });
    if (destination.kind === 'hosts') this.resolved.set(domain, { destination, until: Date.now() + MX_CACHE_MS });
    return destination;
  }
}
