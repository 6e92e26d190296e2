import { getProviderPacing } from '@/lib/core/deliverability/get-provider-pacing';
import { providerPacingListSchema } from '@/lib/core/deliverability/schemas';
import type { Endpoint } from '../endpoint';

export const deliverabilityEndpoints = [
  {
    method: 'get',
    path: '/v2/accounts/{account_id}/deliverability/pacing' as const,
    verb: getProviderPacing,
    status: 200,
    summary: 'Provider pacing: how fast mail goes to each mailbox provider now (Mailstead extension)',
    description:
      "Mailstead extension. When a provider answers with throttling replies (421/451 with 4.7.x, Gmail's 4.7.28, Microsoft's 4.7.650, Yahoo's [TS] codes), delivery to it halves its connections and raises them by one per PACING_RAISE_AFTER_ACCEPTED accepted messages. Gmail, Microsoft, Yahoo and Apple are always listed; other recipient domains only while slowed. The state is the server's, the same for every account.",
    tags: ['Statistics'],
    response: providerPacingListSchema,
    isExtension: true,
  },
] satisfies Endpoint[];
