import { describe, expect, it } from 'vitest';
import { renderNotification } from '@/lib/core/notifications/internal/render-notification';
import { NOTIFICATION_KIND_IDS, NOTIFICATION_KINDS, isNotificationKind } from '@/lib/core/notifications/kinds';

const ACCOUNT = '0190a0a0-0000-7000-8000-000000000001';
const hostile = {
  accountId: ACCOUNT,
  accountName: 'Acme <b>Inc</b>\r\nX-Evil: 1',
  resourceId: 'res-1',
  resourceName: 'example.com\r\nBcc: victim@example.net\n<script>alert(1)</script>',
  detail: 'last error:\r\n<img src=x onerror=alert(1)>',
};

describe('the notification kinds', () => {
  it("are the contract's seven events (a webhook and a route apart), each saying who gets it and when", () => {
    expect(NOTIFICATION_KIND_IDS).toEqual([
      'domain_paused',
      'domain_dns_broken',
      'webhook_disabled',
      'route_disabled',
      'sub_account_cap_reached',
      'campaign_finished',
      'two_factor_disabled',
      'full_access_api_key_created',
    ]);
    for (const kind of NOTIFICATION_KIND_IDS) {
      const definition = NOTIFICATION_KINDS[kind];
      expect(definition.label.length, kind).toBeGreaterThan(5);
      expect(definition.description, kind).toMatch(/^When .+\.$/);
    }
    expect(NOTIFICATION_KINDS.two_factor_disabled.recipients).toBe('person');
    expect(NOTIFICATION_KINDS.sub_account_cap_reached.recipients).toBe('parent_administrators');
    expect(
      NOTIFICATION_KIND_IDS.filter((kind) => NOTIFICATION_KINDS[kind].recipients === 'administrators'),
    ).toHaveLength(6);
    expect(isNotificationKind('campaign_finished')).toBe(true);
    expect(isNotificationKind('toString')).toBe(false);
  });

  it.each(NOTIFICATION_KIND_IDS)(
    '%s: one-line subject, escaped HTML, a link under PUBLIC_URL and how to turn it off',
    (kind) => {
      const mail = renderNotification(kind, hostile, 'https://mail.example.org');
      expect(mail.subject).not.toMatch(/[\r\n]/);
      expect(mail.text).not.toMatch(/\r|Bcc: victim@example.net\n/);
      expect(mail.url.startsWith(`https://mail.example.org/${ACCOUNT}/`)).toBe(true);
      expect(mail.text).toContain(mail.url);
      expect(mail.html).not.toMatch(/<script|<img|<b>/);
      expect(mail.text).toContain(`turn off "${NOTIFICATION_KINDS[kind].label}"`);
      expect(mail.text).toContain(`https://mail.example.org/${ACCOUNT}/profile`);
    },
  );

  it('names the resource and the reason, and links to its own page', () => {
    const facts = {
      accountId: ACCOUNT,
      accountName: 'Acme',
      resourceId: 'c1',
      resourceName: 'Spring sale',
      detail: null,
    };
    const mail = renderNotification('campaign_finished', facts, 'https://mail.example.org');
    expect(mail.subject).toBe('Campaign "Spring sale" has finished sending');
    expect(mail.url).toBe(`https://mail.example.org/${ACCOUNT}/campaigns/c1`);
    expect(mail.text).not.toContain('Reason:');
    const paused = renderNotification(
      'domain_paused',
      { ...facts, resourceName: 'news.example', detail: '9 of the last 10 messages bounced' },
      'https://mail.example.org',
    );
    expect(paused.url).toBe(`https://mail.example.org/${ACCOUNT}/domains/news.example`);
    expect(paused.text).toContain('Reason: 9 of the last 10 messages bounced');
  });
});
