import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymousPrincipal, operatorPrincipal, type Principal } from '@/lib/auth/principal';
import { addMemberWithPassword } from '@/lib/core/members/add-member-with-password';
import { changePassword } from '@/lib/core/passwords/change-password';
import { completePasswordReset } from '@/lib/core/passwords/complete-password-reset';
import { createPasswordResetLink } from '@/lib/core/passwords/create-password-reset-link';
import { inspectPasswordReset } from '@/lib/core/passwords/inspect-password-reset';
import { requestPasswordReset } from '@/lib/core/passwords/request-password-reset';
import { startUserSession } from '@/lib/core/user-sessions/start-user-session';
import { authenticateSession } from '@/lib/core/users/authenticate-session';
import { verifyUserCredentials } from '@/lib/core/users/verify-user-credentials';
import { auditEvents, passwordResetTokens, users } from '@/lib/db/schema';
import { NO_PASSWORD_HASH } from '@/lib/shared/crypto';
import { as, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/**
 * Passwords: a change needs the current one and ends the person's other sessions; a reset link is
 * stored hashed, works once and for an hour, ends every session and opens nothing by itself.
 */
let services: TestServices;
let account: Awaited<ReturnType<typeof newAccount>>;

beforeAll(async () => {
  services = await memoryServices();
  account = await newAccount(services, 'Passwords');
});
afterAll(async () => services.close());

const OLD = 'old password 123';
const NEW = 'new password 456';

async function person(email = `p-${Math.random().toString(36).slice(2)}@example.com`) {
  const added = await addMemberWithPassword(as(services, account.principal), {
    account_id: account.accountId,
    email,
    password: OLD,
    role: 'Developer',
  });
  return { userId: added.user_id as string, email };
}

const signIn = (userId: string) =>
  startUserSession(services.db, { userId, ip: '198.51.100.4', userAgent: null, now: services.now() });

async function isLive(userId: string, sessionId: string) {
  const [user] = await services.db.select().from(users).where(eq(users.id, userId));
  return (
    (await authenticateSession(
      services.db,
      { userId, sessionVersion: user.sessionVersion, sessionId },
      services.now(),
    )) !== null
  );
}

function sessionOf(userId: string, sessionId: string, clientIp = '198.51.100.4'): Principal {
  return {
    kind: 'session',
    accountId: '',
    targetAccountId: '',
    scopes: [],
    userId,
    sessionId,
    clientIp,
    isSandbox: false,
  };
}

const operator = () => as(services, operatorPrincipal(''));
const anonymous = (ip = '192.0.2.10') => as(services, anonymousPrincipal(ip));
const tokenOf = (url: string) => new URL(url).pathname.split('/').at(-1)!;

describe('changing a password', () => {
  it('needs the current password; the new one works, the other sessions end and this one stays', async () => {
    const { userId, email } = await person();
    const here = await signIn(userId);
    const there = await signIn(userId);
    const ctx = as(services, sessionOf(userId, here));
    await expect(changePassword(ctx, { current_password: 'not it at all', new_password: NEW })).rejects.toMatchObject({
      kind: 'invalid_input',
      field: 'current_password',
    });
    await expect(changePassword(ctx, { current_password: OLD, new_password: 'short' })).rejects.toMatchObject({
      kind: 'invalid_input',
    });
    const changed = await changePassword(ctx, { current_password: OLD, new_password: NEW });
    expect(changed.other_sessions_ended).toBe(1);
    expect(await verifyUserCredentials(services.db, email, NEW)).not.toBeNull();
    expect(await verifyUserCredentials(services.db, email, OLD)).toBeNull();
    expect(await isLive(userId, here)).toBe(true);
    expect(await isLive(userId, there)).toBe(false);
    const events = await services.db.select().from(auditEvents).where(eq(auditEvents.actorId, userId));
    expect(events).toEqual([
      expect.objectContaining({ action: 'user.password_change', accountId: account.accountId, changes: ['password'] }),
    ]);
  });

  it('ten wrong current passwords from one address, and the eleventh attempt is refused even when right', async () => {
    const { userId } = await person();
    const ctx = as(services, sessionOf(userId, await signIn(userId), '198.51.100.99'));
    for (let i = 0; i < 10; i++)
      await expect(
        changePassword(ctx, { current_password: `wrong ${i} guess`, new_password: NEW }),
      ).rejects.toMatchObject({
        kind: 'invalid_input',
      });
    await expect(changePassword(ctx, { current_password: OLD, new_password: NEW })).rejects.toMatchObject({
      kind: 'rate_limited',
    });
  });
});

describe('a first password (a person made by single sign-on has none)', () => {
  it('is set without a current one, once; then changing it needs it, and signing in with it works', async () => {
    const { userId, email } = await person();
    await services.db.update(users).set({ passwordHash: NO_PASSWORD_HASH }).where(eq(users.id, userId));
    // No password matches "none", not even the word itself.
    expect(await verifyUserCredentials(services.db, email, NO_PASSWORD_HASH)).toBeNull();
    const ctx = as(services, sessionOf(userId, await signIn(userId)));
    // Two tabs at once: one sets it, the other is refused rather than setting it over without the current one.
    const both = await Promise.allSettled([
      changePassword(ctx, { new_password: NEW }),
      changePassword(ctx, { new_password: 'another password 789' }),
    ]);
    expect(both.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(both.find((result) => result.status === 'rejected')).toMatchObject({ reason: { kind: 'conflict' } });
    const set = both[0].status === 'fulfilled' ? NEW : 'another password 789';
    expect(await verifyUserCredentials(services.db, email, set)).not.toBeNull();
    await expect(changePassword(ctx, { new_password: 'a third password 000' })).rejects.toMatchObject({
      kind: 'invalid_input',
      field: 'current_password',
    });
  });
});

describe('resetting a password', () => {
  it("the operator's link is stored hashed, works once, ends every session and signs nobody in", async () => {
    const { userId, email } = await person();
    const session = await signIn(userId);
    const link = await createPasswordResetLink(operator(), { email: email.toUpperCase() });
    expect(link.email).toBe(email);
    const token = tokenOf(link.url);
    const stored = await services.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, userId));
    expect(stored).toHaveLength(1);
    expect(stored[0].tokenHash).not.toContain(token);
    expect(await inspectPasswordReset(anonymous(), { token })).toMatchObject({ email });

    const done = await completePasswordReset(anonymous(), { token, password: NEW });
    expect(done.email).toBe(email);
    expect(await verifyUserCredentials(services.db, email, NEW)).not.toBeNull();
    expect(await isLive(userId, session)).toBe(false);
    await expect(completePasswordReset(anonymous(), { token, password: 'another one 789' })).rejects.toMatchObject({
      kind: 'conflict',
    });
    await expect(inspectPasswordReset(anonymous(), { token })).rejects.toMatchObject({ kind: 'conflict' });
    const events = await services.db.select().from(auditEvents).where(eq(auditEvents.resourceId, userId));
    // The fixture's own member.add is recorded too: only the reset's events are looked at.
    const resets = events.filter((event) => event.action.startsWith('user.password_reset'));
    expect(resets.map((event) => [event.action, event.actorType])).toEqual([
      ['user.password_reset_link_create', 'operator'],
      ['user.password_reset', 'user'],
    ]);
  });

  it('a link expires after an hour; using one link spends the older ones too', async () => {
    const { email } = await person();
    const expiring = tokenOf((await createPasswordResetLink(operator(), { email })).url);
    services.clock.advance(3600_000);
    await expect(completePasswordReset(anonymous(), { token: expiring, password: NEW })).rejects.toMatchObject({
      kind: 'forbidden',
    });
    const older = tokenOf((await createPasswordResetLink(operator(), { email })).url);
    const newer = tokenOf((await createPasswordResetLink(operator(), { email })).url);
    await completePasswordReset(anonymous(), { token: newer, password: NEW });
    await expect(completePasswordReset(anonymous(), { token: older, password: OLD })).rejects.toMatchObject({
      kind: 'conflict',
    });
  });

  it("a link sets only its own user's password, and an unknown token is 404", async () => {
    const ada = await person();
    const bob = await person();
    const token = tokenOf((await createPasswordResetLink(operator(), { email: ada.email })).url);
    await completePasswordReset(anonymous(), { token, password: NEW });
    expect(await verifyUserCredentials(services.db, bob.email, OLD)).not.toBeNull();
    expect(await verifyUserCredentials(services.db, bob.email, NEW)).toBeNull();
    await expect(completePasswordReset(anonymous(), { token: 'A'.repeat(43), password: NEW })).rejects.toMatchObject({
      kind: 'not_found',
    });
  });

  it('the operator is told about an unknown address; the public request answers the same either way', async () => {
    await expect(createPasswordResetLink(operator(), { email: 'nobody@example.com' })).rejects.toMatchObject({
      kind: 'not_found',
    });
    const { email } = await person();
    const known = await requestPasswordReset(anonymous('192.0.2.20'), { email });
    const unknown = await requestPasswordReset(anonymous('192.0.2.21'), { email: 'nobody@example.com' });
    expect(known).toEqual(unknown);
    // No SYSTEM_SENDER here: the answer says an operator makes links, and none was made.
    expect(known.delivery).toBe('operator');
  });

  it('reset requests are counted per address: the eleventh in a window is refused', async () => {
    for (let i = 0; i < 10; i++) await requestPasswordReset(anonymous('192.0.2.30'), { email: `x${i}@example.com` });
    await expect(requestPasswordReset(anonymous('192.0.2.30'), { email: 'x@example.com' })).rejects.toMatchObject({
      kind: 'rate_limited',
    });
  });
});
