import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemPrincipal, type Principal } from '@/lib/auth/principal';
import { checkDomainDns } from '@/lib/core/domains/check-domain-dns';
import { createDomain } from '@/lib/core/domains/create-domain';
import { addMemberWithPassword } from '@/lib/core/members/add-member-with-password';
import { getNotificationPreferences } from '@/lib/core/notifications/get-notification-preferences';
import { notifyPeople } from '@/lib/core/notifications/notify-people';
import { notifyTwoFactorDisabled } from '@/lib/core/notifications/notify-two-factor-disabled';
import { unsafePurgeNotificationSends } from '@/lib/core/notifications/purge-notification-sends';
import { updateNotificationPreferences } from '@/lib/core/notifications/update-notification-preferences';
import { accounts, auditEvents, messages, notificationSends } from '@/lib/db/schema';
import { as, keyPrincipal, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/**
 * notifyPeople and notifyTwoFactorDisabled on a real (in-memory) database: who gets a mail, the
 * once-an-hour key under parallel triggers, opt-outs, the audit event, and nothing without a system sender.
 */
let services: TestServices;
let teamId: string;
let ownerId: string;
const emails = { admin: 'admin@team.example', developer: 'dev@team.example' };
const ids: Record<string, string> = {};

const session = (userId: string, accountId = ''): Principal => ({
  kind: 'session',
  accountId,
  targetAccountId: accountId,
  scopes: [],
  userId,
  clientIp: '127.0.0.1',
  isSandbox: false,
});

const queuedTo = async (recipient: string, subject?: string) =>
  (await services.db.select().from(messages).where(eq(messages.recipient, recipient))).filter(
    (row) => subject === undefined || row.subject === subject,
  );

beforeAll(async () => {
  services = await memoryServices({ systemSender: { email: 'alerts@alerts.example', name: 'Mailstead' } });
  const system = await newAccount(services, 'System');
  const key = keyPrincipal(system.accountId, ['domains:write']);
  const domain = await createDomain(as(services, key), { domain: 'alerts.example' });
  services.dns.publishRecords(domain.dns_records);
  expect((await checkDomainDns(as(services, key), { domain: 'alerts.example' })).dns_valid).toBe(true);

  ({ accountId: teamId } = await newAccount(services, 'Team'));
  [{ ownerId }] = await services.db.select({ ownerId: accounts.ownerId }).from(accounts).where(eq(accounts.id, teamId));
  for (const [who, role] of [
    ['admin', 'Administrator'],
    ['developer', 'Developer'],
  ] as const) {
    const added = await addMemberWithPassword(as(services, systemPrincipal('')), {
      account_id: teamId,
      email: emails[who],
      password: 'correct horse battery staple',
      role,
    });
    ids[who] = (added as { user_id: string }).user_id;
  }
}, 60_000);

afterAll(() => services?.close());

describe('notifyPeople', () => {
  it('mails the owner and the Administrators, not a Developer, and records notification.send by the system', async () => {
    const queued = await notifyPeople(services, services.db, {
      kind: 'campaign_finished',
      accountId: teamId,
      resource: { id: 'campaign-1', name: 'Spring sale' },
    });
    expect(queued).toBe(2);
    expect(await queuedTo(emails.admin, 'Campaign "Spring sale" has finished sending')).toHaveLength(1);
    expect(await queuedTo(emails.developer)).toEqual([]);
    const events = await services.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.accountId, teamId), eq(auditEvents.action, 'notification.send')));
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      actorType: 'system',
      resourceType: 'campaign',
      resourceId: 'campaign-1',
      changes: ['campaign_finished'],
    });
  });

  it('sends one mail per person, kind and resource an hour, however many triggers run at once', async () => {
    const trigger = () =>
      notifyPeople(services, services.db, {
        kind: 'webhook_disabled',
        accountId: teamId,
        resource: { id: 'webhook-1', name: 'Orders' },
      });
    const counts = await Promise.all([trigger(), trigger(), trigger(), trigger(), trigger()]);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(2);
    expect(await trigger()).toBe(0);
    const rows = await services.db
      .select()
      .from(notificationSends)
      .where(eq(notificationSends.resourceId, 'webhook-1'));
    expect(rows).toHaveLength(2);
    // Another resource of the same kind is another mail; so is the same one in the next hour.
    expect(
      await notifyPeople(services, services.db, {
        kind: 'webhook_disabled',
        accountId: teamId,
        resource: { id: 'webhook-2', name: 'Billing' },
      }),
    ).toBe(2);
    services.clock.advance(3600_000);
    expect(await trigger()).toBe(2);
    expect(await queuedTo(emails.admin, 'Webhook "Orders" was turned off')).toHaveLength(2);
  });

  it('skips a person who turned the kind off on their profile, and only that kind', async () => {
    const admin = as(services, session(ids.admin));
    const updated = await updateNotificationPreferences(admin, {
      preferences: [{ kind: 'route_disabled', is_enabled: false }],
    });
    expect(updated.data.find((preference) => preference.kind === 'route_disabled')?.is_enabled).toBe(false);
    expect(updated.data.find((preference) => preference.kind === 'webhook_disabled')?.is_enabled).toBe(true);
    const notify = (kind: 'route_disabled' | 'domain_paused') =>
      notifyPeople(services, services.db, { kind, accountId: teamId, resource: { id: 'r-9', name: 'Inbound' } });
    expect(await notify('route_disabled')).toBe(1);
    expect(await queuedTo(emails.admin, 'Route "Inbound" was turned off')).toEqual([]);
    expect(await notify('domain_paused')).toBe(2);
    // The owner's own choices are theirs alone.
    const owners = await getNotificationPreferences(as(services, session(ownerId)), {});
    expect(owners.data.every((preference) => preference.is_enabled)).toBe(true);
  });

  it('preferences belong to a dashboard session: an API key is refused', async () => {
    const error = await getNotificationPreferences(as(services, keyPrincipal(teamId, ['*'])), {}).catch(
      (caught) => caught,
    );
    expect(error.kind).toBe('unauthenticated');
  });

  it('does nothing, and throws nothing, without a system sender', async () => {
    const quiet = { ...services, config: { ...services.config, systemSender: null } };
    const before = (await services.db.select().from(messages)).length;
    expect(
      await notifyPeople(quiet, services.db, {
        kind: 'full_access_api_key_created',
        accountId: teamId,
        resource: { id: 'key-1', name: 'Deploy' },
      }),
    ).toBe(0);
    expect(await notifyTwoFactorDisabled(quiet, services.db, { userId: ids.admin })).toBe(0);
    expect((await services.db.select().from(messages)).length).toBe(before);
    expect(await services.db.select().from(notificationSends).where(eq(notificationSends.resourceId, 'key-1'))).toEqual(
      [],
    );
  });
});

describe('notifyTwoFactorDisabled', () => {
  it('mails the person alone (not the other Administrators), once an hour, with a link to their profile', async () => {
    expect(await notifyTwoFactorDisabled(services, services.db, { userId: ids.developer, accountId: teamId })).toBe(1);
    const [mail] = await queuedTo(emails.developer, 'Two-factor sign-in was turned off for your Mailstead sign-in');
    expect(mail).toBeDefined();
    expect(await queuedTo(emails.admin, 'Two-factor sign-in was turned off for your Mailstead sign-in')).toEqual([]);
    expect(await notifyTwoFactorDisabled(services, services.db, { userId: ids.developer })).toBe(0);
    const [event] = await services.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.resourceId, ids.developer), eq(auditEvents.action, 'notification.send')));
    expect(event).toMatchObject({ accountId: teamId, resourceType: 'user', changes: ['two_factor_disabled'] });
  });

  it('in a transaction that rolls back, neither the mail nor the once-an-hour row stays', async () => {
    services.clock.advance(3600_000);
    const before = (await queuedTo(emails.developer)).length;
    await services.db
      .transaction(async (tx) => {
        expect(await notifyTwoFactorDisabled(services, tx, { userId: ids.developer, accountId: teamId })).toBe(1);
        throw new Error('the change failed');
      })
      .catch(() => undefined);
    expect((await queuedTo(emails.developer)).length).toBe(before);
    expect(await notifyTwoFactorDisabled(services, services.db, { userId: ids.developer, accountId: teamId })).toBe(1);
  });
});

describe('unsafePurgeNotificationSends', () => {
  it('drops the once-an-hour rows of past days and keeps the recent ones', async () => {
    const recent = await services.db.select().from(notificationSends);
    expect(recent.length).toBeGreaterThan(0);
    expect(await unsafePurgeNotificationSends(services.db, new Date())).toBe(0);
    // created_at is the database's clock: a day and more after it, every row goes.
    expect(await unsafePurgeNotificationSends(services.db, new Date(Date.now() + 25 * 3600_000))).toBe(recent.length);
    expect(await services.db.select().from(notificationSends)).toEqual([]);
  });
});
