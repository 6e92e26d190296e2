import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import nodemailer from 'nodemailer';
import { Webhook } from 'standardwebhooks';
import { parse } from 'yaml';
import { contractFile } from '../support/contract';
import { startRouteServer, type RouteServer } from '../support/route-server';
import { verifiedDomain } from '../support/sending';
import { newAccount, sharedServer } from '../support/shared';
import { converse } from '../support/smtp-dialogue';
import { WebhookReceiver, hasValidSignature, type ReceivedHook } from '../support/webhook-receiver';

/**
 * The MX (the mx role): mail for a routed address reaches the route's URL as a signed
 * `message.routing` event, shaped by the route's flags, on a server of its own that may call a
 * loopback receiver; refusals (no open relay, no such user, oversize) on the shared server's MX.
 */
const stamp = Date.now().toString(36);

/** RouteWebhookPayload of ahasend-webhooks.yaml; each `data` must also carry no field the document does not name. */
const routingContract = (() => {
  const file = contractFile ? path.join(path.dirname(contractFile), 'ahasend-webhooks.yaml') : null;
  const doc = file ? (parse(readFileSync(file, 'utf8')) as { components: { schemas: Record<string, any> } }) : null;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  if (doc) ajv.addSchema(doc, 'webhooks');
  return (payload: unknown): string[] => {
    if (!doc) return [];
    const validate = ajv.getSchema('webhooks#/components/schemas/RouteWebhookPayload')!;
    const problems = validate(payload)
      ? []
      : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
    const documented = new Set(Object.keys(doc.components.schemas.RouteWebhookData.properties));
    problems.push(
      ...Object.keys((payload as { data: object }).data)
        .filter((key) => !documented.has(key))
        .map((key) => `undocumented data field ${key}`),
    );
    return problems;
  };
})();

test.describe("the shared server's MX: what it refuses", () => {
  const port = () => Number(process.env.MAILSTEAD_MX_PORT);

  test('EHLO offers STARTTLS and SIZE, never AUTH; RCPT: unknown domains 550 5.7.1 (no open relay), our domain without a route 550 5.1.1, a return-path host 250', async () => {
    const { api } = await newAccount('MX refusals');
    const domain = `mx-ref-${stamp}.example.com`;
    await verifiedDomain(api, domain);
    // Added, with a route, but its DNS not verified: not ours to receive for.
    const unverified = `mx-unverified-${stamp}.example.com`;
    expect((await api.post(api.account('/domains'), { domain: unverified })).status).toBe(201);
    expect(
      (
        await api.post(api.account('/routes'), {
          name: 'Early',
          url: 'https://example.com/in',
          recipient: `*@${unverified}`,
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await api.post(api.account('/routes'), {
          name: 'Support',
          url: 'https://example.com/in',
          recipient: `support@${domain}`,
          enabled: false,
        })
      ).status,
    ).toBe(201);

    const replies = await converse(port(), [
      'EHLO sender.example.org',
      'AUTH PLAIN AGFsaWNlAHNlY3JldA==',
      'MAIL FROM:<someone@example.org>',
      'RCPT TO:<victim@example.net>',
      `RCPT TO:<anyone@${unverified}>`,
      `RCPT TO:<nobody@${domain}>`,
      `RCPT TO:<support@${domain}>`,
      'RCPT TO:<not an address>',
      `RCPT TO:<bounces+abc123@rp.${domain}>`,
      'QUIT',
    ]);
    const [ehlo, auth, mail, relay, early, nobody, disabled, garbage, returnPath] = replies;
    expect(ehlo).toMatch(/^250-/);
    expect(ehlo).toContain('STARTTLS');
    expect(ehlo).toContain(`SIZE ${25 * 1024 * 1024}`);
    expect(ehlo).not.toMatch(/AUTH/);
    expect(auth).toMatch(/^5\d\d /);
    expect(mail).toMatch(/^250 /);
    expect(relay).toMatch(/^550 5\.7\.1 .*relay/);
    expect(early).toMatch(/^550 5\.7\.1 /);
    expect(nobody).toMatch(/^550 5\.1\.1 /);
    expect(disabled).toMatch(/^550 5\.1\.1 /);
    expect(garbage).toMatch(/^5\d\d /);
    expect(returnPath).toMatch(/^250 /);
  });

  test('a message over 25 MB is 552; STARTTLS works with the server certificate', async () => {
    const domain = `mx-big-${stamp}.example.com`;
    const { api } = await newAccount('MX size');
    await verifiedDomain(api, domain);
    const ca = readFileSync(path.join(sharedServer().dataDir, 'tls', 'cert.pem'), 'utf8');
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: port(),
      secure: false,
      requireTLS: true,
      tls: { ca, servername: 'localhost' },
    });
    const to = `bounces+big@rp.${domain}`;
    const small = await transport.sendMail({ from: 'mailer-daemon@example.org', to, subject: 'small', text: 'fits' });
    expect(small.accepted).toEqual([to]);
    const error = await transport
      .sendMail({ from: 'mailer-daemon@example.org', to, subject: 'big', text: 'x'.repeat(26 * 1024 * 1024) })
      .then(
        () => null,
        (caught: { responseCode?: number }) => caught,
      );
    expect(error?.responseCode).toBe(552);
  });
});

test.describe('routed mail (a server of its own that may call loopback)', () => {
  let suite: RouteServer;
  let receiver: WebhookReceiver;
  const domain = `mx-in-${stamp}.example.com`;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    receiver = await new WebhookReceiver().start();
    suite = await startRouteServer('MX routes');
    await verifiedDomain(suite.api, domain);
  });
  test.afterAll(async () => {
    await suite?.stop();
    await receiver?.stop();
  });

  const transport = () =>
    nodemailer.createTransport({
      host: '127.0.0.1',
      port: suite.mxPort,
      secure: false,
      tls: { rejectUnauthorized: false },
    });
  const createRoute = async (body: Record<string, unknown>) => {
    const created = await suite.api.post(suite.api.account('/routes'), body);
    expect(created.status).toBe(201);
    return created.body as { id: string; secret: string };
  };
  const waitForHooks = async (receiverPath: string, count: number, timeout = 20_000): Promise<ReceivedHook[]> => {
    await expect
      .poll(() => receiver.to(receiverPath).length, { timeout, message: `route requests to ${receiverPath}` })
      .toBeGreaterThanOrEqual(count);
    return receiver.to(receiverPath);
  };

  test('nodemailer to a routed address: the receiver gets a signed message.routing as ahasend-webhooks.yaml has it, with attachments and headers when the flags are on', async () => {
    const receiverPath = `/support-${stamp}`;
    const route = await createRoute({
      name: 'Support',
      url: receiver.url(receiverPath),
      recipient: `support@${domain}`,
      attachments: true,
      headers: true,
    });
    const info = await transport().sendMail({
      from: '"Alice Customer" <alice@example.org>',
      to: `Support <support@${domain}>`,
      cc: 'bob@example.net, carol@example.net',
      replyTo: 'alice.replies@example.org',
      subject: 'Help with my account',
      text: 'I need help.',
      html: '<p>I need help.</p>',
      headers: { 'X-Custom-Header': 'custom value', 'Auto-Submitted': 'no' },
      attachments: [
        { filename: 'invoice.pdf', content: Buffer.from('%PDF-1.4 pretend'), contentType: 'application/pdf' },
      ],
    });
    expect(info.accepted).toEqual([`support@${domain}`]);
    const [hook] = await waitForHooks(receiverPath, 1);
    expect(hasValidSignature(hook, route.secret)).toBe(true);
    expect(
      new Webhook(route.secret, { format: 'raw' }).verify(hook.body, hook.headers as Record<string, string>),
    ).toEqual(hook.json);
    expect(routingContract(hook.json)).toEqual([]);
    expect(hook.json).toEqual({
      type: 'message.routing',
      timestamp: expect.any(String),
      route_id: route.id,
      data: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        from: 'alice@example.org',
        reply_to: 'alice.replies@example.org',
        to: `support@${domain}`,
        subject: 'Help with my account',
        message_id: info.messageId,
        size: expect.any(Number),
        spam_score: 0,
        bounce: false,
        cc: 'bob@example.net, carol@example.net',
        date: expect.stringMatching(/\d{4} \d\d:\d\d:\d\d/),
        in_reply_to: '',
        references: '',
        auto_submitted: 'no',
        html_body: '<p>I need help.</p>',
        plain_body: 'I need help.',
        reply_from_plain_body: '',
        attachments: [
          {
            filename: 'invoice.pdf',
            content_type: 'application/pdf',
            content_id: '',
            disposition: 'attachment',
            data: Buffer.from('%PDF-1.4 pretend').toString('base64'),
          },
        ],
        headers: expect.objectContaining({ 'X-Custom-Header': 'custom value', Subject: 'Help with my account' }),
      },
    });
    expect(hook.json.data.size).toBeGreaterThan(300);
    await expect
      .poll(async () => (await suite.api.get(suite.api.account(`/routes/${route.id}`))).body.success_count)
      .toBe(1);
  });

  test('flags off: attachments [] and no headers; strip_replies fills reply_from_plain_body with the reply alone', async () => {
    const receiverPath = `/replies-${stamp}`;
    await createRoute({
      name: 'Replies',
      url: receiver.url(receiverPath),
      recipient: `replies-*@${domain}`,
      strip_replies: true,
    });
    const text =
      'Yes, Tuesday works.\n\nOn Mon, 6 May 2024 at 13:15, Support <support@example.com> wrote:\n> Does Tuesday work for you?\n';
    await transport().sendMail({
      from: 'dave@example.org',
      to: `replies-42@${domain}`,
      subject: 'Re: meeting',
      text,
      inReplyTo: '<q@example.com>',
      references: ['<p@example.com>', '<q@example.com>'],
      attachments: [{ filename: 'a.txt', content: 'left out' }],
    });
    const [hook] = await waitForHooks(receiverPath, 1);
    expect(routingContract(hook.json)).toEqual([]);
    expect(hook.json.data).toMatchObject({
      to: `replies-42@${domain}`,
      attachments: [],
      plain_body: text,
      reply_from_plain_body: 'Yes, Tuesday works.\n',
      in_reply_to: '<q@example.com>',
      references: '<p@example.com> <q@example.com>',
    });
    expect(hook.json.data).not.toHaveProperty('headers');
  });

  test('fan-out: one POST per matching recipient, or one per message with group_by_message_id; the same message again adds nothing', async () => {
    const each = `/team-each-${stamp}`;
    const grouped = `/team-grouped-${stamp}`;
    await createRoute({ name: 'Each', url: receiver.url(each), recipient: `team-*@${domain}` });
    await createRoute({
      name: 'Grouped',
      url: receiver.url(grouped),
      recipient: `team-*@${domain}`,
      group_by_message_id: true,
    });
    const message = {
      from: 'erin@example.org',
      to: `team-a@${domain}`,
      cc: `team-b@${domain}`,
      bcc: `team-c@${domain}`,
      subject: 'To the team',
      text: 'hello',
      messageId: `<fan-out-${stamp}@example.org>`,
    };
    const info = await transport().sendMail(message);
    expect(info.accepted.sort()).toEqual([`team-a@${domain}`, `team-b@${domain}`, `team-c@${domain}`]);
    const hooks = await waitForHooks(each, 3);
    expect(hooks.map((hook) => hook.json.data.to).sort()).toEqual([
      `team-a@${domain}`,
      `team-b@${domain}`,
      `team-c@${domain}`,
    ]);
    expect(new Set(hooks.map((hook) => hook.headers['webhook-id'])).size).toBe(3);
    expect(new Set(hooks.map((hook) => hook.json.data.id)).size).toBe(3);
    expect(await waitForHooks(grouped, 1)).toHaveLength(1);
    // A sender that retries after a lost 250 (or splits recipients over transactions) repeats the Message-ID.
    await transport().sendMail(message);
    await transport().sendMail({ ...message, cc: undefined, bcc: undefined });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.to(each)).toHaveLength(3);
    expect(receiver.to(grouped)).toHaveLength(1);
  });

  test('hostile values are carried as data: recipient, subject, headers and body reach the receiver byte for byte', async () => {
    const hostileDomain = `mx-hostile-${stamp}.example.com`;
    await verifiedDomain(suite.api, hostileDomain);
    const receiverPath = `/hostile-${stamp}`;
    // No filter: every domain of the account; removed at the end, so later tests' addresses stay unrouted.
    const everything = await createRoute({
      name: 'Everything',
      url: receiver.url(receiverPath),
      recipient: '',
      headers: true,
    });
    const subject = `"><script>alert(1)</script>' OR 1=1; -- \${{7*7}} {{constructor}}`;
    const recipient = `o'hara+x%y@${hostileDomain}`;
    const body = "'); DROP TABLE routes; --\n\u0000\u202e<img src=x onerror=alert(1)>";
    await transport().sendMail({
      from: 'mallory@example.org',
      to: recipient,
      subject,
      text: body,
      headers: { 'X-Hostile': "'; DELETE FROM webhook_deliveries; --" },
    });
    const [hook] = await waitForHooks(receiverPath, 1);
    expect(hook.json.data).toMatchObject({
      to: recipient,
      subject,
      headers: expect.objectContaining({ 'X-Hostile': "'; DELETE FROM webhook_deliveries; --" }),
    });
    expect(hook.json.data.plain_body).toContain("'); DROP TABLE routes; --");
    expect(hook.json.data.plain_body).toContain('<img src=x onerror=alert(1)>');
    // PostgreSQL's jsonb cannot hold U+0000: it arrives as U+FFFD rather than failing the message.
    expect(hook.json.data.plain_body).toContain('\uFFFD\u202e');
    expect((await suite.api.delete(suite.api.account(`/routes/${everything.id}`))).status).toBe(200);
  });

  test('charsets: a Latin-1 message (8bit body, encoded-word subject) reaches the receiver as the characters written', async () => {
    const receiverPath = `/latin1-${stamp}`;
    await createRoute({ name: 'Latin-1', url: receiver.url(receiverPath), recipient: `latin1@${domain}` });
    const raw = Buffer.concat([
      Buffer.from(
        `From: jose@example.org\r\nTo: latin1@${domain}\r\nSubject: =?ISO-8859-1?Q?R=E9sum=E9?=\r\nMessage-ID: <latin1-${stamp}@example.org>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\n`,
      ),
      Buffer.from('Crème brûlée, ½ price\r\n', 'latin1'),
    ]);
    await transport().sendMail({ envelope: { from: 'jose@example.org', to: `latin1@${domain}` }, raw });
    const [hook] = await waitForHooks(receiverPath, 1);
    expect(hook.json.data.subject).toBe('Résumé');
    expect(hook.json.data.plain_body.trim()).toBe('Crème brûlée, ½ price');
  });

  test('a failing receiver: every attempt logged with the same webhook-id and counted; after three in a row the route is disabled and its address refused', async () => {
    test.setTimeout(60_000);
    const receiverPath = `/failing-${stamp}`;
    receiver.answer(receiverPath, { status: 500, body: 'down' });
    const route = await createRoute({ name: 'Failing', url: receiver.url(receiverPath), recipient: `fail@${domain}` });
    await transport().sendMail({ from: 'frank@example.org', to: `fail@${domain}`, subject: 'fails', text: 'x' });
    const hooks = await waitForHooks(receiverPath, 3, 30_000);
    expect(new Set(hooks.map((hook) => hook.headers['webhook-id'])).size).toBe(1);
    expect(hooks.every((hook) => hasValidSignature(hook, route.secret))).toBe(true);
    let fetched: any;
    await expect
      .poll(async () => {
        fetched = (await suite.api.get(suite.api.account(`/routes/${route.id}`))).body;
        return fetched.enabled;
      })
      .toBe(false);
    expect(fetched).toMatchObject({
      error_count: 3,
      errors_since_last_success: 3,
      success_count: 0,
      disabled_reason: expect.stringMatching(/3 failed deliveries.*500/),
      last_request_at: expect.any(String),
    });
    // Turned off by the system, not a person: the audit log says so, once.
    const audited = await suite.api.get(
      suite.api.account(`/audit-events?action=route.disable&resource_id=${encodeURIComponent(route.id)}`),
    );
    expect(audited.status, audited.text).toBe(200);
    expect(audited.body.data).toEqual([
      expect.objectContaining({
        action: 'route.disable',
        actor: expect.objectContaining({ type: 'system' }),
        resource: { type: 'route', id: route.id },
        changes: ['enabled'],
      }),
    ]);
    const [, , refused] = await converse(suite.mxPort, [
      'EHLO sender.example.org',
      'MAIL FROM:<frank@example.org>',
      `RCPT TO:<fail@${domain}>`,
      'QUIT',
    ]);
    expect(refused).toMatch(/^550 5\.1\.1 /);
  });
});
