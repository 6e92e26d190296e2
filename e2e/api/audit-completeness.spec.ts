import { expect, test } from '@playwright/test';
import { internalEndpoints } from '../../lib/api/internal';
import { v2Endpoints } from '../../lib/api/v2';
import { LOOPBACK_IP, withAuditEvents } from '../support/audit-fixtures';
import type { ApiClient, ApiResponse } from '../support/client';
import { dashboardSession } from '../support/dashboard-session';
import { IMAGES } from '../support/media-fixtures';
import { uploadMedia } from '../support/media-client';
import { importHelpers } from '../support/contact-import-fixtures';
import { routeDomainToLoopback, verifiedDomain } from '../support/sending';
import { makePartner } from '../support/sub-account-fixtures';
import type { Case, Suite } from './audit-cases';
import { AUDITED_WRITES } from './audit-table';

/**
 * The audit log's completeness: every write endpoint (v2 and /internal) has a row here naming the
 * event it records, or why it records none; each, called once, adds exactly one event naming the
 * caller, the address, the request and the resource, and a refused call adds none.
 */
const nameOf = (endpoint: { method: string; path: string }) => `${endpoint.method.toUpperCase()} ${endpoint.path}`;
const writes = [...v2Endpoints, ...internalEndpoints].filter((endpoint) => endpoint.method !== 'get').map(nameOf);

test('every write endpoint has a row in the table of audited writes, and every row is an endpoint', () => {
  expect(writes.filter((name) => !(name in AUDITED_WRITES))).toEqual([]);
  expect(Object.keys(AUDITED_WRITES).filter((name) => !writes.includes(name))).toEqual([]);
});

const suite = {} as Suite;

test.beforeAll(async () => {
  const partner = await makePartner('Audit completeness');
  const keys = await partner.api.get(partner.api.account('/api-keys'));
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const sender = (await verifiedDomain(partner.api, `audit-${stamp}.example.com`)).domain;
  // Campaigns send from a marketing domain.
  expect((await partner.api.put(partner.api.account(`/domains/${sender}`), { sending_type: 'marketing' })).status).toBe(
    200,
  );
  Object.assign(suite, {
    api: partner.api,
    accountId: partner.accountId,
    ownerId: partner.ownerId,
    ownerEmail: partner.ownerEmail,
    keyId: keys.body.data[0].id,
    keyLabel: keys.body.data[0].label,
    session: await dashboardSession(partner.ownerId),
    sender,
    stamp,
    uploadMedia: (client: ApiClient) => uploadMedia(client, IMAGES.png),
    importContacts: (client: ApiClient) => importHelpers(() => client).upload(client, 'email\na@example.org\n'),
    routeDomainToLoopback,
  });
});

const cases = Object.entries(AUDITED_WRITES).filter((entry): entry is [string, Case] => typeof entry[1] !== 'string');

// A row's refused call runs first in its test, on the same prepared resources: one preparation per
// row, not two (the prepared sub accounts, members and domains are most of this file's time).
for (const [name, auditCase] of cases) {
  const title = `${name} - records one ${auditCase.action} event: actor, IP, request id and resource`;
  test(auditCase.refused ? `${title}; a refused call records nothing` : title, async () => {
    const prepared = await auditCase.prepare?.(suite);
    if (auditCase.refused) {
      const refused = await withAuditEvents(suite.api, () => auditCase.refused!(suite, prepared));
      expect(refused.response.status, refused.response.text).toBeGreaterThanOrEqual(400);
      expect(refused.response.status).toBeLessThan(500);
      expect(refused.events, 'the refused call').toEqual([]);
    }
    const { response, events } = await withAuditEvents(suite.api, () => auditCase.call(suite, prepared));
    expect(response.status, response.text).toBeLessThan(300);
    expect(events.map((event) => event.action)).toEqual([auditCase.action]);
    const [event] = events;
    const isSession = auditCase.asUser === true;
    expect(event.actor).toEqual(
      isSession
        ? { type: 'user', id: suite.ownerId, label: suite.ownerEmail }
        : auditCase.actor
          ? auditCase.actor(suite, prepared)
          : { type: 'api_key', id: suite.keyId, label: suite.keyLabel },
    );
    expect(event.ip).toMatch(LOOPBACK_IP);
    expect(event.request_id).toBe(response.headers.get('x-request-id'));
    expect(event.request_id).toBeTruthy();
    expect(event.resource.id).toBe(auditCase.resource(response, prepared, suite));
    expect(event.account_id).toBe(auditCase.account?.(prepared, suite, response) ?? suite.accountId);
  });
}

test('sends, tests and previews record nothing', async () => {
  const sent: ApiResponse[] = [];
  const { events } = await withAuditEvents(suite.api, async () => {
    sent.push(
      await suite.api.post(suite.api.account('/messages'), {
        from: { email: `hello@${suite.sender}` },
        recipients: [{ email: 'audit-send@example.org' }],
        subject: 'Not audited',
        text_content: 'Counted, not audited.',
        sandbox: true,
      }),
    );
    return sent[0];
  });
  expect(sent[0].status, sent[0].text).toBe(202);
  expect(events).toEqual([]);
});
