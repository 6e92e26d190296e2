import { and, eq } from 'drizzle-orm';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorPrincipal, type Principal } from '@/lib/auth/principal';
import { disableTwoFactor } from '@/lib/core/two-factor/disable-two-factor';
import { getTwoFactorStatus } from '@/lib/core/two-factor/get-two-factor-status';
import { enableTwoFactor } from '@/lib/core/two-factor/enable-two-factor';
import { hashRecoveryCode } from '@/lib/core/two-factor/internal/recovery-codes';
import { regenerateRecoveryCodes } from '@/lib/core/two-factor/regenerate-recovery-codes';
import { setTwoFactorRequirement } from '@/lib/core/two-factor/set-two-factor-requirement';
import { startTwoFactorSetup } from '@/lib/core/two-factor/start-two-factor-setup';
import { turnOffTwoFactorForUser } from '@/lib/core/two-factor/turn-off-two-factor-for-user';
import { verifySecondFactor } from '@/lib/core/two-factor/verify-second-factor';
import { findSessionAccess } from '@/lib/core/users/find-session-access';
import { accounts, auditEvents, memberships, recoveryCodes, users } from '@/lib/db/schema';
import { as, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/**
 * TOTP codes checked with one step of drift and never twice, recovery codes stored hashed and used
 * once, and the events each change leaves in the log of every account of the person.
 */
let services: TestServices;
let accountId: string;
let otherAccountId: string;
let owner: { id: string; email: string };

const session = (userId: string, email: string, account = accountId): Principal => ({
  kind: 'session',
  accountId: account,
  targetAccountId: account,
  scopes: ['*'],
  userId,
  label: email,
  role: 'Administrator',
  clientIp: '192.0.2.7',
  isSandbox: false,
});

const codeAt = (secret: string, offsetSeconds = 0) =>
  generateSync({ secret, epoch: Math.floor(services.now().getTime() / 1000) + offsetSeconds });

const userRow = async (id: string) => (await services.db.select().from(users).where(eq(users.id, id)))[0];

let secret: string;
let recovery: string[];

beforeAll(async () => {
  services = await memoryServices();
  accountId = (await newAccount(services, 'Two factor')).accountId;
  otherAccountId = (await newAccount(services, 'Second team')).accountId;
  const [account] = await services.db.select().from(accounts).where(eq(accounts.id, accountId));
  const ownerRow = await userRow(account.ownerId);
  owner = { id: ownerRow.id, email: ownerRow.email };
  await services.db.insert(memberships).values({ accountId: otherAccountId, userId: owner.id, role: 'Developer' });
}, 60_000);
afterAll(async () => services.close());

describe('setup', () => {
  it('stores the secret encrypted, and only a right code turns it on', async () => {
    const ctx = as(services, session(owner.id, owner.email));
    const setup = await startTwoFactorSetup(ctx, {});
    secret = setup.secret;
    expect(setup.otpauth_uri).toContain(`secret=${secret}`);
    expect(setup.qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    const stored = await userRow(owner.id);
    expect(stored.twoFactorSecretEncrypted).not.toContain(secret);
    expect(services.secrets.decrypt('two-factor-totp', stored.twoFactorSecretEncrypted!)).toBe(secret);

    await expect(enableTwoFactor(ctx, { code: '000000' === codeAt(secret) ? '111111' : '000000' })).rejects.toThrow(
      /code: that code is not valid/,
    );
    expect((await userRow(owner.id)).twoFactorEnabledAt).toBeNull();

    const enabled = await enableTwoFactor(ctx, { code: codeAt(secret) });
    recovery = enabled.recovery_codes;
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    expect((await userRow(owner.id)).twoFactorEnabledAt).not.toBeNull();
  });

  it('keeps recovery codes only as SHA-256 hashes', async () => {
    const rows = await services.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, owner.id));
    expect(rows.map((row) => row.codeHash).sort()).toEqual(recovery.map(hashRecoveryCode).sort());
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.codeHash))).toBe(true);
    expect(hashRecoveryCode(recovery[0].toUpperCase().replace('-', ' '))).toBe(hashRecoveryCode(recovery[0]));
  });

  it('records user.two_factor_enable once in each account of the person, naming them', async () => {
    const events = await services.db.select().from(auditEvents).where(eq(auditEvents.action, 'user.two_factor_enable'));
    expect(events.map((event) => event.accountId).sort()).toEqual([accountId, otherAccountId].sort());
    expect(events[0]).toMatchObject({ actorType: 'user', actorId: owner.id, actorLabel: owner.email, ip: '192.0.2.7' });
  });
});

describe('the second factor at sign-in', () => {
  it('accepts a code of the next step (clock drift) once, then refuses it and every older one', async () => {
    services.clock.advance(60_000);
    const user = await userRow(owner.id);
    const next = codeAt(secret, 30);
    expect(await verifySecondFactor(services.db, services.secrets, user, next, services.now())).toBe('totp');
    const after = await userRow(owner.id);
    expect(await verifySecondFactor(services.db, services.secrets, after, next, services.now())).toBeNull();
    // The current step is older than the one just used: refused too.
    expect(await verifySecondFactor(services.db, services.secrets, after, codeAt(secret), services.now())).toBeNull();
  });

  it('refuses a code two steps away', async () => {
    services.clock.advance(120_000);
    const user = await userRow(owner.id);
    for (const offset of [-60, 60])
      expect(
        await verifySecondFactor(services.db, services.secrets, user, codeAt(secret, offset), services.now()),
      ).toBeNull();
    expect(await verifySecondFactor(services.db, services.secrets, user, codeAt(secret), services.now())).toBe('totp');
  });

  it('accepts a recovery code once, whatever its case and dashes', async () => {
    const user = await userRow(owner.id);
    const typed = recovery[3].toUpperCase().replace('-', '');
    expect(await verifySecondFactor(services.db, services.secrets, user, typed, services.now())).toBe('recovery_code');
    expect(await verifySecondFactor(services.db, services.secrets, user, recovery[3], services.now())).toBeNull();
    expect(await verifySecondFactor(services.db, services.secrets, user, 'not-a-code', services.now())).toBeNull();
  });

  it('new recovery codes replace the old ones', async () => {
    const ctx = as(services, session(owner.id, owner.email));
    await expect(regenerateRecoveryCodes(ctx, { password: 'wrong password' })).rejects.toThrow(/password/);
    const fresh = await regenerateRecoveryCodes(ctx, { password: 'correct horse battery staple' });
    const user = await userRow(owner.id);
    expect(await verifySecondFactor(services.db, services.secrets, user, recovery[5], services.now())).toBeNull();
    expect(await verifySecondFactor(services.db, services.secrets, user, fresh.recovery_codes[0], services.now())).toBe(
      'recovery_code',
    );
    recovery = fresh.recovery_codes;
  });
});

describe('the account rule', () => {
  it('marks a member without two-factor sign-in, not one with it', async () => {
    const [member] = await services.db
      .insert(users)
      .values({ email: 'member@example.org', passwordHash: 'x' })
      .returning();
    await services.db.insert(memberships).values({ accountId, userId: member.id, role: 'Developer' });
    await setTwoFactorRequirement(as(services, session(owner.id, owner.email)), { require_two_factor: true });
    expect((await findSessionAccess(services.db, member.id, accountId))?.isTwoFactorMissing).toBe(true);
    expect((await findSessionAccess(services.db, owner.id, accountId))?.isTwoFactorMissing).toBe(false);
    const [event] = await services.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'account.update'), eq(auditEvents.accountId, accountId)));
    expect(event.changes).toEqual(['require_two_factor']);
  });

  it('refuses a person without two-factor sign-in turning the rule on', async () => {
    const [admin] = await services.db
      .insert(users)
      .values({ email: 'admin-without@example.org', passwordHash: 'x' })
      .returning();
    await expect(
      setTwoFactorRequirement(as(services, session(admin.id, admin.email, otherAccountId)), {
        require_two_factor: true,
      }),
    ).rejects.toThrow(/set up two-factor sign-in for yourself first/);
  });

  it('refuses turning it off while an account requires it, then allows it with the password', async () => {
    const ctx = as(services, session(owner.id, owner.email));
    await expect(disableTwoFactor(ctx, { password: 'correct horse battery staple' })).rejects.toThrow(
      /requires two-factor sign-in/,
    );
    await setTwoFactorRequirement(ctx, { require_two_factor: false });
    await expect(disableTwoFactor(ctx, { password: 'nope' })).rejects.toThrow(/password/);
    await disableTwoFactor(ctx, { password: 'correct horse battery staple' });
    const user = await userRow(owner.id);
    expect(user).toMatchObject({ twoFactorEnabledAt: null, twoFactorSecretEncrypted: null });
    expect(await services.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, owner.id))).toEqual([]);
  });
});

describe('a requirement inherited from the partner account', () => {
  it("a sub account's own member cannot turn two-factor off while only the partner requires it", async () => {
    const partner = await newAccount(services, 'Partner agency');
    const child = await newAccount(services, 'Client shop');
    await services.db.update(accounts).set({ tier: 'partner' }).where(eq(accounts.id, partner.accountId));
    await services.db
      .update(accounts)
      .set({ parentAccountId: partner.accountId })
      .where(eq(accounts.id, child.accountId));
    const [childRow] = await services.db.select().from(accounts).where(eq(accounts.id, child.accountId));
    const member = await userRow(childRow.ownerId);
    await services.db.update(users).set({ twoFactorEnabledAt: services.now() }).where(eq(users.id, member.id));
    await services.db.update(accounts).set({ requireTwoFactor: true }).where(eq(accounts.id, partner.accountId));

    const ctx = as(services, session(member.id, member.email, child.accountId));
    await expect(disableTwoFactor(ctx, { password: 'correct horse battery staple' })).rejects.toThrow(
      'the account “Partner agency” requires two-factor sign-in of its members and of its sub account “Client shop”',
    );
    expect((await getTwoFactorStatus(ctx, {})).required_by).toEqual([{ id: child.accountId, name: 'Client shop' }]);
    expect((await userRow(member.id)).twoFactorEnabledAt).not.toBeNull();

    // The partner lifts it: the member may turn it off.
    await services.db.update(accounts).set({ requireTwoFactor: false }).where(eq(accounts.id, partner.accountId));
    await disableTwoFactor(ctx, { password: 'correct horse battery staple' });
    expect((await userRow(member.id)).twoFactorEnabledAt).toBeNull();
  });
});

describe("the operator's way back in", () => {
  it('turns it off for a person who lost their codes, recorded with the operator as actor, and only once', async () => {
    const ctx = as(services, session(owner.id, owner.email));
    const setup = await startTwoFactorSetup(ctx, {});
    await enableTwoFactor(ctx, { code: codeAt(setup.secret) });
    const operator = as(services, operatorPrincipal(''));
    await expect(turnOffTwoFactorForUser(operator, { email: 'nobody@example.com' })).rejects.toThrow(/no user/);
    await expect(turnOffTwoFactorForUser(ctx, { email: owner.email })).rejects.toMatchObject({ kind: 'forbidden' });
    expect(await turnOffTwoFactorForUser(operator, { email: owner.email.toUpperCase() })).toEqual({
      email: owner.email,
      two_factor: 'off',
    });
    expect(await userRow(owner.id)).toMatchObject({ twoFactorEnabledAt: null, twoFactorSecretEncrypted: null });
    expect(await services.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, owner.id))).toEqual([]);
    const events = await services.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.resourceId, owner.id), eq(auditEvents.actorType, 'operator')));
    expect(events.map((event) => [event.action, event.accountId]).sort()).toEqual(
      [
        ['user.two_factor_disable', accountId],
        ['user.two_factor_disable', otherAccountId],
      ].sort(),
    );
    await expect(turnOffTwoFactorForUser(operator, { email: owner.email })).rejects.toThrow(/already off/);
  });
});
