import type { accounts } from '@/lib/db/schema';
import type { SubAccountObject } from '../schemas';

type AccountRow = typeof accounts.$inferSelect;

export type SubAccountFacts = { domainCount: number; memberCount: number; lastActivityAt: Date | null };

/** The child's `website` column holds an https URL (the Account object's form); a sub account shows its host. */
export function websiteHostOf(website: string | null): string {
  if (!website) return '';
  return URL.canParse(website) ? new URL(website).hostname : website;
}

export function presentSubAccount(row: AccountRow, facts: SubAccountFacts): SubAccountObject {
  return {
    object: 'sub_account',
    id: row.id,
    parent_account_id: row.parentAccountId!,
    created_at: row.createdAt.toISOString(),
    name: row.name,
    website: websiteHostOf(row.website),
    status: row.status as SubAccountObject['status'],
    monthly_credit: row.monthlyCredit,
    domain_count: facts.domainCount,
    member_count: facts.memberCount,
    last_activity_at: facts.lastActivityAt?.toISOString() ?? null,
    suspension_reason: row.status === 'suspended' ? row.suspensionReason : null,
  };
}
