import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { dashboardSession } from '../support/dashboard-session';
import { verifiedDomain } from '../support/sending';
import { expectError, makePartner, subAccountHelpers } from '../support/sub-account-fixtures';

/**
 * A sub account's monthly_credit at send and at campaign start, the usage report, and a suspended
 * child that cannot send.
 */

let partner: ApiClient;

test.beforeAll(async () => {
  const made = await makePartner('Partner');
  partner = made.api;
});

const { subs, createSub, childClient } = subAccountHelpers(() => partner);

test.describe('monthly credit and usage', () => {
  test('monthly_credit caps sends with a 403 naming it; usage counts per account and keeps a deleted child as removed', async () => {
    const parent = await makePartner('Usage parent');
    const sub = await createSub({ monthly_credit: 3 }, parent.api);
    const child = await childClient(sub.id, ['*'], parent.api);
    const domain = `capped-${Date.now()}.example.com`;
    await verifiedDomain(child.api, domain);
    const send = (count: number) =>
      child.api.post(child.api.account('/messages'), {
        from: { email: `app@${domain}` },
        recipients: Array.from({ length: count }, (_, i) => ({ email: `r${i}@example.org` })),
        subject: 'capped',
        text_content: 'hello',
        sandbox: true,
      });
    expect((await send(2)).status).toBe(202);
    expectError(await send(2), 403, /monthly_credit.*3.*sent 2.*1 left/);
    expect((await send(1)).status).toBe(202);
    expectError(await send(1), 403, /monthly_credit/);

    const raised = await parent.api.put(subs(parent.api, `/${sub.id}`), { monthly_credit: 0 });
    expect(raised.body.monthly_credit).toBe(0);
    expect((await send(1)).status).toBe(202);

    const fetched = await parent.api.get(subs(parent.api, `/${sub.id}`));
    expect(fetched.body.domain_count).toBe(1);
    expect(fetched.body.last_activity_at).not.toBeNull();

    const usage = await parent.api.get(subs(parent.api, '/usage'));
    expect(usage.status).toBe(200);
    expect(usage.body).toMatchObject({
      currency: 'usd',
      allocation_method: 'proportional',
      parent: { account_id: parent.accountId, reception_count: 0 },
    });
    const start = new Date(usage.body.billing_period.start);
    expect(start.getUTCDate()).toBe(1);
    expect(usage.body.sub_accounts).toEqual([
      { account_id: sub.id, name: sub.name, reception_count: 4, allocated_cost: 0 },
    ]);
    expect(usage.body.removed_sub_accounts).toEqual({ reception_count: 0, allocated_cost: 0 });
    expect(usage.body.total.reception_count).toBe(4);

    expect((await parent.api.delete(subs(parent.api, `/${sub.id}`))).status).toBe(200);
    expectError(await send(1), 401, 'Account is deleted');
    const after = await parent.api.get(subs(parent.api, '/usage'));
    expect(after.body.sub_accounts).toEqual([]);
    expect(after.body.removed_sub_accounts).toEqual({ reception_count: 4, allocated_cost: 0 });
    expect(after.body.total.reception_count).toBe(4);
  });

  test('a campaign whose audience does not fit in the monthly_credit left goes back to draft, queuing nothing', async () => {
    const parent = await makePartner('Campaign cap');
    const sub = await createSub({ monthly_credit: 2 }, parent.api);
    const child = (await childClient(sub.id, ['*'], parent.api)).api;
    const domain = `campaign-cap-${Date.now()}.example.com`;
    await verifiedDomain(child, domain);
    expect((await child.put(child.account(`/domains/${domain}`), { sending_type: 'marketing' })).status).toBe(200);
    const list = await child.post(child.account('/lists'), { name: 'Readers' });
    const members = ['ann', 'ben', 'cat'].map((name) => `${name}-${Date.now()}@example.org`);
    for (const email of members) expect((await child.post(child.account('/contacts'), { email })).status).toBe(201);
    expect(
      (await child.post(child.account(`/lists/${list.body.id}/members`), { contacts: members })).status,
    ).toBeLessThan(300);
    const campaign = await child.post(child.account('/campaigns'), {
      name: 'Too big',
      from: { email: `news@${domain}`, name: 'News' },
      subject: 'Hi',
      html_content: '<p>Hello</p>',
      list_ids: [list.body.id],
    });
    expect(campaign.status, campaign.text).toBe(201);
    expect((await child.post(child.account(`/campaigns/${campaign.body.id}/send`), {})).status).toBe(200);
    await expect
      .poll(
        async () =>
          (await child.get(child.account(`/campaigns/${campaign.body.id}`))).body.validation_errors?.[0]?.message ?? '',
        { timeout: 20_000 },
      )
      .toMatch(/monthly_credit.*2.*this request has 3/);
    const back = await child.get(child.account(`/campaigns/${campaign.body.id}`));
    expect(back.body.status).toBe('draft');
    expect((await parent.api.get(subs(parent.api, '/usage'))).body.sub_accounts[0].reception_count).toBe(0);

    // Nothing left at all: the send itself is refused.
    expect((await parent.api.put(subs(parent.api, `/${sub.id}`), { monthly_credit: 1 })).status).toBe(200);
    const message = {
      from: { email: `app@${domain}` },
      recipients: [{ email: 'r@example.org' }],
      subject: 's',
      text_content: 't',
      sandbox: true,
    };
    expect((await child.post(child.account('/messages'), message)).status).toBe(202);
    expectError(await child.post(child.account(`/campaigns/${campaign.body.id}/send`), {}), 403, /monthly_credit/);
  });

  test('a suspended child cannot send: 401 "Account is suspended"', async () => {
    const parent = await makePartner('Suspend send');
    const sub = await createSub({}, parent.api);
    const child = await childClient(sub.id, ['*'], parent.api);
    const domain = `suspended-${Date.now()}.example.com`;
    await verifiedDomain(child.api, domain);
    const message = {
      from: { email: `app@${domain}` },
      recipients: [{ email: 'r@example.org' }],
      subject: 's',
      text_content: 't',
      sandbox: true,
    };
    expect((await child.api.post(child.api.account('/messages'), message)).status).toBe(202);
    expect((await parent.api.post(subs(parent.api, `/${sub.id}/suspend`), { reason: 'spam' })).status).toBe(200);
    expectError(await child.api.post(child.api.account('/messages'), message), 401, 'Account is suspended');
  });

  test("a suspended child's queued mail is held, not sent, until it is unsuspended", async () => {
    const parent = await makePartner('Suspend hold');
    const sub = await createSub({}, parent.api);
    const child = await childClient(sub.id, ['*'], parent.api);
    const domain = `held-${Date.now()}.example.com`;
    await verifiedDomain(child.api, domain);
    const firstAttempt = new Date(Date.now() + 3000);
    const sent = await child.api.post(child.api.account('/messages'), {
      from: { email: `app@${domain}` },
      recipients: [{ email: 'held@example.org' }],
      subject: 'held',
      text_content: 't',
      sandbox: true,
      schedule: { first_attempt: firstAttempt.toISOString() },
    });
    expect(sent.status, sent.text).toBe(202);
    expect((await parent.api.post(subs(parent.api, `/${sub.id}/suspend`), { reason: 'hold' })).status).toBe(200);
    // The partner's owner reads the suspended child from the dashboard (read only): still not sent.
    const session = await dashboardSession(parent.ownerId);
    const read = () =>
      parent.api
        .with(null)
        .get(`/v2/accounts/${sub.id}/messages/${encodeURIComponent(sent.body.data[0].id)}`, { headers: session });
    await new Promise((done) => setTimeout(done, Math.max(0, firstAttempt.getTime() - Date.now()) + 4000));
    const held = await read();
    expect(held.status, held.text).toBe(200);
    expect(held.body.status).toBe('Received');
    expect(held.body.delivery_attempts ?? []).toEqual([]);
  });
});
