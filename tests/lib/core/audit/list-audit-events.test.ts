import { afterAll, beforeAll, expect, it } from 'vitest';
import { listAuditEvents } from '@/lib/core/audit/list-audit-events';
import { auditEvents } from '@/lib/db/schema';
import { as, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/** Filtering the log by an action family (`api_key.*`): a prefix, its characters taken literally. */
let services: TestServices;

beforeAll(async () => {
  services = await memoryServices();
}, 60_000);
afterAll(async () => services.close());

it.each([
  ['api_key.*', ['api_key.create', 'api_key.delete']],
  ['api_key.create', ['api_key.create']],
  ['apixkey.*', ['apixkey.create']],
])(
  'the filter %j matches only %j, never a look-alike (LIKE would read _ as any character)',
  async (action, expected) => {
    const { accountId, principal } = await newAccount(services, 'Audit filters');
    const event = (name: string) => ({ accountId, actorType: 'system', action: name, resourceType: 'api_key' });
    await services.db
      .insert(auditEvents)
      .values(['api_key.create', 'api_key.delete', 'apiXkey.create', 'apixkey.create', 'api_keys.create'].map(event));
    const listed = await listAuditEvents(as(services, principal), { action, limit: 100 });
    expect(
      listed.items
        .map((item) => item.action)
        .filter((name) => name !== 'account.create')
        .sort(),
    ).toEqual(expected);
  },
);
