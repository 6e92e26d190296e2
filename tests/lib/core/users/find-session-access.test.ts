import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_SCOPES } from '@/lib/auth/roles';
import { setAccountStatus } from '@/lib/core/accounts/set-account-status';
import { setAccountTier } from '@/lib/core/accounts/set-account-tier';
import { createSubAccount } from '@/lib/core/sub-accounts/create-sub-account';
import { deleteSubAccount } from '@/lib/core/sub-accounts/delete-sub-account';
import { suspendSubAccount } from '@/lib/core/sub-accounts/suspend-sub-account';
import { findSessionAccess, listSessionAccess } from '@/lib/core/users/find-session-access';
import { accounts, memberships, users } from '@/lib/db/schema';
import { systemPrincipal } from '@/lib/auth/principal';
import { as, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/**
 * A partner's people reach its sub accounts with their partner role; nobody reaches upwards or
 * sideways, a deleted child is gone, and a child the partner suspended is read only.
 */
let services: TestServices;
let partner: { accountId: string };
let childA: string;
let childB: string;
let analystId: string;
let childMemberId: string;
let strangerId: string;

async function newUser(email: string) {
  const [row] = await services.db.insert(users).values({ email, passwordHash: 'x' }).returning();
  return row.id;
}

beforeAll(async () => {
  services = await memoryServices();
  partner = await newAccount(services, 'Partner');
  await setAccountTier(as(services, systemPrincipal('')), { account_id: partner.accountId, tier: 'partner' });
  const partnerContext = as(services, systemPrincipal(partner.accountId));
  childA = (await createSubAccount(partnerContext, { name: 'Child A', website: 'a.example.com', monthly_credit: 0 }))
    .id;
  childB = (await createSubAccount(partnerContext, { name: 'Child B', website: 'b.example.com', monthly_credit: 0 }))
    .id;
  analystId = await newUser('analyst@example.org');
  childMemberId = await newUser('child-member@example.org');
  strangerId = await newUser('stranger@example.org');
  const stranger = await newAccount(services, 'Unrelated');
  await services.db.insert(memberships).values([
    { accountId: partner.accountId, userId: analystId, role: 'Analyst' },
    { accountId: childA, userId: childMemberId, role: 'Administrator' },
    { accountId: stranger.accountId, userId: strangerId, role: 'Administrator' },
  ]);
  // Migrations and the owners' password hashes take a while on a busy machine.
}, 60_000);
afterAll(async () => services.close());

const ownerOf = async (accountId: string) =>
  (await services.db.select().from(accounts).where(eq(accounts.id, accountId)))[0].ownerId;

describe('findSessionAccess', () => {
  it("a partner's Analyst gets the Analyst scopes in a child, through the partner", async () => {
    const access = await findSessionAccess(services.db, analystId, childA);
    expect(access).toMatchObject({
      role: 'Analyst',
      via: 'parent',
      parent: { id: partner.accountId, name: 'Partner' },
      isSuspended: false,
    });
    expect(access?.scopes).toEqual(ROLE_SCOPES.Analyst);
    expect((await findSessionAccess(services.db, await ownerOf(partner.accountId), childB))?.scopes).toEqual(['*']);
  });

  it("a child's member reaches neither the partner nor a sibling; a stranger reaches no child", async () => {
    expect(await findSessionAccess(services.db, childMemberId, childA)).toMatchObject({
      role: 'Administrator',
      via: 'member',
    });
    expect(await findSessionAccess(services.db, childMemberId, partner.accountId)).toBeNull();
    expect(await findSessionAccess(services.db, childMemberId, childB)).toBeNull();
    expect(await findSessionAccess(services.db, strangerId, childA)).toBeNull();
    expect(await findSessionAccess(services.db, strangerId, '01a20000-0000-7000-8000-00000000dead')).toBeNull();
  });

  it('only while the partner is a partner', async () => {
    await setAccountTier(as(services, systemPrincipal('')), { account_id: partner.accountId, tier: 'standard' });
    try {
      expect(await findSessionAccess(services.db, analystId, childA)).toBeNull();
      expect((await listSessionAccess(services.db, analystId)).map((access) => access.name)).toEqual(['Partner']);
    } finally {
      await setAccountTier(as(services, systemPrincipal('')), { account_id: partner.accountId, tier: 'partner' });
    }
  });

  it('a child the partner suspended is read only for its people and refused to its own members; a suspended partner closes its children', async () => {
    const partnerContext = as(services, systemPrincipal(partner.accountId));
    const ownerId = await ownerOf(partner.accountId);
    const suspended = (
      await createSubAccount(partnerContext, { name: 'Child S', website: 's.example.com', monthly_credit: 0 })
    ).id;
    await services.db
      .insert(memberships)
      .values({ accountId: suspended, userId: childMemberId, role: 'Administrator' });
    await suspendSubAccount(partnerContext, { sub_account_id: suspended, reason: 'unpaid' });
    const owner = await findSessionAccess(services.db, ownerId, suspended);
    expect(owner?.isSuspended).toBe(false);
    expect(owner?.scopes).toContain('messages:read:all');
    expect(owner?.scopes.some((scope) => !scope.split(':').includes('read'))).toBe(false);
    expect((await findSessionAccess(services.db, childMemberId, suspended))?.isSuspended).toBe(true);

    await setAccountStatus(as(services, systemPrincipal('')), { account_id: partner.accountId, status: 'suspended' });
    try {
      expect((await findSessionAccess(services.db, ownerId, childA))?.isSuspended).toBe(true);
      expect((await findSessionAccess(services.db, ownerId, suspended))?.isSuspended).toBe(true);
    } finally {
      await setAccountStatus(as(services, systemPrincipal('')), { account_id: partner.accountId, status: 'active' });
    }
    await deleteSubAccount(partnerContext, { sub_account_id: suspended });
  });

  it('a deleted child is not reachable, and leaves the list', async () => {
    const partnerContext = as(services, systemPrincipal(partner.accountId));
    const gone = (
      await createSubAccount(partnerContext, { name: 'Child Gone', website: 'g.example.com', monthly_credit: 0 })
    ).id;
    expect(await findSessionAccess(services.db, analystId, gone)).not.toBeNull();
    await deleteSubAccount(partnerContext, { sub_account_id: gone });
    expect(await findSessionAccess(services.db, analystId, gone)).toBeNull();
    expect((await listSessionAccess(services.db, analystId)).map((access) => access.accountId)).not.toContain(gone);
  });
});

describe('listSessionAccess', () => {
  it('lists the partner followed by its sub accounts, and a child member only their child', async () => {
    const listed = await listSessionAccess(services.db, analystId);
    expect(listed.map((access) => [access.name, access.via, access.role])).toEqual([
      ['Partner', 'member', 'Analyst'],
      ['Child A', 'parent', 'Analyst'],
      ['Child B', 'parent', 'Analyst'],
    ]);
    expect(
      (await listSessionAccess(services.db, childMemberId)).map((access) => [access.name, access.parent?.name]),
    ).toEqual([['Child A', 'Partner']]);
  });
});
