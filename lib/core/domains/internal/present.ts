import type { CoreConfig } from '@/lib/core/config';
import type { dkimKeys, domains } from '@/lib/db/schema';
import { expectedDnsRecords, reportAddress } from './dns-records';

type DomainRow = typeof domains.$inferSelect;
type KeyRow = Pick<typeof dkimKeys.$inferSelect, 'selector' | 'status' | 'publicKey'>;

function domainStatus(row: DomainRow, requiredKeys: string[]): 'verified' | 'pending' | 'failing' | 'paused' {
  if (row.isPaused) return 'paused';
  if (row.dnsValid) return 'verified';
  // Failing: a required record that verified before does not pass any more; pending: not there yet.
  const isBroken = requiredKeys.some((key) => row.dnsChecks[key]?.hasVerified && !row.dnsChecks[key].propagated);
  return isBroken ? 'failing' : 'pending';
}

export function presentDomain(
  row: DomainRow,
  keys: KeyRow[],
  config: Pick<CoreConfig, 'spfInclude' | 'sendingIps' | 'mailHostname' | 'publicUrl'>,
) {
  const records = expectedDnsRecords(row, keys, config);
  const standby = records.find((record) => record.label.startsWith('DKIM standby'));
  return {
    object: 'domain' as const,
    id: row.id,
    account_id: row.accountId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    domain: row.domain,
    dns_records: records.map((record) => {
      const check = row.dnsChecks[record.key];
      return {
        type: record.type,
        label: record.label,
        host: record.host,
        content: record.content,
        required: record.required,
        propagated: check?.propagated ?? false,
        ...(record.priority !== undefined ? { priority: record.priority } : {}),
        found: check?.found ?? null,
        error: check?.error ?? null,
        checked_at: check?.checkedAt ?? null,
      };
    }),
    last_dns_check_at: row.lastDnsCheckAt?.toISOString() ?? null,
    dns_valid: row.dnsValid,
    tracking_subdomain: row.trackingSubdomain,
    return_path_subdomain: row.returnPathSubdomain,
    subscription_subdomain: row.subscriptionSubdomain,
    media_subdomain: row.mediaSubdomain,
    dkim_rotation_interval_days: null,
    dkim_selector: row.dkimSelector,
    rotation_ready: standby ? (row.dnsChecks[standby.key]?.propagated ?? false) : false,
    dsn_recipient: row.dsnRecipient,
    reports_enabled: row.reportsEnabled,
    report_address: reportAddress(row, config.mailHostname),
    sending_type: row.sendingType as 'transactional' | 'marketing',
    warmup: {
      enabled: row.warmupEnabled,
      plan: row.warmupPlan ?? ('default' as const),
      started_at: row.warmupStartedAt?.toISOString() ?? null,
    },
    paused: row.isPaused,
    paused_at: row.pausedAt?.toISOString() ?? null,
    pause_reason: row.pauseReason,
    status: domainStatus(
      row,
      records.filter((record) => record.required).map((record) => record.key),
    ),
  };
}

export type DomainObject = ReturnType<typeof presentDomain>;
