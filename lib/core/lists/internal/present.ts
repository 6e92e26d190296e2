import type { ContactObject } from '@/lib/core/contacts/internal/present';
import type { contactLists, listMemberships } from '@/lib/db/schema';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../schemas';

export type ListRow = typeof contactLists.$inferSelect;
export type MembershipRow = typeof listMemberships.$inferSelect;
export type MemberCounts = Record<SubscriptionStatus, number>;

export const emptyCounts = (): MemberCounts =>
  Object.fromEntries(SUBSCRIPTION_STATUSES.map((status) => [status, 0])) as MemberCounts;

export function presentList(row: ListRow, counts: MemberCounts = emptyCounts()) {
  return {
    object: 'contact_list' as const,
    id: row.id,
    name: row.name,
    description: row.description,
    public_name: row.publicName,
    member_counts: counts,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export type ContactListObject = ReturnType<typeof presentList>;

export function presentMembership(row: MembershipRow, contact?: ContactObject) {
  return {
    object: 'list_membership' as const,
    list_id: row.listId,
    contact_id: row.contactId,
    subscription_status: row.subscriptionStatus as SubscriptionStatus,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    ...(contact ? { contact } : {}),
  };
}

export type ListMembershipObject = ReturnType<typeof presentMembership>;
