'use client';

import { useQuery } from './use-query';
import type { AuditEvent } from '@/lib/core/audit/schemas';
import { callEndpoint, type ListEnvelope } from './endpoints';

const COLLECTION = '/v2/accounts/{account_id}/audit-events';

/** `query` carries the page's filters and cursor (`actor_type`, `action`, `from_time`, `after` ...). */
export function useAuditEvents(accountId: string, query: string) {
  return useQuery({
    queryKey: ['audit-events', accountId, query],
    // The endpoint's `present` takes any page, so the item type is named here.
    queryFn: () =>
      callEndpoint(`GET ${COLLECTION}`, { account_id: accountId }, { query }) as Promise<ListEnvelope<AuditEvent>>,
  });
}
