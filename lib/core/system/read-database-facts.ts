import { sql } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import {
  unsafeLookUpVerifiedDomains,
  type VerifiedDomainRecords,
} from '@/lib/core/domains/internal/look-up-verified-domains';

/** What `mailstead doctor` needs from the database, plain JSON so that it crosses the control socket. */
export type DatabaseFacts = {
  /** The database's clock (clock_timestamp()), in milliseconds since the epoch. */
  databaseNowMs: number;
  /** The reading process's clock just before and after the database read its own. */
  localBeforeMs: number;
  localAfterMs: number;
  /** drizzle's record of applied migrations: each one's folder time. */
  appliedMigrations: number[];
  masterKeyFingerprint: string | null;
  verifiedDomains: VerifiedDomainRecords[];
  /** Verified domains past the limit, not looked up. */
  domainsNotChecked: number;
  /**
   * Whether MAIL_HOSTNAME's zone lets reporters send a domain's DMARC reports to our MX (RFC 7489
   * 7.1: `<domain>._report._dmarc.<MAIL_HOSTNAME>` TXT "v=DMARC1"), asked for one domain with
   * reports on; null when none has them on.
   */
  dmarcReportAuthorization: {
    domain: string;
    name: string;
    status: 'found' | 'none' | 'error';
    detail: string | null;
    domainsWithReports: number;
  } | null;
};

type Rows<T> = { rows: T[] };

/** Read-only: no migration is applied and no fingerprint stored (buildRegistry does both, doctor must not). */
export async function unsafeReadDatabaseFacts(
  services: Pick<Services, 'db' | 'dns' | 'config' | 'now'>,
): Promise<DatabaseFacts> {
  const { db } = services;
  const localBeforeMs = Date.now();
  const clock = (await db.execute(
    sql`select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms`,
  )) as unknown as Rows<{ ms: number }>;
  const localAfterMs = Date.now();
  const tables = (await db.execute(
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as has_migrations, to_regclass('public.settings') is not null as has_settings`,
  )) as unknown as Rows<{ has_migrations: boolean; has_settings: boolean }>;
  const { has_migrations: hasMigrations, has_settings: hasSettings } = tables.rows[0];
  const applied = hasMigrations
    ? (
        (await db.execute(
          sql`select created_at::text as created_at from drizzle.__drizzle_migrations order by created_at`,
        )) as unknown as Rows<{ created_at: string }>
      ).rows.map((row) => Number(row.created_at))
    : [];
  const fingerprint = hasSettings
    ? ((
        (await db.execute(sql`select value from settings where key = 'master_key_fingerprint'`)) as unknown as Rows<{
          value: string;
        }>
      ).rows[0]?.value ?? null)
    : null;
  const domains = hasSettings ? await unsafeLookUpVerifiedDomains(services) : { domains: [], notChecked: 0 };
  const dmarcReportAuthorization = hasSettings ? await lookUpDmarcReportAuthorization(services) : null;
  return {
    databaseNowMs: Number(clock.rows[0].ms),
    localBeforeMs,
    localAfterMs,
    appliedMigrations: applied,
    masterKeyFingerprint: fingerprint,
    verifiedDomains: domains.domains,
    domainsNotChecked: domains.notChecked,
    dmarcReportAuthorization,
  };
}

async function lookUpDmarcReportAuthorization(
  services: Pick<Services, 'db' | 'dns' | 'config'>,
): Promise<DatabaseFacts['dmarcReportAuthorization']> {
  // A database from before reports were added (0032) has no such column: nothing to check.
  const column = (await services.db.execute(
    sql`select 1 from information_schema.columns where table_name = 'domains' and column_name = 'reports_enabled'`,
  )) as unknown as Rows<unknown>;
  if (column.rows.length === 0) return null;
  const found = (await services.db.execute(
    sql`select domain, count(*) over ()::int as n from domains where reports_enabled and deleted_at is null order by domain limit 1`,
  )) as unknown as Rows<{ domain: string; n: number }>;
  const first = found.rows[0];
  if (!first) return null;
  const name = `${first.domain}._report._dmarc.${services.config.mailHostname}`;
  const answer = await services.dns.txt(name);
  const isAuthorised = answer.status === 'found' && answer.values.some((value) => /^v=DMARC1\b/i.test(value.trim()));
  return {
    domain: first.domain,
    name,
    status: answer.status === 'error' ? 'error' : isAuthorised ? 'found' : 'none',
    detail: answer.status === 'error' ? answer.error : answer.status === 'found' ? answer.values.join(' ') : null,
    domainsWithReports: Number(first.n),
  };
}
