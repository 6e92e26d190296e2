import { expect, test } from '@playwright/test';
import { createAccountWithKey } from '../support/cli';
import { ApiClient } from '../support/client';
import { CountingMx } from '../support/counting-mx';
import { startServerWithMx, type ServerWithMx } from '../support/mx-suite';
import { BACKGROUND_POLL_INTERVALS, routeDomainToLoopback, verifiedDomain } from '../support/sending';

/**
 * A pause really holds delivery (marketing-api.md, "Campaign lifecycle, continued"): a campaign sent
 * to a loopback MX is paused while its first messages wait in DATA; once those land, nothing more of
 * it arrives, however often the delivery loop claims (each "fence" message proves a claim after the
 * pause: with one connection per destination it lands behind any campaign message claimed before
 * it); after resume every message arrives, each once. A server of its own: small delivery batches,
 * one connection, and an MX that holds its replies.
 */
test.describe.configure({ mode: 'serial' });

const SIZE = 40;
let suite: ServerWithMx<CountingMx>;
let api: ApiClient;
let sender: string;
let rcptDomain: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  suite = await startServerWithMx({
    name: 'campaign-pause',
    mx: await new CountingMx().start(),
    env: { DELIVERY_BATCH_SIZE: '5', DELIVERY_CONNECTIONS: '1', CAMPAIGN_BATCH_SIZE: '10' },
  });
  const account = await createAccountWithKey(suite.server.env, 'Campaign pause');
  api = new ApiClient(suite.server.baseUrl, suite.server.dataDir, account.apiKey, account.accountId);
  const stamp = Date.now().toString(36);
  sender = `pause-${stamp}.example.com`;
  rcptDomain = `to-pause-${stamp}.example`;
  await verifiedDomain(api, sender);
  expect((await api.put(api.account(`/domains/${sender}`), { sending_type: 'marketing' })).status).toBe(200);
  await routeDomainToLoopback(rcptDomain);
});

test.afterAll(async () => {
  await suite?.stop();
});

const campaignPath = (suffix = '') => api.account(`/campaigns${suffix}`);

/** A campaign to `size` new contacts of the MX's domain, sent and seen `sending`. */
async function sendingCampaign(prefix: string, size: number): Promise<string> {
  const list = await api.post(api.account('/lists'), { name: prefix });
  const emails = Array.from({ length: size }, (_, index) => `${prefix}${index}@${rcptDomain}`);
  for (const email of emails) expect((await api.post(api.account('/contacts'), { email })).status).toBe(201);
  expect((await api.post(api.account(`/lists/${list.body.id}/members`), { contacts: emails })).status).toBeLessThan(
    300,
  );
  const created = await api.post(campaignPath(), {
    name: prefix,
    from: { email: `news@${sender}` },
    subject: 'Hello',
    html_content: '<p>Hello</p>',
    list_ids: [list.body.id],
  });
  expect(created.status, created.text).toBe(201);
  expect((await api.post(campaignPath(`/${created.body.id}/send`))).status).toBe(200);
  await expect
    .poll(async () => (await api.get(campaignPath(`/${created.body.id}`))).body.status, {
      timeout: 20_000,
      intervals: BACKGROUND_POLL_INTERVALS,
    })
    .toBe('sending');
  return created.body.id;
}

const arrived = (prefix: string) => suite.mx.count((recipient) => recipient.startsWith(prefix));

/** A plain message to the MX's domain, waited for at the MX: the delivery loop claimed and delivered after it was sent. */
async function fence(name: string): Promise<void> {
  const recipient = `${name}@${rcptDomain}`;
  const sent = await api.post(api.account('/messages'), {
    from: { email: `ops@${sender}` },
    recipients: [{ email: recipient }],
    subject: name,
    text_content: name,
  });
  expect(sent.status, sent.text).toBe(202);
  await expect.poll(() => arrived(name).distinct, { timeout: 20_000, intervals: BACKGROUND_POLL_INTERVALS }).toBe(1);
}

test('pause while sending: what was handed over lands, then nothing more until resume; then every message once', async () => {
  test.setTimeout(120_000);
  suite.mx.hold();
  const id = await sendingCampaign('held', SIZE);
  // The first messages are claimed and wait in DATA at the MX.
  await expect.poll(() => suite.mx.openSessions.size, { timeout: 20_000 }).toBeGreaterThan(0);
  const paused = await api.post(campaignPath(`/${id}/pause`));
  expect(paused.status, paused.text).toBe(200);
  expect(paused.body.status).toBe('paused');
  suite.mx.release();

  await fence('fence-one');
  const afterFirst = arrived('held').distinct;
  // Every outcome of what was handed over is written: the counts agree with the MX.
  await expect
    .poll(async () => (await api.get(campaignPath(`/${id}`))).body.counts.delivered, {
      timeout: 20_000,
      intervals: BACKGROUND_POLL_INTERVALS,
    })
    .toBe(afterFirst);
  await fence('fence-two');
  expect(arrived('held').distinct, 'nothing of the paused campaign arrived between the fences').toBe(afterFirst);
  expect(afterFirst).toBeLessThan(SIZE);
  const whilePaused = (await api.get(campaignPath(`/${id}`))).body;
  expect(whilePaused.status).toBe('paused');
  expect(whilePaused.counts.delivered).toBe(afterFirst);

  const resumed = await api.post(campaignPath(`/${id}/resume`));
  expect(resumed.status, resumed.text).toBe(200);
  await expect.poll(async () => (await api.get(campaignPath(`/${id}`))).body.status, { timeout: 30_000 }).toBe('sent');
  const final = arrived('held');
  expect(final.distinct).toBe(SIZE);
  expect(final.duplicated).toEqual([]);
  expect((await api.get(campaignPath(`/${id}`))).body.counts).toMatchObject({
    recipients: SIZE,
    delivered: SIZE,
    cancelled: 0,
  });
});

test('parallel pause and resume while delivering: the campaign ends sent, every message delivered once', async () => {
  test.setTimeout(120_000);
  suite.mx.hold();
  const id = await sendingCampaign('race', 20);
  await expect.poll(() => suite.mx.openSessions.size, { timeout: 20_000 }).toBeGreaterThan(0);
  const answers = await Promise.all(
    Array.from({ length: 10 }, (_, index) => api.post(campaignPath(`/${id}/${index % 2 ? 'resume' : 'pause'}`))),
  );
  for (const answer of answers) expect([200, 409], answer.text).toContain(answer.status);
  suite.mx.release();
  const now = (await api.get(campaignPath(`/${id}`))).body.status;
  expect(['sending', 'paused']).toContain(now);
  if (now === 'paused') expect((await api.post(campaignPath(`/${id}/resume`))).status).toBe(200);
  await expect.poll(async () => (await api.get(campaignPath(`/${id}`))).body.status, { timeout: 30_000 }).toBe('sent');
  expect(arrived('race')).toMatchObject({ distinct: 20, duplicated: [] });
});

test('cancel while delivering: what was handed over lands, the rest is cancelled and counted, nothing more arrives', async () => {
  test.setTimeout(120_000);
  suite.mx.hold();
  const id = await sendingCampaign('stop', 30);
  await expect.poll(() => suite.mx.openSessions.size, { timeout: 20_000 }).toBeGreaterThan(0);
  const cancelled = await api.post(campaignPath(`/${id}/cancel`));
  expect(cancelled.status, cancelled.text).toBe(200);
  expect(cancelled.body.status).toBe('cancelled');
  suite.mx.release();
  await fence('fence-three');
  const landed = arrived('stop');
  expect(landed.duplicated).toEqual([]);
  // Delivered and cancelled account for every recipient once the messages in flight are written.
  await expect
    .poll(
      async () => {
        const counts = (await api.get(campaignPath(`/${id}`))).body.counts;
        return [counts.delivered, counts.delivered + counts.cancelled];
      },
      { timeout: 20_000, intervals: BACKGROUND_POLL_INTERVALS },
    )
    .toEqual([landed.distinct, 30]);
  expect(landed.distinct).toBeLessThan(30);
  await fence('fence-four');
  expect(arrived('stop').distinct).toBe(landed.distinct);
});
