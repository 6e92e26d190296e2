import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberRole, Principal } from '@/lib/auth/principal';
import { addMemberWithPassword } from '@/lib/core/members/add-member-with-password';
import { describeDevice } from '@/lib/core/user-sessions/internal/describe-device';
import { endMemberSessions } from '@/lib/core/user-sessions/end-member-sessions';
import { endMyOtherSessions } from '@/lib/core/user-sessions/end-my-other-sessions';
import { endMySession } from '@/lib/core/user-sessions/end-my-session';
import { endUserSession } from '@/lib/core/user-sessions/end-user-session';
import { unsafePurgeEndedSessions } from '@/lib/core/user-sessions/purge-ended-sessions';
import { listMySessions } from '@/lib/core/user-sessions/list-my-sessions';
import { startUserSession } from '@/lib/core/user-sessions/start-user-session';
import { authenticateSession } from '@/lib/core/users/authenticate-session';
import { ROLE_SCOPES } from '@/lib/auth/roles';
import { accounts, auditEvents, userSessions } from '@/lib/db/schema';
import { as, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/**
 * Sessions as rows: every use of a cookie checks its row, so ending one (from the Profile page, by
 * an administrator, or by signing out) stops that device at once and leaves the others alone.
 */
let services: TestServices;
let account: Awaited<ReturnType<typeof newAccount>>;
let ownerId: string;

beforeAll(async () => {
  services = await memoryServices();
  account = await newAccount(services, 'Sessions');
  const [row] = await services.db.select().from(accounts).where(eq(accounts.id, account.accountId));
  ownerId = row.ownerId;
});
afterAll(async () => services.close());

const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

const signIn = (userId: string, userAgent = CHROME_MAC) =>
  startUserSession(services.db, { userId, ip: '203.0.113.7', userAgent, now: services.now() });

const check = (userId: string, sessionId: string | null, sessionVersion = 0) =>
  authenticateSession(services.db, { userId, sessionVersion, sessionId }, services.now());

function sessionOf(userId: string, sessionId: string | null, role: MemberRole = 'Administrator'): Principal {
  return {
    kind: 'session',
    accountId: account.accountId,
    targetAccountId: account.accountId,
    scopes: ROLE_SCOPES[role],
    userId,
    sessionId: sessionId ?? undefined,
    role,
    label: 'person@example.com',
    clientIp: '203.0.113.7',
    isSandbox: false,
  };
}

async function member(role: MemberRole) {
  const email = `${role.replace(' ', '-').toLowerCase()}-${Math.random().toString(36).slice(2)}@example.com`;
  const added = await addMemberWithPassword(as(services, account.principal), {
    account_id: account.accountId,
    email,
    password: 'member password 1',
    role,
  });
  return added.user_id as string;
}

describe('checking a cookie', () => {
  it('a session row is valid until it is ended; ending one leaves the same person on another device signed in', async () => {
    const laptop = await signIn(ownerId);
    const phone = await signIn(ownerId, FIREFOX_LINUX);
    expect(await check(ownerId, laptop)).not.toBeNull();
    await endMySession(as(services, sessionOf(ownerId, phone)), { session_id: laptop });
    expect(await check(ownerId, laptop)).toBeNull();
    expect(await check(ownerId, phone)).not.toBeNull();
  });

  it("a session id with another person's user id, or a stale session version, is refused", async () => {
    const other = await member('Developer');
    const mine = await signIn(ownerId);
    expect(await check(other, mine)).toBeNull();
    expect(await check(ownerId, mine, 5)).toBeNull();
  });

  it('a cookie without a session id is refused even with the current version: it could not be ended alone', async () => {
    expect(await check(ownerId, await signIn(ownerId))).not.toBeNull();
    expect(await check(ownerId, null)).toBeNull();
  });

  it('last seen moves at most once a minute', async () => {
    const id = await signIn(ownerId);
    const seen = async () =>
      (await services.db.select().from(userSessions).where(eq(userSessions.id, id)))[0].lastSeenAt.getTime();
    const first = await seen();
    services.clock.advance(30_000);
    await check(ownerId, id);
    expect(await seen()).toBe(first);
    services.clock.advance(31_000);
    await check(ownerId, id);
    expect(await seen()).toBe(services.now().getTime());
  });

  it('signing out ends this session only', async () => {
    const here = await signIn(ownerId);
    const there = await signIn(ownerId);
    await endUserSession(services.db, ownerId, here, services.now());
    expect(await check(ownerId, here)).toBeNull();
    expect(await check(ownerId, there)).not.toBeNull();
  });
});

describe("a person's own sessions", () => {
  it('lists live sessions with a device name and this device marked; ending another person’s session by id is 404', async () => {
    const person = await member('Developer');
    const here = await signIn(person, CHROME_MAC);
    const there = await signIn(person, FIREFOX_LINUX);
    const listed = await listMySessions(as(services, sessionOf(person, here, 'Developer')), {});
    expect(listed.data.map((session) => [session.id, session.device, session.is_current]).sort()).toEqual(
      [
        [here, 'Chrome on macOS', true],
        [there, 'Firefox on Linux', false],
      ].sort(),
    );
    await expect(endMySession(as(services, sessionOf(ownerId, null)), { session_id: there })).rejects.toMatchObject({
      kind: 'not_found',
    });
    expect(await check(person, there)).not.toBeNull();
  });

  it('"sign out everywhere else" keeps this device and records user.session_end in the account', async () => {
    const person = await member('Analyst');
    const here = await signIn(person);
    const others = [await signIn(person), await signIn(person)];
    const result = await endMyOtherSessions(as(services, sessionOf(person, here, 'Analyst')), {});
    expect(result.ended).toBe(2);
    expect(await check(person, here)).not.toBeNull();
    for (const other of others) expect(await check(person, other)).toBeNull();
    const events = await services.db.select().from(auditEvents).where(eq(auditEvents.actorId, person));
    expect(events).toEqual([
      expect.objectContaining({ action: 'user.session_end', accountId: account.accountId, actorType: 'user' }),
    ]);
  });
});

describe("an administrator ending a member's sessions", () => {
  it('ends every session of the member, recorded as member.sessions_end', async () => {
    const developer = await member('Developer');
    const sessions = [await signIn(developer), await signIn(developer)];
    const admin = await member('Administrator');
    const result = await endMemberSessions(as(services, sessionOf(admin, null)), { user_id: developer });
    expect(result.ended).toBe(2);
    for (const id of sessions) expect(await check(developer, id, 1)).toBeNull();
    const [event] = await services.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.resourceId, developer), eq(auditEvents.action, 'member.sessions_end')));
    expect(event).toMatchObject({ action: 'member.sessions_end', actorId: admin, resourceType: 'member' });
  });

  it.each([
    ['a Developer (no accounts:members:update)', 'Developer' as const, 'target', 'forbidden'],
    ['anyone, for the owner', 'Administrator' as const, 'owner', 'forbidden'],
    ['anyone, for themselves', 'Administrator' as const, 'self', 'invalid_input'],
  ])('is refused to %s', async (_, role, whose, kind) => {
    const actor = await member(role);
    const target = whose === 'owner' ? ownerId : whose === 'self' ? actor : await member('Analyst');
    const session = await signIn(target);
    await expect(
      endMemberSessions(as(services, sessionOf(actor, null, role)), { user_id: target }),
    ).rejects.toMatchObject({
      kind,
    });
    expect(await check(target, session)).not.toBeNull();
  });
});

describe('device names', () => {
  it.each([
    [CHROME_MAC, 'Chrome on macOS'],
    [FIREFOX_LINUX, 'Firefox on Linux'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Safari on iOS',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      'Edge on Windows',
    ],
    ['curl/8.5.0', 'curl'],
    [null, 'Unknown device'],
  ])('%s is "%s"', (userAgent, expected) => {
    expect(describeDevice(userAgent)).toBe(expected);
  });
});

describe('the purge', () => {
  it('drops sessions ended 30 days ago and leaves live ones', async () => {
    const ended = await signIn(ownerId);
    const live = await signIn(ownerId);
    await endUserSession(services.db, ownerId, ended, services.now());
    services.clock.advance(29 * 24 * 3600_000);
    await check(ownerId, live);
    await unsafePurgeEndedSessions(services.db, services.now());
    expect(await services.db.select().from(userSessions).where(eq(userSessions.id, ended))).toHaveLength(1);
    services.clock.advance(2 * 24 * 3600_000);
    await check(ownerId, live);
    await unsafePurgeEndedSessions(services.db, services.now());
    expect(await services.db.select().from(userSessions).where(eq(userSessions.id, ended))).toHaveLength(0);
    expect(await check(ownerId, live)).not.toBeNull();
  });
});
