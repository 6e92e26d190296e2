import { SecretBox } from '@/lib/shared/crypto';
import type { Config } from '../config-settings';
import { lockHolder } from '../data-dir-lock';
import { readMasterKey } from '../master-key';
import {
  checkClockSkew,
  checkDmarcReportAuthorization,
  checkDomainRecords,
  checkMasterKey,
  checkMigrations,
} from './check-database-facts';
import { checkDataDirModes } from './check-data-dir-modes';
import { checkDnsResolver } from './check-dns-resolver';
import { checkPorts } from './check-ports';
import { checkPublicUrl } from './check-public-url';
import { checkSingleSignOn } from './check-single-sign-on';
import { result, type CheckResult } from './check-result';
import { checkTlsCertificate } from './check-tls-certificate';
import { gatherDatabaseFacts, type GatheredFacts } from './gather-database-facts';
import { isMailsteadHttps } from './probe-mailstead';

export type DoctorReport = { ok: boolean; checks: CheckResult[] };

/**
 * `mailstead doctor`: what a fresh install gets wrong, as ordered steps. The file checks run before
 * the database is opened (opening PGlite tightens its folder's modes), the rest after.
 */
export async function runDoctor(config: Config): Promise<DoctorReport> {
  const checks: CheckResult[] = [];
  checks.push(checkDataDirModes(config));
  checks.push(checkTlsCertificate(config));
  const isServerRunning = await isRunning(config);
  checks.push(await checkPublicUrl(config, isServerRunning));
  checks.push(await checkSingleSignOn(config));
  checks.push(...(await checkPorts(config)));
  checks.push(await checkDnsResolver(config));
  checks.push(...databaseChecks(config, await gatherDatabaseFacts(config)));
  return { ok: checks.every((check) => check.status !== 'fail'), checks };
}

/** A Mailstead answers on PORT, or (PGlite) a live process holds the data directory. */
async function isRunning(config: Config): Promise<boolean> {
  if (config.roles.includes('web') && (await isMailsteadHttps(config.port))) return true;
  return !config.databaseUrl && lockHolder(config.dataDir) !== null;
}

function databaseChecks(config: Config, gathered: GatheredFacts): CheckResult[] {
  if (gathered.kind === 'absent') {
    return [
      result(
        'database',
        'skip',
        `no database in ${config.dataDir} yet: the first start (or npx mailstead migrate) creates it`,
      ),
    ];
  }
  if (gathered.kind === 'unreachable') {
    return [
      result(
        'database',
        'fail',
        `the database could not be read: ${gathered.error}`,
        config.databaseUrl
          ? 'check DATABASE_URL, and that PostgreSQL accepts connections from this machine'
          : 'stop and start the server, then run doctor again',
      ),
    ];
  }
  const { facts } = gathered;
  let fingerprint: string | null;
  try {
    const key = readMasterKey(config);
    fingerprint = key ? new SecretBox(key).fingerprint() : null;
  } catch (error) {
    return [result('master_key', 'fail', (error as Error).message, 'restore master.key from a backup')];
  }
  const source = config.secretFromEnv ? 'MAILSTEAD_SECRET' : 'master.key';
  return [
    checkClockSkew(facts),
    checkMigrations(facts),
    checkMasterKey(facts, fingerprint, source),
    ...checkDomainRecords(facts),
    checkDmarcReportAuthorization(facts, config.mailHostname),
  ];
}

/** One line per check; the fix follows on the same line. */
export function formatDoctorReport(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((check) => check.check.length));
  const lines = report.checks.map(
    (check) =>
      `${check.status.padEnd(4)}  ${check.check.padEnd(width)}  ${check.message}${check.fix ? ` -> fix: ${check.fix}` : ''}`,
  );
  const failed = report.checks.filter((check) => check.status === 'fail').length;
  const warned = report.checks.filter((check) => check.status === 'warn').length;
  lines.push('', failed ? `${failed} check(s) failed, ${warned} warning(s)` : `nothing failed (${warned} warning(s))`);
  return lines.join('\n');
}
