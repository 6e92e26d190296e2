import { sql } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import type { MailboxProvider } from '@/lib/core/providers/classify-mailbox-provider';
import { recipientDomainProviders } from '@/lib/db/schema';

/** How long a recorded classification stands before the next pool opening writes it again. */
export const DOMAIN_PROVIDER_TTL_MS = 6 * 3_600_000;
const MAX_REMEMBERED = 10_000;

/**
 * Records each recipient domain's provider (recipient_domain_providers) when its pool opens: one
 * small upsert per domain and TTL, never per message. Statistics filter and group by provider
 * through this table. Written in the background; `drain` waits for the writes in flight.
 */
export class DomainProviderRecorder {
  private readonly written = new Map<string, { provider: MailboxProvider; at: number }>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly services: Pick<Services, 'db' | 'logger'>) {}

  note(domain: string, provider: MailboxProvider, mxHosts: string[], now = Date.now()): void {
    const last = this.written.get(domain);
    if (last && last.provider === provider && now - last.at < DOMAIN_PROVIDER_TTL_MS) return;
    if (this.written.size >= MAX_REMEMBERED) this.written.delete(this.written.keys().next().value!);
    this.written.set(domain, { provider, at: now });
    const write = this.services.db
      .insert(recipientDomainProviders)
      .values({ domain, provider, mxHosts, checkedAt: new Date(now) })
      .onConflictDoUpdate({
        target: recipientDomainProviders.domain,
        set: { provider, mxHosts, checkedAt: sql`excluded.checked_at` },
      })
      .then(
        () => {},
        (error: unknown) => {
          this.written.delete(domain);
          this.services.logger.error({ err: error, domain }, 'recipient domain provider could not be recorded');
        },
      )
      .finally(() => this.inFlight.delete(write));
    this.inFlight.add(write);
  }

  async drain(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }
}
