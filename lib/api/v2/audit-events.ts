import { listAuditEvents } from '@/lib/core/audit/list-audit-events';
import { auditEventSchema, listAuditEventsQuerySchema } from '@/lib/core/audit/schemas';
import type { Page } from '@/lib/core/shared/pagination';
import type { Endpoint } from '../endpoint';
import { listEnvelopeSchema, presentPage } from '../pagination';

export const auditEventEndpoints = [
  {
    method: 'get',
    path: '/v2/accounts/{account_id}/audit-events',
    verb: listAuditEvents,
    status: 200,
    summary: 'List audit events',
    description:
      'Every change made to the account (by an API key, a person, an SMTP credential, the CLI or the system), newest first. Reads and sends are not recorded. A partner sees its sub accounts’ events too, with `account_id` naming the sub account.',
    tags: ['Audit events'],
    query: listAuditEventsQuerySchema,
    response: listEnvelopeSchema(auditEventSchema, 'PaginatedAuditEventsResponse'),
    input: ({ query }) => query,
    present: (page: Page<unknown>) => presentPage(page),
    isExtension: true,
  },
] satisfies Endpoint[];
