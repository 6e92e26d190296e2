import { getSubAccountUsageHistory } from '@/lib/core/sub-accounts/get-sub-account-usage-history';
import { subAccountUsageHistoryQuerySchema } from '@/lib/core/sub-accounts/schemas';
import { z } from '@/lib/core/zod';
import type { Endpoint } from '../endpoint';

const anything = z.object({}).passthrough();

/** The Sub accounts page's month-by-month chart; the contract's usage report covers only the current month. */
export const subAccountInternalEndpoints: Endpoint[] = [
  {
    method: 'get',
    path: '/internal/accounts/{account_id}/sub-accounts/{sub_account_id}/usage-history',
    verb: getSubAccountUsageHistory,
    status: 200,
    summary: "A sub account's accepted, delivered and bounced messages per UTC month",
    tags: ['Internal'],
    query: subAccountUsageHistoryQuerySchema.omit({ sub_account_id: true }),
    response: anything,
    isHiddenFromDocument: true,
  },
];
