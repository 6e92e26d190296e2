import { PHONE, capture, expect, expectNoHorizontalOverflow, test } from '../support/dashboard';
import { verifiedDomain } from '../support/sending';
import { newAccount } from '../support/shared';

/**
 * The double opt-in link on a phone, as a subscriber meets it: a page with one button, which only
 * confirms when pressed (a link scanner's visit changes nothing), then the thanks naming the list by
 * its public name. Plain server HTML: no script, nothing wider than the screen.
 */
const stamp = Date.now().toString(36);

test('the confirmation link shows a button at 390 px; only pressing it confirms', async ({ page }, testInfo) => {
  const { api } = await newAccount('Signup confirmation');
  const sender = `confirm-${stamp}.example.com`;
  await verifiedDomain(api, sender);
  expect((await api.put(api.account(`/domains/${sender}`), { sending_type: 'marketing' })).status).toBe(200);
  const list = (
    await api.post(api.account('/lists'), { name: 'Internal cohort 7', public_name: 'Weekly <b>letter</b>' })
  ).body.id;
  const form = (await api.post(api.account('/signup-forms'), { name: 'Join', list_ids: [list] })).body.id;
  const address = `phone-${stamp}@example.org`;
  const posted = await api.with(null).request('POST', `/f/${form}`, { body: { email: address }, checkContract: false });
  expect(posted.status, posted.text).toBe(200);
  const status = async () =>
    (await api.get(api.account(`/contacts/${encodeURIComponent(address)}/lists`))).body.data[0].subscription_status;
  const [message] = (await api.get(api.account(`/messages?recipient=${encodeURIComponent(address)}`))).body.data;
  const detail = (await api.get(api.account(`/messages/${encodeURIComponent(message.id)}`))).body;
  const text = detail.content_parsed.parts.find((part: { content_type: string }) => part.content_type === 'text/plain');
  const link = /https:\/\/\S+\/f\/confirm\/[A-Za-z0-9]+/.exec(text.content)![0];

  await page.setViewportSize(PHONE);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Confirm your subscription' })).toBeVisible();
  const button = page.getByRole('button', { name: 'Confirm my subscription' });
  await expect(button).toBeVisible();
  expect((await button.boundingBox())!.width).toBeGreaterThan(200);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'signup-confirm-390');
  await page.reload();
  expect(await status()).toBe('unconfirmed');

  await button.click();
  await expect(page.getByRole('heading', { name: 'Subscription confirmed' })).toBeVisible();
  await expect(page.getByText('you are subscribed to Weekly <b>letter</b>.')).toBeVisible();
  await expect(page.getByText('Internal cohort 7')).toHaveCount(0);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'signup-confirmed-390');
  expect(await status()).toBe('confirmed');

  // Back and pressed again (a reload of the POST): already used, said plainly.
  await page.goto(link);
  await page.getByRole('button', { name: 'Confirm my subscription' }).click();
  await expect(page.getByRole('heading', { name: 'Already confirmed' })).toBeVisible();
});
