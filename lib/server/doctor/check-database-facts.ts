import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { DatabaseFacts } from '@/lib/core/system/read-database-facts';
import { MIGRATIONS_FOLDER } from '@/lib/db/client';
import { result, type CheckResult } from './check-result';

export const CLOCK_WARN_MS = 5000;
export const CLOCK_FAIL_MS = 60_000;

/**
 * This machine's clock against the database's. The local readings bracket the moment the database
 * read its clock, so only skew beyond the round trip counts.
 */
export function checkClockSkew(
  facts: Pick<DatabaseFacts, 'databaseNowMs' | 'localBeforeMs' | 'localAfterMs'>,
): CheckResult {
  const { databaseNowMs: at, localBeforeMs: before, localAfterMs: after } = facts;
  const skew = at < before ? at - before : at > after ? at - after : 0;
  const seconds = `${(Math.abs(skew) / 1000).toFixed(1)} s`;
  const side = skew > 0 ? 'ahead of' : 'behind';
  const fix =
    "run NTP (e.g. systemd-timesyncd or chrony) on this machine and the database's: leases, retries and expiry compare the two clocks";
  if (Math.abs(skew) > CLOCK_FAIL_MS)
    return result('clock', 'fail', `the database's clock is ${seconds} ${side} this machine's`, fix);
  if (Math.abs(skew) > CLOCK_WARN_MS)
    return result('clock', 'warn', `the database's clock is ${seconds} ${side} this machine's`, fix);
  return result('clock', 'ok', `this machine and the database agree on the time (within ${seconds})`);
}

/** Every migration this version ships is applied (the server applies them when it starts). */
export function checkMigrations(
  facts: Pick<DatabaseFacts, 'appliedMigrations'>,
  shipped = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).map((migration) => migration.folderMillis),
): CheckResult {
  const latest = Math.max(0, ...facts.appliedMigrations);
  const pending = shipped.filter((millis) => millis > latest);
  const unknown = facts.appliedMigrations.filter((millis) => !shipped.includes(millis));
  if (pending.length > 0) {
    return result(
      'migrations',
      'warn',
      `${pending.length} of ${shipped.length} migrations are not applied yet`,
      'npx mailstead migrate (the server also applies them when it starts)',
    );
  }
  if (unknown.length > 0) {
    return result(
      'migrations',
      'warn',
      `the database has ${unknown.length} migration(s) this version does not ship: a newer Mailstead ran on it`,
      'upgrade this copy of Mailstead to the version that migrated the database',
    );
  }
  return result('migrations', 'ok', `all ${shipped.length} migrations applied`);
}

/** The key this environment would use is the one the database's secrets were written with. */
export function checkMasterKey(
  facts: Pick<DatabaseFacts, 'masterKeyFingerprint'>,
  fingerprint: string | null,
  source: string,
): CheckResult {
  if (facts.masterKeyFingerprint === null)
    return result(
      'master_key',
      'skip',
      'the database holds no master key fingerprint yet: the server stores it when it first starts',
    );
  if (fingerprint === null) {
    return result(
      'master_key',
      'fail',
      `no master key here (${source}), but the database was created with one`,
      "restore the data directory's master.key, or set MAILSTEAD_SECRET to the key the database was created with",
    );
  }
  if (fingerprint !== facts.masterKeyFingerprint) {
    return result(
      'master_key',
      'fail',
      `the master key (${source}) is not the one the database was created with: the server refuses to start and stored secrets cannot be read`,
      'set MAILSTEAD_SECRET (or master.key) to the key the database was created with',
    );
  }
  return result('master_key', 'ok', `the master key (${source}) matches the database's fingerprint`);
}

/** A verified domain whose required records DNS no longer shows will be marked invalid at its next re-check. */
export function checkDomainRecords(facts: Pick<DatabaseFacts, 'verifiedDomains' | 'domainsNotChecked'>): CheckResult[] {
  const results = facts.verifiedDomains.map((domain) => {
    const required = domain.records.filter((record) => record.required);
    const missing = required.filter((record) => !record.propagated && !record.error);
    const unanswered = required.filter((record) => record.error);
    const names = (records: typeof required) =>
      records.map((record) => `${record.label} (${record.type} ${record.host})`).join(', ');
    if (missing.length > 0) {
      return result(
        'domain_dns',
        'fail',
        `${domain.domain}: DNS no longer shows ${names(missing)}`,
        `publish the records the dashboard lists for ${domain.domain} (Domains page), then check it again there`,
      );
    }
    if (unanswered.length > 0) {
      return result(
        'domain_dns',
        'warn',
        `${domain.domain}: DNS did not answer for ${names(unanswered)} (${unanswered[0].error})`,
        'run doctor again; if it persists, check the resolver (dns_resolver line)',
      );
    }
    return result('domain_dns', 'ok', `${domain.domain}: SPF, DKIM and DMARC found as published`);
  });
  if (facts.domainsNotChecked > 0)
    results.push(
      result(
        'domain_dns',
        'skip',
        `${facts.domainsNotChecked} more verified domain(s) not looked up (the first ${facts.verifiedDomains.length} were)`,
      ),
    );
  return results;
}

/**
 * DMARC reports reach our MX only if MAIL_HOSTNAME's zone says it takes reports for other domains
 * (RFC 7489 7.1): reporters look up `<domain>._report._dmarc.<MAIL_HOSTNAME>` and send nothing
 * without "v=DMARC1" there. One wildcard record covers every domain.
 */
export function checkDmarcReportAuthorization(
  facts: Pick<DatabaseFacts, 'dmarcReportAuthorization'>,
  mailHostname: string,
): CheckResult {
  const found = facts.dmarcReportAuthorization;
  if (!found)
    return result('dmarc_reports', 'skip', 'no domain receives DMARC reports (reports_enabled is off everywhere)');
  const fix = `publish *._report._dmarc.${mailHostname} TXT "v=DMARC1" in ${mailHostname}'s zone (docs/smtp-and-inbound.md)`;
  const others =
    found.domainsWithReports > 1 ? ` (and ${found.domainsWithReports - 1} more domain(s) with reports on)` : '';
  if (found.status === 'found')
    return result(
      'dmarc_reports',
      'ok',
      `reporters may send ${found.domain}'s DMARC reports here: ${found.name} says v=DMARC1${others}`,
    );
  if (found.status === 'error')
    return result(
      'dmarc_reports',
      'warn',
      `DNS did not answer for ${found.name} (${found.detail})`,
      'run doctor again; if it persists, check the resolver (dns_resolver line)',
    );
  return result(
    'dmarc_reports',
    'warn',
    `${found.name} has no "v=DMARC1" TXT record: reporters will not send ${found.domain}'s DMARC reports to ${mailHostname}${others}`,
    fix,
  );
}
