import { createHash } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { loadAttributeDefinitions } from '@/lib/core/contacts/internal/queries';
import type { Services } from '@/lib/core/context';
import type { SubscriptionStatus } from '@/lib/core/lists/schemas';
import { loadReputationShield, screenRecipient } from '@/lib/core/messages/reputation-shield';
import { normalizeEmailAddress } from '@/lib/core/shared/email-address';
import type { Tx } from '@/lib/db/client';
import { accounts, contactLists, contacts, listMemberships, signupConfirmations, signupForms } from '@/lib/db/schema';
import { invalidInput } from '@/lib/shared/errors';
import { isUuid } from '@/lib/shared/ids';
import { type SignupFormRow } from './internal/present';
import { findConfirmationSending } from './internal/queries';
import { sendConfirmationMail } from './internal/send-confirmation-mail';
import { newConfirmationToken, signupStatusFor } from './internal/signup-rules';
import { OversizeSignup, readSignupValues, type SignupValues } from './internal/signup-values';
import { HONEYPOT_FIELD } from './schemas';

export const DEFAULT_CONFIRMATION_TTL_SECONDS = 7 * 24 * 3600;
// One confirmation mail per form and address in this time, however often the form is posted.
const RESEND_AFTER_MS = 10 * 60 * 1000;

export type SignupOutcome =
  | { kind: 'not_found' }
  | { kind: 'rate_limited' }
  | { kind: 'accepted'; isDoubleOptIn: boolean; redirectUrl: string | null; formName: string };

/**
 * POST /f/{form_id}: the public signup. The answer depends only on the form, never on the address
 * (known or not, suppressed, unsubscribed: no enumeration); a honeypot, oversize values or a
 * spent per-email allowance are accepted and dropped. Bad values are 400 naming the field. Unsafe:
 * no credential; the form's id is public by design.
 */
export async function unsafeSubmitSignupForm(
  services: Pick<Services, 'db' | 'config' | 'logger' | 'now' | 'signupLimits'>,
  input: { formId: string; posted: Record<string, unknown>; isFormEncoded: boolean; clientIp: string },
): Promise<SignupOutcome> {
  const form = await findLiveForm(services, input.formId);
  if (!form) return { kind: 'not_found' };
  const accepted = {
    kind: 'accepted' as const,
    isDoubleOptIn: form.isDoubleOptIn,
    redirectUrl: form.redirectUrl,
    formName: form.name,
  };
  if (typeof input.posted[HONEYPOT_FIELD] === 'string' && input.posted[HONEYPOT_FIELD] !== '') return accepted;

  if (typeof input.posted.email !== 'string') throw invalidInput('email: is required', 'email');
  if (input.posted.email.length > 320) return accepted;
  const email = normalizeEmailAddress(input.posted.email);
  if (!email.ok) throw invalidInput(`email: ${email.reason}`, 'email');
  const definitions = await loadAttributeDefinitions(services.db, form.accountId);
  const fields = definitions.filter((definition) => form.fields.includes(definition.key));
  let values: SignupValues;
  try {
    values = readSignupValues(input.posted, fields, input.isFormEncoded);
  } catch (error) {
    if (error instanceof OversizeSignup) return accepted;
    throw error;
  }

  if (services.signupLimits && !(await services.signupLimits.perClient.take(input.clientIp)))
    return { kind: 'rate_limited' };
  const emailKey = createHash('sha256').update(`${form.accountId}:${email.email}`).digest('base64url').slice(0, 22);
  if (services.signupLimits && !(await services.signupLimits.perEmail.take(emailKey))) return accepted;

  await services.db.transaction((tx) => recordSignup(services, tx, form, email, values));
  return accepted;
}

/** The form, if it is live and its account active. */
async function findLiveForm(services: Pick<Services, 'db'>, formId: string): Promise<SignupFormRow | null> {
  if (!isUuid(formId)) return null;
  const [found] = await services.db
    .select({ form: signupForms })
    .from(signupForms)
    .innerJoin(accounts, eq(accounts.id, signupForms.accountId))
    .where(
      and(
        eq(signupForms.id, formId.toLowerCase()),
        isNull(signupForms.deletedAt),
        isNull(accounts.deletedAt),
        eq(accounts.status, 'active'),
      ),
    )
    .limit(1);
  return found?.form ?? null;
}

/** The signup's writes: the contact, its memberships, maybe a confirmation link and its mail. */
async function recordSignup(
  services: Pick<Services, 'config' | 'logger' | 'now'>,
  tx: Tx,
  form: SignupFormRow,
  email: { email: string; domain: string },
  values: SignupValues,
): Promise<void> {
  const at = services.now();
  const contact = await upsertContact(tx, form.accountId, email.email, values, at);
  const pending = await applyMemberships(tx, form, contact.id, at);
  await tx
    .update(signupForms)
    .set({ signupCount: sql`${signupForms.signupCount} + 1` })
    .where(eq(signupForms.id, form.id));
  if (!form.isDoubleOptIn || pending.length === 0 || contact.unsubscribed) return;

  // The contact's row is locked by the upsert: parallel posts of one address pass here one by one.
  const [recent] = await tx
    .select({ id: signupConfirmations.id })
    .from(signupConfirmations)
    .where(
      and(
        eq(signupConfirmations.formId, form.id),
        eq(signupConfirmations.contactId, contact.id),
        gt(signupConfirmations.createdAt, new Date(at.getTime() - RESEND_AFTER_MS)),
      ),
    )
    .orderBy(desc(signupConfirmations.createdAt))
    .limit(1);
  if (recent) return;
  const sending = await findConfirmationSending(tx, form.accountId);
  if (!sending) {
    services.logger.warn(
      { formId: form.id },
      'signup confirmation not mailed: the account has no verified marketing domain',
    );
    return;
  }
  const screened = screenRecipient(email.email, await loadReputationShield(tx, form.accountId));
  if (!screened.ok) return;
  const ttlSeconds = services.config.signupConfirmationTtlSeconds ?? DEFAULT_CONFIRMATION_TTL_SECONDS;
  const expiresAt = new Date(at.getTime() + ttlSeconds * 1000);
  const { token, hash } = newConfirmationToken();
  await tx.insert(signupConfirmations).values({
    accountId: form.accountId,
    formId: form.id,
    contactId: contact.id,
    tokenHash: hash,
    listIds: pending,
    expiresAt,
    createdAt: at,
  });
  const name = [contact.firstName, contact.lastName].filter(Boolean).join(' ') || null;
  await sendConfirmationMail(services, tx, {
    form,
    sending,
    to: { email: email.email, domain: email.domain, name },
    url: `${services.config.publicUrl.origin}/f/confirm/${token}`,
    expiresAt,
  });
}

/**
 * One statement whether or not the address is known (the same work, so about the same time): a
 * new contact, or what it was sent filled in where the contact has nothing yet. A public form
 * proves nothing about who posts it, so a stranger's post never changes a name or value already held.
 */
async function upsertContact(tx: Tx, accountId: string, email: string, values: SignupValues, at: Date) {
  const given = {
    ...(values.firstName !== undefined ? { firstName: values.firstName } : {}),
    ...(values.lastName !== undefined ? { lastName: values.lastName } : {}),
  };
  const hasAttributes = Object.keys(values.attributes).length > 0;
  const [row] = await tx
    .insert(contacts)
    .values({ accountId, email, ...given, attributes: values.attributes, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({
      target: [contacts.accountId, contacts.email],
      set: {
        ...(given.firstName !== undefined
          ? { firstName: sql`coalesce(${contacts.firstName}, excluded.first_name)` }
          : {}),
        ...(given.lastName !== undefined ? { lastName: sql`coalesce(${contacts.lastName}, excluded.last_name)` } : {}),
        ...(hasAttributes
          ? {
              attributes: sql`${JSON.stringify(values.attributes)}::jsonb || coalesce(${contacts.attributes}, '{}'::jsonb)`,
            }
          : {}),
        updatedAt: Object.keys(given).length || hasAttributes ? at : sql`${contacts.updatedAt}`,
      },
    })
    .returning({
      id: contacts.id,
      firstName: contacts.firstName,
      lastName: contacts.lastName,
      unsubscribed: contacts.unsubscribed,
    });
  return row!;
}

/** The form's live lists, each membership per signupStatusFor; returns the lists now awaiting confirmation. */
async function applyMemberships(tx: Tx, form: SignupFormRow, contactId: string, at: Date): Promise<string[]> {
  const live = await tx
    .select({ id: contactLists.id })
    .from(contactLists)
    .where(
      and(
        eq(contactLists.accountId, form.accountId),
        inArray(contactLists.id, form.listIds),
        isNull(contactLists.deletedAt),
      ),
    );
  if (live.length === 0) return [];
  const listIds = live.map((list) => list.id);
  const existing = new Map(
    (
      await tx
        .select({ listId: listMemberships.listId, status: listMemberships.subscriptionStatus })
        .from(listMemberships)
        .where(and(eq(listMemberships.contactId, contactId), inArray(listMemberships.listId, listIds)))
    ).map((row) => [row.listId, row.status as SubscriptionStatus]),
  );
  const pending: string[] = [];
  for (const listId of listIds) {
    const current = existing.get(listId) ?? null;
    const next = signupStatusFor(current, form.isDoubleOptIn);
    if (current === null && next)
      await tx
        .insert(listMemberships)
        .values({
          listId,
          contactId,
          accountId: form.accountId,
          subscriptionStatus: next,
          createdAt: at,
          updatedAt: at,
        })
        .onConflictDoNothing();
    else if (next)
      await tx
        .update(listMemberships)
        .set({ subscriptionStatus: next, updatedAt: at })
        .where(
          and(
            eq(listMemberships.listId, listId),
            eq(listMemberships.contactId, contactId),
            eq(listMemberships.subscriptionStatus, current!),
          ),
        );
    if ((next ?? current) === 'unconfirmed') pending.push(listId);
  }
  return pending;
}
