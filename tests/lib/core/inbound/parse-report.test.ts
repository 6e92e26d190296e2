import { describe, expect, it } from 'vitest';
import { parseReturnPathMail, REPORT_LIMITS } from '@/lib/core/inbound/internal/parse-report';
import { readDeliveryStatus } from '@/lib/core/inbound/internal/read-delivery-status';
import { buildArf, buildDsn, fixture, nestedMultipart, plainMail } from './report-fixtures';

const vars = {
  TOKEN: 'a1b2c3d4e5f6a7b8c9d0',
  RP_HOST: 'rp.acme.example',
  RECIPIENT: 'gone@example.net',
  MESSAGE_ID: '<m1@acme.example>',
  ENVELOPE_TO: 'fbl@rp.acme.example',
};

describe('parseReturnPathMail', () => {
  it('a Postfix bounce: the per-message block, one recipient block, and the returned original headers', async () => {
    const { report, subject } = await parseReturnPathMail(fixture('postfix-hard-bounce.eml', vars));
    expect(subject).toBe('Undelivered Mail Returned to Sender');
    if (report.kind !== 'delivery-status') throw new Error(report.kind);
    expect(report.perMessage.get('reporting-mta')).toBe('dns; mx1.example.net');
    expect(report.recipients).toHaveLength(1);
    expect(report.recipients[0].get('diagnostic-code')).toBe(
      'smtp; 550 5.1.1 <gone@example.net>: Recipient address rejected: User unknown in virtual mailbox table',
    );
    expect(report.original?.get('return-path')).toBe('<bounces+a1b2c3d4e5f6a7b8c9d0@rp.acme.example>');
    expect(report.original?.get('message-id')).toBe('<m1@acme.example>');
  });

  it('a Postfix delay warning returns only the headers (text/rfc822-headers)', async () => {
    const { report } = await parseReturnPathMail(fixture('postfix-delayed.eml', vars));
    if (report.kind !== 'delivery-status') throw new Error(report.kind);
    expect(report.recipients[0].get('action')).toBe('delayed');
    expect(report.original?.get('message-id')).toBe('<m1@acme.example>');
  });

  it('an ARF report from a mailbox provider: the feedback fields and the original', async () => {
    const { report } = await parseReturnPathMail(fixture('mailbox-provider-arf.eml', vars));
    if (report.kind !== 'feedback-report') throw new Error(report.kind);
    expect(report.fields.get('feedback-type')).toBe('abuse');
    expect(report.fields.get('original-mail-from')).toBe('<bounces+a1b2c3d4e5f6a7b8c9d0@rp.acme.example>');
    expect(report.original?.get('message-id')).toBe('<m1@acme.example>');
  });

  it('message/global-delivery-status (RFC 6533) is read like message/delivery-status', async () => {
    const raw = buildDsn({ to: 'x@y', recipients: [{ final: 'a@b.example', action: 'failed', status: '5.1.1' }] })
      .toString()
      .replace('Content-Type: message/delivery-status', 'Content-Type: message/global-delivery-status');
    expect((await parseReturnPathMail(Buffer.from(raw))).report.kind).toBe('delivery-status');
  });

  it.each([
    ['garbage bytes', Buffer.from([0, 255, 1, 2, 3, 10, 13, 10, 0xfe])],
    ['an empty mail', Buffer.alloc(0)],
    ['a plain text mail', plainMail({ to: 'bounces+x@y', subject: 'hello' })],
    [
      'another report type',
      buildDsn({ to: 'x@y', recipients: [{ action: 'failed' }], reportType: 'disposition-notification' }),
    ],
    [
      'a delivery-status report without the part',
      Buffer.from(
        buildArf({ to: 'x@y', fields: ['Feedback-Type: abuse'] })
          .toString()
          .replace('feedback-report;', 'delivery-status;'),
      ),
    ],
    ['a delivery-status part with no recipient block', buildDsn({ to: 'x@y', recipients: [] })],
    ['a feedback report without fields', buildArf({ to: 'x@y', fields: [] })],
  ])('%s is no report, with a reason', async (_, raw) => {
    const { report } = await parseReturnPathMail(raw);
    expect(report.kind).toBe('none');
    expect(report.kind === 'none' && report.reason.length).toBeGreaterThan(5);
  });

  it('report-like parts inside the returned original are the sender content, not the report', async () => {
    const inner = [
      'Content-Type: multipart/report; report-type=feedback-report; boundary="in"',
      '',
      '--in',
      'Content-Type: message/feedback-report',
      '',
      'Feedback-Type: abuse',
      '--in--',
    ];
    const raw = buildDsn({
      to: 'x@y',
      recipients: [{ final: 'a@b.example', action: 'delivered' }],
      original: inner,
      reportType: 'feedback-report',
    });
    const { report } = await parseReturnPathMail(raw);
    expect(report.kind).toBe('none');
  });

  it('a 20 MB body is read only as far as the limit, quickly, and the report before it still counts', async () => {
    const dsn = buildDsn({
      to: 'x@y',
      recipients: [{ final: 'a@b.example', action: 'failed', status: '5.1.1' }],
      original: ['Message-ID: <big@acme.example>', 'Content-Type: text/plain'],
    }).toString();
    const huge = Buffer.concat([
      Buffer.from(dsn.replace(/--dsn-boundary-1--\r\n$/, '').replace(/body\r\n$/, '')),
      Buffer.alloc(20 * 1024 * 1024, 'A'),
      Buffer.from('\r\n--dsn-boundary-1--\r\n'),
    ]);
    const started = performance.now();
    const { report } = await parseReturnPathMail(huge);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(report.kind).toBe('delivery-status');
    expect(report.kind === 'delivery-status' && report.original?.get('message-id')).toBe('<big@acme.example>');
  });

  it.each([100, 5_000, 50_000])(
    'multiparts nested %i deep are refused within the node limit, quickly',
    async (depth) => {
      const raw = nestedMultipart(depth);
      const started = performance.now();
      const { report } = await parseReturnPathMail(raw);
      expect(performance.now() - started).toBeLessThan(2000);
      expect(report.kind).toBe('none');
      expect(
        raw.length > REPORT_LIMITS.bytes ||
          depth <= REPORT_LIMITS.mimeNodes ||
          (report.kind === 'none' && /child nodes/.test(report.reason)),
      ).toBe(true);
    },
  );
});

describe('readDeliveryStatus', () => {
  const perMessage = new Map([['reporting-mta', 'dns; mx.example.net']]);
  const block = (fields: Record<string, string>) => new Map(Object.entries(fields));
  const ours = 'a@b.example';

  it.each([
    [
      '5.1.1 user unknown',
      { action: 'failed', status: '5.1.1', 'diagnostic-code': 'smtp; 550 5.1.1 no such user' },
      'InvalidRecipient',
    ],
    ['5.2.2 mailbox full', { action: 'failed', status: '5.2.2' }, 'QuotaIssues'],
    ['5.7.1 policy', { action: 'failed', status: '5.7.1 (delivery not authorized)' }, 'PolicyRelated'],
    [
      '5.0.0 gives way to the diagnostic 5.1.1',
      { action: 'failed', status: '5.0.0', 'diagnostic-code': 'smtp; 550 5.1.1 unknown' },
      'InvalidRecipient',
    ],
    [
      'no Status, the diagnostic decides',
      { action: 'failed', 'diagnostic-code': 'smtp; 550 mailbox unavailable' },
      'InvalidRecipient',
    ],
    ['4.4.7 expired at the remote: a soft bounce', { action: 'failed', status: '4.4.7' }, 'TransientFailure'],
    ['case and comments in Action', { action: 'FAILED (permanent)', status: '5.1.2' }, 'BadDomain'],
  ])('failed, %s', (_, fields, classification) => {
    const verdict = readDeliveryStatus(
      { perMessage, recipients: [block({ 'final-recipient': `rfc822; ${ours}`, ...fields })] },
      ours,
    );
    expect(verdict).toMatchObject({
      kind: 'bounce',
      classification,
      log: expect.stringMatching(/^DSN from mx\.example\.net: /),
    });
  });

  it.each([
    ['delayed', 'delayed'],
    ['delivered', 'not a failure'],
    ['relayed', 'not a failure'],
    ['expanded', 'not a failure'],
    ['', 'not a failure'],
  ])('Action %j is ignored', (action, reason) => {
    const verdict = readDeliveryStatus(
      { perMessage, recipients: [block({ 'final-recipient': `rfc822; ${ours}`, action, status: '4.4.1' })] },
      ours,
    );
    expect(verdict.kind).toBe('ignore');
    expect(verdict.kind === 'ignore' && verdict.reason).toContain(reason);
  });

  it('with several recipients, only the block about ours counts (Original-Recipient before Final-Recipient)', () => {
    const recipients = [
      block({ 'final-recipient': 'rfc822; other@b.example', action: 'failed', status: '5.1.1' }),
      block({
        'final-recipient': 'rfc822; alias-target@c.example',
        'original-recipient': `rfc822;${ours}`,
        action: 'delivered',
        status: '2.0.0',
      }),
    ];
    expect(readDeliveryStatus({ perMessage, recipients }, ours).kind).toBe('ignore');
    expect(readDeliveryStatus({ perMessage, recipients }, 'other@b.example')).toMatchObject({
      kind: 'bounce',
      classification: 'InvalidRecipient',
    });
    expect(readDeliveryStatus({ perMessage, recipients }, 'nobody@b.example')).toMatchObject({
      kind: 'ignore',
      reason: expect.stringContaining('no per-recipient fields'),
    });
  });

  it('a lone block about another address (a forwarder reporting where it forwarded) is taken as ours', () => {
    const recipients = [block({ 'final-recipient': 'rfc822; forwarded@c.example', action: 'failed', status: '5.1.1' })];
    expect(readDeliveryStatus({ perMessage, recipients }, ours)).toMatchObject({ kind: 'bounce' });
  });
});
