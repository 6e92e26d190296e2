import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { waitForStatus } from '../support/sending';
import { startMxSuite, type MxSuite } from '../support/mx-suite';
import type { ServerHandle } from '../support/server';
import type { ApiClient } from '../support/client';
import type { TestMx } from '../support/mx-server';

/**
 * A templated send as it leaves: rendered in the render workers for each recipient (their data over
 * the global data), HTML values escaped, probes of the server inert, nothing of its environment in the mail.
 */
let server: ServerHandle;
let mx: TestMx;
let api: ApiClient;
let sender: string;
let suite: MxSuite;
const stamp = Date.now().toString(36);
const rcptDomain = `tpl-${stamp}.example`;

test.beforeAll(async () => {
  sender = `tpl-sender-${stamp}.example.com`;
  suite = await startMxSuite({ name: 'Templated sender', sender, recipientDomain: rcptDomain });
  ({ server, mx, api } = suite);
});

test.afterAll(async () => {
  await suite?.stop();
});

/** What the server was given and must never send out. */
function serverSecrets(): string[] {
  const given = [server.dataDir, server.env.DATABASE_URL, server.env.MAILSTEAD_SECRET].filter(
    (value): value is string => Boolean(value),
  );
  return server.env.MAILSTEAD_SECRET
    ? given
    : [...given, readFileSync(path.join(server.dataDir, 'master.key'), 'utf8').trim()];
}

test('a templated send is delivered with each recipient’s substitutions applied, HTML escaped, and probes of the server inert', async () => {
  const ada = `ada@${rcptDomain}`;
  const bob = `bob@${rcptDomain}`;
  const response = await api.post(api.account('/messages'), {
    from: { email: `shop@${sender}`, name: 'Shop' },
    recipients: [
      {
        email: ada,
        name: 'Ada',
        substitutions: {
          first_name: 'ada lovelace',
          items: [
            { name: '<Tea>', qty: 2 },
            { name: 'Cake & co', qty: 1 },
          ],
          vip: true,
        },
      },
      { email: bob, name: 'Bob' },
    ],
    subject: 'Order {{ order }} for {{ first_name | title }}',
    text_content:
      'Hello {{ first_name | default("friend") | title }}{% if vip %} (VIP){% endif %}!\n{% for item in items %}{{ loop.index }}. {{ item.name }} x{{ item.qty }}\n{% else %}No items.\n{% endfor %}{{ missing }}[{{ x.constructor }}{{ x.__proto__ }}{{ process }}]',
    html_content:
      '<p>Hello {{ first_name | upper }}</p><ul>{% for item in items %}<li>{{ item.name }}</li>{% endfor %}</ul>{{ banner | safe }}<i>{{ range.prototype }}{{ x["constructor"] }}</i>',
    substitutions: { order: 'A-17', first_name: 'friend', items: [], banner: '<b>Sale</b>', x: {} },
  });
  expect(response.status).toBe(202);
  const [adaId, bobId] = response.body.data.map((item: { id: string }) => item.id);
  await waitForStatus(api, adaId, 'Delivered');
  await waitForStatus(api, bobId, 'Delivered');

  const [adaMail] = mx.for(ada);
  expect(adaMail.parsed.subject).toBe('Order A-17 for Ada Lovelace');
  expect(adaMail.parsed.text?.trim()).toBe('Hello Ada Lovelace (VIP)!\n1. <Tea> x2\n2. Cake & co x1\n[]');
  expect(adaMail.parsed.html).toContain(
    '<p>Hello ADA LOVELACE</p><ul><li>&lt;Tea&gt;</li><li>Cake &amp; co</li></ul><b>Sale</b><i></i>',
  );

  const [bobMail] = mx.for(bob);
  expect(bobMail.parsed.subject).toBe('Order A-17 for Friend');
  expect(bobMail.parsed.text?.trim()).toBe('Hello Friend!\nNo items.\n[]');
  expect(bobMail.raw.toString()).not.toContain('Lovelace');

  for (const mail of [adaMail, bobMail]) {
    const raw = mail.raw.toString();
    for (const secret of serverSecrets()) expect(raw).not.toContain(secret);
    for (const marker of ['native code', '=>', '[object']) expect(raw).not.toContain(marker);
  }
});
