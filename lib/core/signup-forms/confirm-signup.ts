import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import { publicListName } from '@/lib/core/lists/internal/public-list-name';
import { contactLists, listMemberships, signupConfirmations, signupForms } from '@/lib/db/schema';
import { confirmationState, confirmationTokenHash } from './internal/signup-rules';

export type ConfirmationOutcome =
  | { kind: 'invalid' }
  | { kind: 'used' }
  | { kind: 'expired' }
  | { kind: 'confirmed'; listNames: string[]; redirectUrl: string | null };

/**
 * POST /f/confirm/{token}, the button on the link's page (the GET only shows it, so that mail
 * scanners following links confirm nothing): the double opt-in's proof. The signup's memberships
 * that still await it become `confirmed`; one unsubscribed or complained meanwhile stays as it is.
 * The link works once and until it expires; a deleted form's links no longer work. Unsafe: the
 * token is the permission.
 */
export async function unsafeConfirmSignup(
  services: Pick<Services, 'db' | 'now'>,
  token: string,
): Promise<ConfirmationOutcome> {
  const hash = confirmationTokenHash(token);
  if (!hash) return { kind: 'invalid' };
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const [found] = await tx
      .select({ link: signupConfirmations, redirectUrl: signupForms.redirectUrl })
      .from(signupConfirmations)
      .innerJoin(signupForms, and(eq(signupForms.id, signupConfirmations.formId), isNull(signupForms.deletedAt)))
      .where(eq(signupConfirmations.tokenHash, hash))
      .limit(1)
      .for('update', { of: signupConfirmations });
    if (!found) return { kind: 'invalid' as const };
    const state = confirmationState(found.link, at);
    if (state !== 'usable') return { kind: state };
    await tx.update(signupConfirmations).set({ usedAt: at }).where(eq(signupConfirmations.id, found.link.id));
    const lists = await tx
      .select({ id: contactLists.id, name: publicListName })
      .from(contactLists)
      .where(
        and(
          eq(contactLists.accountId, found.link.accountId),
          inArray(contactLists.id, found.link.listIds),
          isNull(contactLists.deletedAt),
        ),
      );
    if (lists.length)
      await tx
        .update(listMemberships)
        .set({ subscriptionStatus: 'confirmed', updatedAt: at })
        .where(
          and(
            eq(listMemberships.contactId, found.link.contactId),
            inArray(
              listMemberships.listId,
              lists.map((list) => list.id),
            ),
            eq(listMemberships.subscriptionStatus, 'unconfirmed'),
          ),
        );
    return { kind: 'confirmed' as const, listNames: lists.map((list) => list.name), redirectUrl: found.redirectUrl };
  });
}
