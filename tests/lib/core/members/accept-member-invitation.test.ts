import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptMemberInvitation } from '@/lib/core/members/accept-member-invitation';
import { addMember } from '@/lib/core/members/add-member';
import { anonymousPrincipal } from '@/lib/auth/principal';
import { memberInvitations, memberships, users } from '@/lib/db/schema';
import { verifyPassword } from '@/lib/shared/crypto';
import { as, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/**
 * Who owns an address: a link handed to the inviter (no system sender) proves nothing, so the user it
 * makes is unproven; another account invites them instead of adding them, and a mailed link lets the
 * mailbox's owner take the address over, signing the first person out.
 */
let services: TestServices;
beforeAll(async () => {
  services = await memoryServices();
});
afterAll(async () => services.close());

const tokenOf = (url: string) => new URL(url).pathname.split('/').at(-1)!;
const anonymous = () => as(services, anonymousPrincipal('127.0.0.1'));

describe('an address nobody proved', () => {
  it('a handed link makes an unproven user; another account is sent an invitation, and a mailed link takes the address over', async () => {
    const email = 'someone@example.org';
    const first = await newAccount(services, 'First');
    const handed = (await addMember(as(services, first.principal), { email, role: 'Analyst' })) as { invitation: { delivery: string; url: string } };
    expect(handed.invitation.delivery).toBe('link');
    await acceptMemberInvitation(anonymous(), { token: tokenOf(handed.invitation.url), password: 'made up password 1' });
    const [made] = await services.db.select().from(users).where(eq(users.email, email));
    expect(made.isEmailVerified).toBe(false);

    const second = await newAccount(services, 'Second');
    const invited = (await addMember(as(services, second.principal), { email, role: 'Developer' })) as { status: string; invitation: { id: string; url: string } };
    expect(invited.status).toBe('invited');
    expect(await services.db.select().from(memberships).where(eq(memberships.accountId, second.accountId))).toHaveLength(1); // the owner only

    // Handed over too, the second link needs the first person's password, as for any existing user.
    await expect(acceptMemberInvitation(anonymous(), { token: tokenOf(invited.invitation.url), password: 'the owner password 2' })).rejects.toThrow(/already has a Mailstead user/);

    // Mailed (what sendInvitationMail records when the system sender sent it): the mailbox's owner sets a password.
    await services.db.update(memberInvitations).set({ isMailed: true }).where(eq(memberInvitations.id, invited.invitation.id));
    await acceptMemberInvitation(anonymous(), { token: tokenOf(invited.invitation.url), password: 'the owner password 2' });
    const [taken] = await services.db.select().from(users).where(eq(users.email, email));
    expect(taken.isEmailVerified).toBe(true);
    expect(taken.sessionVersion).toBe(made.sessionVersion + 1);
    expect(await verifyPassword('the owner password 2', taken.passwordHash)).toBe(true);
    expect(await verifyPassword('made up password 1', taken.passwordHash)).toBe(false);
  });

  it('a user with a proven address (made by the operator or a mailed link) is added at once', async () => {
    const account = await newAccount(services, 'Third');
    const owner = await newAccount(services, 'Owner elsewhere');
    const [ownerUser] = await services.db.select({ email: users.email }).from(users).innerJoin(memberships, eq(memberships.userId, users.id)).where(eq(memberships.accountId, owner.accountId));
    const added = (await addMember(as(services, account.principal), { email: ownerUser.email, role: 'Analyst' })) as { status: string };
    expect(added.status).toBe('active');
  });
});
