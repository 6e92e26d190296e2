import { expect } from '@playwright/test';
import {
  act,
  contact,
  created,
  del,
  draft,
  id,
  list,
  path,
  post,
  prepared,
  put,
  scheduled,
  sending,
  template,
  unique,
  unknownIn,
  type Case,
  type Suite,
} from './audit-cases';

const segment = async (s: Suite) =>
  (await post(s, '/segments', { name: unique(s, 'segment'), filter: { all: [] } })).id as string;

const listWithMember = async (s: Suite) => {
  const listId = await list(s);
  const { email } = await contact(s);
  await post(s, `/lists/${listId}/members`, { contact: email, subscription_status: 'confirmed' });
  return { listId, email };
};

/** An A/B campaign waiting for its winner: its recipients' MX is on loopback, where delivery is deferred. */
const abWaiting = async (s: Suite) => {
  const domain = `${unique(s, 'ab')}.example`;
  await s.routeDomainToLoopback(domain);
  const listId = await list(s);
  const emails = ['a', 'b', 'c'].map((name) => `${name}@${domain}`);
  for (const email of emails) await post(s, '/contacts', { email });
  await post(s, `/lists/${listId}/members`, { contacts: emails });
  const { id } = await post(s, '/campaigns', {
    name: unique(s, 'ab'),
    from: { email: `news@${s.sender}` },
    subject: 'Hi',
    html_content: '<p>Hi</p>',
    list_ids: [listId],
    variants: [{ subject: 'A' }, { subject: 'B' }],
    ab_test: { test_percent: 5, metric: 'opens', wait_minutes: 1440 },
  });
  await post(s, `/campaigns/${id}/send`);
  await expect
    .poll(async () => (await s.api.get(path(s, `/campaigns/${id}`))).body.ab_phase, { timeout: 20_000 })
    .toBe('waiting');
  return id as string;
};
const signupForm = async (s: Suite) =>
  (await post(s, '/signup-forms', { name: unique(s, 'form'), list_ids: [await list(s)] })).id as string;

/** The audit table's rows for contacts, lists, templates, media and campaigns (audit-table.ts has the rest). */
export const MARKETING_WRITES: Record<string, Case | string> = {
  'POST /v2/accounts/{account_id}/contacts/import': {
    action: 'contact_import.create',
    call: (s) => s.importContacts(s.api),
    resource: id,
  },
  'POST /v2/accounts/{account_id}/contacts/export': {
    action: 'contact.export',
    call: act('/contacts/export', {}),
    resource: id,
    refused: act('/contacts/export', { list_id: 'not-a-list' }),
  },
  'POST /v2/accounts/{account_id}/contacts': {
    action: 'contact.create',
    call: (s) => s.api.post(s.api.account('/contacts'), { email: `${unique(s, 'new')}@example.org` }),
    resource: id,
    refused: act('/contacts', { email: 'not an address' }),
  },
  'PUT /v2/accounts/{account_id}/contacts/{id_or_email}': {
    action: 'contact.update',
    prepare: async (s) => (await contact(s)).id,
    call: put('/contacts/$', { first_name: 'Ada' }),
    resource: prepared,
    refused: unknownIn(put('/contacts/$', { first_name: 'Ada' })),
  },
  'DELETE /v2/accounts/{account_id}/contacts/{id_or_email}': {
    action: 'contact.delete',
    prepare: async (s) => (await contact(s)).id,
    call: del('/contacts/$'),
    resource: prepared,
    refused: unknownIn(del('/contacts/$')),
  },
  'POST /v2/accounts/{account_id}/contacts/{id_or_email}/unsubscribe': {
    action: 'contact.unsubscribe',
    prepare: async (s) => (await contact(s)).id,
    call: act('/contacts/$/unsubscribe'),
    resource: prepared,
    refused: unknownIn(act('/contacts/$/unsubscribe')),
  },
  'POST /v2/accounts/{account_id}/contacts/{id_or_email}/resubscribe': {
    action: 'contact.resubscribe',
    prepare: async (s) => (await contact(s, { unsubscribed: true })).id,
    call: act('/contacts/$/resubscribe'),
    resource: prepared,
    refused: unknownIn(act('/contacts/$/resubscribe')),
  },
  'POST /v2/accounts/{account_id}/segments': {
    action: 'segment.create',
    call: act('/segments', { name: 'audited', filter: { all: [] } }),
    resource: id,
    refused: act('/segments', { name: 'audited', filter: { all: [{ field: 'nope', op: 'exists' }] } }),
  },
  'PUT /v2/accounts/{account_id}/segments/{segment_id}': {
    action: 'segment.update',
    prepare: segment,
    call: put('/segments/$', { name: 'renamed' }),
    resource: prepared,
    refused: unknownIn(put('/segments/$', { name: 'renamed' })),
  },
  'DELETE /v2/accounts/{account_id}/segments/{segment_id}': {
    action: 'segment.delete',
    prepare: segment,
    call: del('/segments/$'),
    resource: prepared,
    refused: unknownIn(del('/segments/$')),
  },
  'POST /v2/accounts/{account_id}/segments/preview': 'a preview: changes nothing',
  'POST /v2/accounts/{account_id}/lists': {
    action: 'list.create',
    call: act('/lists', { name: 'audited' }),
    resource: id,
    refused: act('/lists', { name: '' }),
  },
  'PUT /v2/accounts/{account_id}/lists/{list_id}': {
    action: 'list.update',
    prepare: list,
    call: put('/lists/$', { name: 'renamed' }),
    resource: prepared,
    refused: unknownIn(put('/lists/$', { name: 'renamed' })),
  },
  'DELETE /v2/accounts/{account_id}/lists/{list_id}': {
    action: 'list.delete',
    prepare: list,
    call: del('/lists/$'),
    resource: prepared,
    refused: unknownIn(del('/lists/$')),
  },
  'POST /v2/accounts/{account_id}/lists/{list_id}/members': {
    action: 'list_member.add',
    prepare: async (s) => ({ listId: await list(s), email: (await contact(s)).email }),
    call: (s, p) => s.api.post(s.api.account(`/lists/${p.listId}/members`), { contact: p.email }),
    resource: (_, p) => p.listId,
    refused: (s) => s.api.post(s.api.account(`/lists/${s.accountId}/members`), { contact: 'nobody@example.org' }),
  },
  'POST /v2/accounts/{account_id}/lists/{list_id}/members/paste': {
    action: 'list_member.add',
    prepare: async (s) => ({ listId: await list(s), email: (await contact(s)).email }),
    call: (s, p) => s.api.post(s.api.account(`/lists/${p.listId}/members/paste`), { lines: [p.email] }),
    resource: (_, p) => p.listId,
    refused: (s) => s.api.post(s.api.account(`/lists/${s.accountId}/members/paste`), { lines: ['a@example.org'] }),
  },
  'PUT /v2/accounts/{account_id}/lists/{list_id}/members/{id_or_email}': {
    action: 'list_member.update',
    prepare: listWithMember,
    call: (s, p) =>
      s.api.put(s.api.account(`/lists/${p.listId}/members/${p.email}`), { subscription_status: 'unconfirmed' }),
    resource: (_, p) => p.listId,
    refused: (s, p) =>
      s.api.put(s.api.account(`/lists/${p.listId}/members/nobody@example.org`), { subscription_status: 'unconfirmed' }),
  },
  'DELETE /v2/accounts/{account_id}/lists/{list_id}/members/{id_or_email}': {
    action: 'list_member.remove',
    prepare: listWithMember,
    call: (s, p) => s.api.delete(s.api.account(`/lists/${p.listId}/members/${p.email}`)),
    resource: (_, p) => p.listId,
    refused: (s, p) => s.api.delete(s.api.account(`/lists/${p.listId}/members/nobody@example.org`)),
  },
  'POST /v2/accounts/{account_id}/templates': {
    action: 'template.create',
    call: act('/templates', { name: 'audited' }),
    resource: id,
    refused: act('/templates', { name: '' }),
  },
  'PUT /v2/accounts/{account_id}/templates/{template_id}': {
    action: 'template.update',
    prepare: template,
    call: put('/templates/$', { name: 'renamed' }),
    resource: prepared,
    refused: unknownIn(put('/templates/$', { name: 'renamed' })),
  },
  'DELETE /v2/accounts/{account_id}/templates/{template_id}': {
    action: 'template.delete',
    prepare: template,
    call: del('/templates/$'),
    resource: prepared,
    refused: unknownIn(del('/templates/$')),
  },
  'POST /v2/accounts/{account_id}/templates/{template_id}/publish': {
    action: 'template.publish',
    prepare: template,
    call: act('/templates/$/publish'),
    resource: prepared,
    refused: unknownIn(act('/templates/$/publish')),
  },
  'POST /v2/accounts/{account_id}/templates/{template_id}/preflight': 'a check of the content: changes nothing',
  'POST /v2/accounts/{account_id}/media': { action: 'media.upload', call: (s) => s.uploadMedia(s.api), resource: id },
  'DELETE /v2/accounts/{account_id}/media/{media_id}': {
    action: 'media.delete',
    prepare: async (s) => (await created(s.uploadMedia(s.api))).id,
    call: del('/media/$'),
    resource: prepared,
    refused: unknownIn(del('/media/$')),
  },
  'POST /v2/accounts/{account_id}/campaigns': {
    action: 'campaign.create',
    call: act('/campaigns', { name: 'audited' }),
    resource: id,
    refused: act('/campaigns', { name: '' }),
  },
  'PUT /v2/accounts/{account_id}/campaigns/{campaign_id}': {
    action: 'campaign.update',
    prepare: draft,
    call: put('/campaigns/$', { name: 'renamed' }),
    resource: prepared,
    refused: unknownIn(put('/campaigns/$', { name: 'renamed' })),
  },
  'DELETE /v2/accounts/{account_id}/campaigns/{campaign_id}': {
    action: 'campaign.delete',
    prepare: draft,
    call: del('/campaigns/$'),
    resource: prepared,
    refused: unknownIn(del('/campaigns/$')),
  },
  'POST /v2/accounts/{account_id}/campaigns/{campaign_id}/send': {
    action: 'campaign.send',
    prepare: draft,
    call: (s, p) =>
      s.api.post(s.api.account(`/campaigns/${p}/send`), { send_at: new Date(Date.now() + 86_400_000).toISOString() }),
    resource: prepared,
    refused: unknownIn(act('/campaigns/$/send', {})),
  },
  'POST /v2/accounts/{account_id}/campaigns/{campaign_id}/unschedule': {
    action: 'campaign.unschedule',
    prepare: scheduled,
    call: act('/campaigns/$/unschedule'),
    resource: prepared,
    refused: unknownIn(act('/campaigns/$/unschedule')),
  },
  'POST /v2/accounts/{account_id}/campaigns/{campaign_id}/pause': {
    action: 'campaign.pause',
    prepare: sending,
    call: act('/campaigns/$/pause'),
    resource: prepared,
  },
  'POST /v2/accounts/{account_id}/campaigns/{campaign_id}/resume': {
    action: 'campaign.resume',
    prepare: async (s) => {
      const campaignId = await sending(s);
      await post(s, `/campaigns/${campaignId}/pause`);
      return campaignId;
    },
    call: act('/campaigns/$/resume'),
    resource: prepared,
  },
  'POST /v2/accounts/{account_id}/campaigns/{campaign_id}/cancel': {
    action: 'campaign.cancel',
    prepare: scheduled,
    call: act('/campaigns/$/cancel'),
    resource: prepared,
    refused: unknownIn(act('/campaigns/$/cancel')),
  },
  'POST /v2/accounts/{account_id}/campaigns/{campaign_id}/duplicate': {
    action: 'campaign.duplicate',
    prepare: draft,
    call: act('/campaigns/$/duplicate'),
    resource: id,
    refused: unknownIn(act('/campaigns/$/duplicate')),
  },
  'POST /v2/accounts/{account_id}/campaigns/{campaign_id}/variants/{variant_id}/choose': {
    action: 'campaign.choose_winner',
    prepare: abWaiting,
    call: act('/campaigns/$/variants/b/choose'),
    resource: prepared,
    refused: unknownIn(act('/campaigns/$/variants/b/choose')),
  },
  'POST /v2/accounts/{account_id}/campaigns/{campaign_id}/test': 'a test send: counted, not audited',
  'POST /v2/accounts/{account_id}/campaigns/{campaign_id}/preflight': 'a check of the content: changes nothing',
  'POST /v2/accounts/{account_id}/signup-forms': {
    action: 'signup_form.create',
    prepare: list,
    call: (s, listId) => s.api.post(s.api.account('/signup-forms'), { name: 'audited', list_ids: [listId] }),
    resource: id,
    refused: act('/signup-forms', { name: 'audited', list_ids: [] }),
  },
  'PUT /v2/accounts/{account_id}/signup-forms/{form_id}': {
    action: 'signup_form.update',
    prepare: signupForm,
    call: put('/signup-forms/$', { name: 'renamed' }),
    resource: prepared,
    refused: unknownIn(put('/signup-forms/$', { name: 'renamed' })),
  },
  'DELETE /v2/accounts/{account_id}/signup-forms/{form_id}': {
    action: 'signup_form.delete',
    prepare: signupForm,
    call: del('/signup-forms/$'),
    resource: prepared,
    refused: unknownIn(del('/signup-forms/$')),
  },
};
