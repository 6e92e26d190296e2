import {
  act,
  asUser,
  child,
  childAccount,
  created,
  del,
  id,
  internal,
  invitation,
  key,
  member,
  post,
  prepared,
  put,
  route,
  suppressed,
  unique,
  unknownIn,
  webhook,
  type Case,
  type Suite,
} from './audit-cases';
import { verifiedDomain } from '../support/sending';
import { MARKETING_WRITES } from './audit-table-marketing';
import { PERSON_WRITES } from './audit-table-people';

const domainName = (s: Suite) => `${unique(s, 'd')}.example.com`;
const aDomain = async (s: Suite) => (await post(s, '/domains', { domain: domainName(s) })).domain as string;
const childWithDomain = async (s: Suite) => {
  const childId = await child(s);
  const childKey = await post(s, `/sub-accounts/${childId}/api-keys`, { label: 'child', scopes: ['domains:write'] });
  const domain = domainName(s);
  const answer = await s.api.with(childKey.secret_key, childId).post(`/v2/accounts/${childId}/domains`, { domain });
  if (answer.status !== 201) throw new Error(answer.text);
  return { child: childId, domain };
};
const childKey = async (s: Suite) => {
  const childId = await child(s);
  const made = await post(s, `/sub-accounts/${childId}/api-keys`, { label: 'child', scopes: ['domains:read'] });
  return { child: childId, key: made.id };
};

/**
 * Every write endpoint: the case that exercises its audit event, or why it records none. A new
 * write endpoint fails the completeness test until it has a row here.
 */
export const AUDITED_WRITES: Record<string, Case | string> = {
  'PUT /v2/accounts/{account_id}': {
    action: 'account.update',
    call: put('', { name: 'Audited' }),
    resource: (_, __, s) => s.accountId,
    refused: put('', { name: '' }),
  },
  'POST /v2/accounts/{account_id}/members': {
    action: 'invitation.create',
    call: act('/members', { email: 'audit-invitee-new@example.org', role: 'Analyst' }),
    resource: (response) => response.body.invitation.id,
    refused: act('/members', { email: 'not an address', role: 'Analyst' }),
  },
  'PUT /v2/accounts/{account_id}/members/{user_id}': {
    action: 'member.role_change',
    prepare: member,
    call: put('/members/$', { role: 'Developer' }),
    resource: prepared,
    refused: unknownIn(put('/members/$', { role: 'Developer' })),
  },
  'DELETE /v2/accounts/{account_id}/members/{user_id}': {
    action: 'member.remove',
    prepare: member,
    call: del('/members/$'),
    resource: prepared,
    refused: unknownIn(del('/members/$')),
  },
  'POST /v2/accounts/{account_id}/member-invitations/{invitation_id}/resend': {
    action: 'invitation.resend',
    prepare: async (s) => (await invitation(s)).id,
    call: act('/member-invitations/$/resend'),
    resource: prepared,
    refused: unknownIn(act('/member-invitations/$/resend')),
  },
  'DELETE /v2/accounts/{account_id}/member-invitations/{invitation_id}': {
    action: 'invitation.revoke',
    prepare: async (s) => (await invitation(s)).id,
    call: del('/member-invitations/$'),
    resource: prepared,
    refused: unknownIn(del('/member-invitations/$')),
  },
  'POST /v2/accounts/{account_id}/api-keys': {
    action: 'api_key.create',
    call: act('/api-keys', { label: 'audited', scopes: ['domains:read'] }),
    resource: id,
    refused: act('/api-keys', { label: 'audited', scopes: ['no-such:scope'] }),
  },
  'PUT /v2/accounts/{account_id}/api-keys/{key_id}': {
    action: 'api_key.update',
    prepare: key,
    call: put('/api-keys/$', { label: 'relabelled' }),
    resource: prepared,
    refused: unknownIn(put('/api-keys/$', { label: 'relabelled' })),
  },
  'DELETE /v2/accounts/{account_id}/api-keys/{key_id}': {
    action: 'api_key.delete',
    prepare: key,
    call: del('/api-keys/$'),
    resource: prepared,
    refused: unknownIn(del('/api-keys/$')),
  },
  'POST /v2/accounts/{account_id}/sub-accounts': {
    action: 'sub_account.create',
    call: act('/sub-accounts', { name: 'Audited child', website: 'child.example.com', monthly_credit: 10 }),
    resource: id,
    account: (_, __, response) => response.body.id,
    refused: act('/sub-accounts', { name: 'Audited child', website: 'not a website', monthly_credit: 10 }),
  },
  'PUT /v2/accounts/{account_id}/sub-accounts/{sub_account_id}': {
    action: 'sub_account.update',
    prepare: child,
    call: put('/sub-accounts/$', { name: 'Renamed child' }),
    resource: prepared,
    account: childAccount,
    refused: unknownIn(put('/sub-accounts/$', { name: 'Renamed child' })),
  },
  'DELETE /v2/accounts/{account_id}/sub-accounts/{sub_account_id}': {
    action: 'sub_account.delete',
    prepare: child,
    call: del('/sub-accounts/$'),
    resource: prepared,
    account: childAccount,
    refused: unknownIn(del('/sub-accounts/$')),
  },
  'POST /v2/accounts/{account_id}/sub-accounts/{sub_account_id}/suspend': {
    action: 'sub_account.suspend',
    prepare: child,
    call: act('/sub-accounts/$/suspend', { reason: 'audit' }),
    resource: prepared,
    account: childAccount,
    refused: unknownIn(act('/sub-accounts/$/suspend', { reason: 'audit' })),
  },
  'POST /v2/accounts/{account_id}/sub-accounts/{sub_account_id}/unsuspend': {
    action: 'sub_account.unsuspend',
    prepare: async (s) => {
      const childId = await child(s);
      await post(s, `/sub-accounts/${childId}/suspend`, { reason: 'audit' });
      return childId;
    },
    call: act('/sub-accounts/$/unsuspend'),
    resource: prepared,
    account: childAccount,
    refused: unknownIn(act('/sub-accounts/$/unsuspend')),
  },
  'POST /v2/accounts/{account_id}/sub-accounts/{sub_account_id}/domains/{domain}/unpause': {
    action: 'domain.unpause',
    prepare: childWithDomain,
    call: (s, p) => s.api.post(s.api.account(`/sub-accounts/${p.child}/domains/${p.domain}/unpause`)),
    resource: (_, p) => p.domain,
    account: childAccount,
    refused: (s, p) => s.api.post(s.api.account(`/sub-accounts/${p.child}/domains/unknown.example/unpause`)),
  },
  'POST /v2/accounts/{account_id}/sub-accounts/{sub_account_id}/api-keys': {
    action: 'api_key.create',
    prepare: child,
    call: act('/sub-accounts/$/api-keys', { label: 'child key', scopes: ['domains:read'] }),
    resource: id,
    account: childAccount,
    refused: unknownIn(act('/sub-accounts/$/api-keys', { label: 'child key', scopes: ['domains:read'] })),
  },
  'PUT /v2/accounts/{account_id}/sub-accounts/{sub_account_id}/api-keys/{key_id}': {
    action: 'api_key.update',
    prepare: childKey,
    call: (s, p) => s.api.put(s.api.account(`/sub-accounts/${p.child}/api-keys/${p.key}`), { label: 'relabelled' }),
    resource: (_, p) => p.key,
    account: childAccount,
    refused: (s, p) => s.api.put(s.api.account(`/sub-accounts/${p.child}/api-keys/${p.child}`), { label: 'x' }),
  },
  'DELETE /v2/accounts/{account_id}/sub-accounts/{sub_account_id}/api-keys/{key_id}': {
    action: 'api_key.delete',
    prepare: childKey,
    call: (s, p) => s.api.delete(s.api.account(`/sub-accounts/${p.child}/api-keys/${p.key}`)),
    resource: (_, p) => p.key,
    account: childAccount,
    refused: (s, p) => s.api.delete(s.api.account(`/sub-accounts/${p.child}/api-keys/${p.child}`)),
  },
  'POST /v2/accounts/{account_id}/domains': {
    action: 'domain.create',
    prepare: async (s) => domainName(s),
    call: (s, p) => s.api.post(s.api.account('/domains'), { domain: p }),
    resource: prepared,
    refused: act('/domains', { domain: 'not a domain' }),
  },
  'PUT /v2/accounts/{account_id}/domains/{domain}': {
    action: 'domain.update',
    prepare: aDomain,
    call: put('/domains/$', { sending_type: 'marketing' }),
    resource: prepared,
    refused: (s) => s.api.put(s.api.account('/domains/unknown.example'), { sending_type: 'marketing' }),
  },
  'DELETE /v2/accounts/{account_id}/domains/{domain}': {
    action: 'domain.delete',
    prepare: aDomain,
    call: del('/domains/$'),
    resource: prepared,
    refused: (s) => s.api.delete(s.api.account('/domains/unknown.example')),
  },
  'POST /v2/accounts/{account_id}/domains/{domain}/check-dns':
    'a DNS check reads the records and refreshes their status, as the scheduled re-check does: nobody changed anything',
  'POST /v2/accounts/{account_id}/domains/{domain}/rotate-dkim': {
    action: 'domain.rotate_dkim',
    prepare: async (s) => (await verifiedDomain(s.api, domainName(s))).domain,
    call: act('/domains/$/rotate-dkim'),
    resource: prepared,
    refused: (s) => s.api.post(s.api.account('/domains/unknown.example/rotate-dkim')),
  },
  'POST /v2/accounts/{account_id}/domains/{domain}/unpause': {
    action: 'domain.unpause',
    prepare: aDomain,
    call: act('/domains/$/unpause'),
    resource: prepared,
    refused: (s) => s.api.post(s.api.account('/domains/unknown.example/unpause')),
  },
  'POST /v2/accounts/{account_id}/messages': 'a send: counted, not audited per message',
  'POST /v2/accounts/{account_id}/messages/conversation': 'a send: counted, not audited per message',
  'DELETE /v2/accounts/{account_id}/messages/{message_id}/cancel': {
    action: 'message.cancel',
    prepare: async (s) =>
      (
        await post(s, '/messages', {
          from: { email: `hello@${s.sender}` },
          recipients: [{ email: 'later@example.org' }],
          subject: 'Later',
          text_content: 'Later',
          schedule: { first_attempt: new Date(Date.now() + 86_400_000).toISOString() },
        })
      ).data[0].id,
    call: del('/messages/$/cancel'),
    resource: prepared,
    refused: unknownIn(del('/messages/$/cancel')),
  },
  'POST /v2/accounts/{account_id}/suppressions': {
    action: 'suppression.create',
    prepare: async (s) => `${unique(s, 'sup')}@example.org`,
    call: (s, p) => s.api.post(s.api.account('/suppressions'), { email: p, expires_at: '2099-01-01T00:00:00Z' }),
    resource: prepared,
    refused: act('/suppressions', { email: 'x@example.org', expires_at: '2000-01-01T00:00:00Z' }),
  },
  'DELETE /v2/accounts/{account_id}/suppressions': {
    action: 'suppression.delete',
    prepare: suppressed,
    call: (s, p) => s.api.delete(s.api.account(`/suppressions?email=${encodeURIComponent(p)}`)),
    resource: prepared,
    refused: (s) => s.api.delete(s.api.account('/suppressions?email=nobody-suppressed@example.org')),
  },
  'DELETE /v2/accounts/{account_id}/suppressions/all': {
    action: 'suppression.wipe',
    call: (s) => s.api.delete(s.api.account('/suppressions/all')),
    resource: () => null,
    refused: (s) => s.api.delete(s.api.account('/suppressions/all?domain=unknown.example')),
  },
  'POST /v2/accounts/{account_id}/webhooks': {
    action: 'webhook.create',
    call: act('/webhooks', { name: 'audited', url: 'https://hooks.audit.example.com/h', scope: 'global' }),
    resource: id,
    refused: act('/webhooks', { name: 'audited', url: 'not a url', scope: 'global' }),
  },
  'PUT /v2/accounts/{account_id}/webhooks/{webhook_id}': {
    action: 'webhook.update',
    prepare: webhook,
    call: put('/webhooks/$', { name: 'renamed' }),
    resource: prepared,
    refused: unknownIn(put('/webhooks/$', { name: 'renamed' })),
  },
  'DELETE /v2/accounts/{account_id}/webhooks/{webhook_id}': {
    action: 'webhook.delete',
    prepare: webhook,
    call: del('/webhooks/$'),
    resource: prepared,
    refused: unknownIn(del('/webhooks/$')),
  },
  'POST /v2/accounts/{account_id}/webhooks/{webhook_id}/trigger': 'a test delivery: sends a sample, changes nothing',
  'POST /v2/accounts/{account_id}/routes': {
    action: 'route.create',
    call: (s) =>
      s.api.post(s.api.account('/routes'), {
        name: 'audited',
        url: 'https://hooks.audit.example.com/in',
        recipient: `${unique(s, 'in')}@${s.sender}`,
      }),
    resource: id,
    refused: act('/routes', { name: 'audited', url: 'not a url', recipient: 'x@example.org' }),
  },
  'PUT /v2/accounts/{account_id}/routes/{route_id}': {
    action: 'route.update',
    prepare: route,
    call: put('/routes/$', { name: 'renamed' }),
    resource: prepared,
    refused: unknownIn(put('/routes/$', { name: 'renamed' })),
  },
  'DELETE /v2/accounts/{account_id}/routes/{route_id}': {
    action: 'route.delete',
    prepare: route,
    call: del('/routes/$'),
    resource: prepared,
    refused: unknownIn(del('/routes/$')),
  },
  'POST /v2/accounts/{account_id}/routes/{route_id}/trigger': 'a test delivery: sends a sample, changes nothing',
  'POST /v2/accounts/{account_id}/smtp-credentials': {
    action: 'smtp_credential.create',
    call: (s) =>
      s.api.post(s.api.account('/smtp-credentials'), { name: 'audited', scope: 'scoped', domains: [s.sender] }),
    resource: id,
    refused: act('/smtp-credentials', { name: 'audited', scope: 'scoped', domains: ['unknown.example'] }),
  },
  'DELETE /v2/accounts/{account_id}/smtp-credentials/{smtp_credential_id}': {
    action: 'smtp_credential.delete',
    prepare: async (s) => (await post(s, '/smtp-credentials', { name: 'c', scope: 'scoped', domains: [s.sender] })).id,
    call: del('/smtp-credentials/$'),
    resource: prepared,
    refused: unknownIn(del('/smtp-credentials/$')),
  },
  ...MARKETING_WRITES,
  ...PERSON_WRITES,
  'POST /internal/setup':
    'records account.create, but only once per instance (first run): e2e/dashboard/first-run.spec.ts checks it',
  'PUT /internal/accounts/{account_id}/api-keys/{key_id}/sandbox': {
    action: 'api_key.update',
    asUser: true,
    prepare: key,
    call: (s, p) => asUser(s, 'PUT', internal(s, `/api-keys/${p}/sandbox`), { sandbox: true }),
    resource: prepared,
    refused: (s) => asUser(s, 'PUT', internal(s, `/api-keys/${s.accountId}/sandbox`), { sandbox: true }),
  },
  'POST /internal/accounts/{account_id}/v1-keys': {
    action: 'v1_key.create',
    asUser: true,
    call: (s) => asUser(s, 'POST', internal(s, '/v1-keys'), { label: 'audited' }),
    resource: id,
  },
  'DELETE /internal/accounts/{account_id}/v1-keys/{key_id}': {
    action: 'v1_key.delete',
    asUser: true,
    prepare: async (s) => (await created(asUser(s, 'POST', internal(s, '/v1-keys'), { label: 'gone' }))).id,
    call: (s, p) => asUser(s, 'DELETE', internal(s, `/v1-keys/${p}`)),
    resource: prepared,
    refused: (s) => asUser(s, 'DELETE', internal(s, `/v1-keys/${s.accountId}`)),
  },
  'POST /internal/accounts/{account_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/resend':
    'a delivery sent again: a send, changes no setting',
  'POST /internal/accounts/{account_id}/routes/{route_id}/deliveries/{delivery_id}/resend':
    'a delivery sent again: a send, changes no setting',
  'POST /internal/accounts/{account_id}/contact-attributes': {
    action: 'contact_attribute.create',
    asUser: true,
    prepare: async (s) => unique(s, 'attr').replace(/-/g, '_'),
    call: (s, p) => asUser(s, 'POST', internal(s, '/contact-attributes'), { key: p, type: 'string' }),
    resource: prepared,
  },
  'PUT /internal/accounts/{account_id}/contact-attributes/{key}': {
    action: 'contact_attribute.update',
    asUser: true,
    prepare: async (s) => {
      const attribute = unique(s, 'attr').replace(/-/g, '_');
      await created(asUser(s, 'POST', internal(s, '/contact-attributes'), { key: attribute, type: 'string' }));
      return attribute;
    },
    call: (s, p) => asUser(s, 'PUT', internal(s, `/contact-attributes/${p}`), { label: 'Plan' }),
    resource: prepared,
    refused: (s) => asUser(s, 'PUT', internal(s, '/contact-attributes/no_such_attribute'), { label: 'Plan' }),
  },
  'DELETE /internal/accounts/{account_id}/contact-attributes/{key}': {
    action: 'contact_attribute.delete',
    asUser: true,
    prepare: async (s) => {
      const attribute = unique(s, 'attr').replace(/-/g, '_');
      await created(asUser(s, 'POST', internal(s, '/contact-attributes'), { key: attribute, type: 'string' }));
      return attribute;
    },
    call: (s, p) => asUser(s, 'DELETE', internal(s, `/contact-attributes/${p}`)),
    resource: prepared,
    refused: (s) => asUser(s, 'DELETE', internal(s, '/contact-attributes/no_such_attribute')),
  },
  'POST /internal/accounts/{account_id}/templates/preview': 'a preview: changes nothing',
  'POST /internal/accounts/{account_id}/campaigns/audience-preview': 'a preview: changes nothing',
  'POST /internal/invitations/inspect': 'reads an invitation: changes nothing',
  'POST /internal/invitations/accept': {
    action: 'invitation.accept',
    prepare: invitation,
    call: (s, p) =>
      s.api.request('POST', '/internal/invitations/accept', {
        apiKey: null,
        body: { token: new URL(p.url).pathname.split('/').at(-1), password: 'correct horse battery', name: 'Invitee' },
      }),
    resource: (_, p) => p.id,
    actor: (_, p) => ({ type: 'user', id: p.user_id, label: p.email }),
    refused: (s) =>
      s.api.request('POST', '/internal/invitations/accept', {
        apiKey: null,
        body: { token: 'x'.repeat(43), password: 'correct horse battery' },
      }),
  },
};
