import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { MemberRole } from '@/lib/auth/principal';
import { ROLE_SCOPES, isMemberRole, readOnlyScopesOf } from '@/lib/auth/roles';
import type { DbOrTx } from '@/lib/db/client';
import { accounts, memberships, users } from '@/lib/db/schema';

type AccountFacts = Pick<
  typeof accounts.$inferSelect,
  'id' | 'name' | 'status' | 'tier' | 'ownerId' | 'parentAccountId' | 'deletedAt' | 'requireTwoFactor'
>;

/**
 * What a signed-in person may do in one account: the scopes of their role, and whether the account's
 * state refuses them. `via: 'parent'` is a partner's person reaching a sub account of the partner.
 */
export type SessionAccess = {
  accountId: string;
  name: string;
  status: string;
  ownerId: string;
  /** `partner` (a top-level account that may have sub accounts) or `standard`. */
  tier: 'standard' | 'partner';
  role: MemberRole;
  scopes: readonly string[];
  via: 'member' | 'parent';
  parent: { id: string; name: string } | null;
  /** Suspended (or its parent is): the session is refused with 401 `Account is suspended`. */
  isSuspended: boolean;
  /**
   * The account (or, reached through it, the partner) requires two-factor sign-in and the person has
   * not set it up: the dashboard leads them to setup and the API refuses their session here with 403.
   */
  isTwoFactorMissing: boolean;
};

const SUSPENDED = new Set(['suspended', 'parent-suspended']);

/**
 * The one rule of session access. A member acts with their role's scopes. A member of a partner
 * account also reaches its sub accounts (a child has no membership rows of its own for them) with the
 * same role, while the parent is a partner and the child is not deleted; in a child the partner has
 * suspended they only read. It never goes upwards or sideways: a child's members reach only the child.
 * API keys never come here: a parent key reaches a child only through the sub-account endpoints.
 */
export function decideSessionAccess(
  account: AccountFacts,
  membership: { role: string } | null,
  parent: AccountFacts | null,
  parentMembership: { role: string } | null,
  hasTwoFactor: boolean,
): SessionAccess | null {
  if (account.deletedAt !== null || account.status === 'deleted') return null;
  const isRequired = account.requireTwoFactor || (parent?.requireTwoFactor ?? false);
  const base = {
    accountId: account.id,
    name: account.name,
    status: account.status,
    ownerId: account.ownerId,
    tier: account.tier === 'partner' && account.parentAccountId === null ? ('partner' as const) : ('standard' as const),
    isTwoFactorMissing: isRequired && !hasTwoFactor,
  };
  // The account's own members come first: it is their account, whatever they are elsewhere.
  if (membership && isMemberRole(membership.role)) {
    const parentFacts = parent ? { id: parent.id, name: parent.name } : null;
    return {
      ...base,
      role: membership.role,
      scopes: ROLE_SCOPES[membership.role],
      via: 'member',
      parent: parentFacts,
      isSuspended: SUSPENDED.has(account.status),
    };
  }
  if (!parent || !parentMembership || !isMemberRole(parentMembership.role)) return null;
  if (
    account.parentAccountId !== parent.id ||
    parent.parentAccountId !== null ||
    parent.tier !== 'partner' ||
    parent.deletedAt !== null
  )
    return null;
  const role = parentMembership.role;
  return {
    ...base,
    role,
    scopes: account.status === 'suspended' ? readOnlyScopesOf(role) : ROLE_SCOPES[role],
    via: 'parent',
    parent: { id: parent.id, name: parent.name },
    // A suspended child stays open to its partner's people (read only), so that they can see why it
    // was suspended; a suspended partner's people are refused in the partner, so in its children too.
    isSuspended: SUSPENDED.has(parent.status) || account.status === 'parent-suspended',
  };
}

const FACTS = {
  id: accounts.id,
  name: accounts.name,
  status: accounts.status,
  tier: accounts.tier,
  ownerId: accounts.ownerId,
  parentAccountId: accounts.parentAccountId,
  deletedAt: accounts.deletedAt,
  requireTwoFactor: accounts.requireTwoFactor,
};

/** A person's access to one account (every dashboard request asks): one query, the parent and the person joined. */
export async function findSessionAccess(db: DbOrTx, userId: string, accountId: string): Promise<SessionAccess | null> {
  const parent = alias(accounts, 'parent');
  const parentMembership = alias(memberships, 'parent_membership');
  const [row] = await db
    .select({
      account: FACTS,
      role: memberships.role,
      parent: {
        id: parent.id,
        name: parent.name,
        status: parent.status,
        tier: parent.tier,
        ownerId: parent.ownerId,
        parentAccountId: parent.parentAccountId,
        deletedAt: parent.deletedAt,
        requireTwoFactor: parent.requireTwoFactor,
      },
      parentRole: parentMembership.role,
      twoFactorEnabledAt: users.twoFactorEnabledAt,
    })
    .from(accounts)
    .leftJoin(memberships, and(eq(memberships.accountId, accounts.id), eq(memberships.userId, userId)))
    .leftJoin(parent, eq(parent.id, accounts.parentAccountId))
    .leftJoin(parentMembership, and(eq(parentMembership.accountId, parent.id), eq(parentMembership.userId, userId)))
    .leftJoin(users, eq(users.id, userId))
    .where(eq(accounts.id, accountId))
    .limit(1);
  if (!row) return null;
  return decideSessionAccess(
    row.account,
    row.role === null ? null : { role: row.role },
    row.parent,
    row.parentRole === null ? null : { role: row.parentRole },
    row.twoFactorEnabledAt !== null,
  );
}

/**
 * Every account a person may open, oldest first, each partner followed by its sub accounts: the
 * account switcher's list. The same rule as findSessionAccess decides each entry.
 */
export async function listSessionAccess(db: DbOrTx, userId: string): Promise<SessionAccess[]> {
  const direct = await db
    .select({ account: FACTS, role: memberships.role, twoFactorEnabledAt: users.twoFactorEnabledAt })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.userId, userId), isNull(accounts.deletedAt)))
    .orderBy(asc(accounts.createdAt), asc(accounts.id));
  const byId = new Map(direct.map((row) => [row.account.id, row]));
  const hasTwoFactor = direct.some((row) => row.twoFactorEnabledAt !== null);
  const partnerIds = direct
    .filter((row) => row.account.tier === 'partner' && row.account.parentAccountId === null)
    .map((row) => row.account.id);
  const children = partnerIds.length
    ? await db
        .select(FACTS)
        .from(accounts)
        .where(and(inArray(accounts.parentAccountId, partnerIds), isNull(accounts.deletedAt)))
        .orderBy(asc(accounts.name), asc(accounts.id))
    : [];
  const parentsOfDirect = await parentsOf(
    db,
    direct.map((row) => row.account.parentAccountId).filter((id): id is string => id !== null && !byId.has(id)),
  );

  const result: SessionAccess[] = [];
  const listed = new Set<string>();
  const push = (access: SessionAccess | null) => {
    if (access && !listed.has(access.accountId)) {
      listed.add(access.accountId);
      result.push(access);
    }
  };
  for (const row of direct) {
    const parentRow = row.account.parentAccountId
      ? (byId.get(row.account.parentAccountId)?.account ?? parentsOfDirect.get(row.account.parentAccountId) ?? null)
      : null;
    const parentRole = row.account.parentAccountId ? (byId.get(row.account.parentAccountId)?.role ?? null) : null;
    // A child the person belongs to directly is listed under its partner when the partner is listed.
    if (parentRow && partnerIds.includes(parentRow.id)) continue;
    push(
      decideSessionAccess(
        row.account,
        { role: row.role },
        parentRow,
        parentRole === null ? null : { role: parentRole },
        hasTwoFactor,
      ),
    );
    for (const child of children.filter((candidate) => candidate.parentAccountId === row.account.id)) {
      const own = direct.find((candidate) => candidate.account.id === child.id);
      push(decideSessionAccess(child, own ? { role: own.role } : null, row.account, { role: row.role }, hasTwoFactor));
    }
  }
  return result;
}

async function parentsOf(db: DbOrTx, ids: string[]): Promise<Map<string, AccountFacts>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select(FACTS).from(accounts).where(inArray(accounts.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}
