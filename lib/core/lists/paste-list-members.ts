import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq, inArray, or } from 'drizzle-orm';
import { normalizeEmailAddress } from '@/lib/core/shared/email-address';
import { findSuppressed } from '@/lib/core/suppressions/find-suppressed';
import { defineVerb } from '@/lib/core/verb';
import { contacts, listMemberships } from '@/lib/db/schema';
import { isUuid } from '@/lib/shared/ids';
import { getListInAccount } from './internal/queries';
import { listPathSchema, pasteListMembersSchema, type PASTE_REFUSALS } from './schemas';

type Refusal = { line: string; reason: (typeof PASTE_REFUSALS)[number] };
type Reference = { line: string; id?: string; email?: string };

/** Each pasted line once: trimmed, `<...>` unwrapped, blank lines dropped. */
function referencesOf(lines: string[]): { references: Reference[]; refused: Refusal[] } {
  const references: Reference[] = [];
  const refused: Refusal[] = [];
  const seen = new Set<string>();
  for (const raw of lines) {
    const line = raw
      .trim()
      .replace(/^<(.*)>$/, '$1')
      .trim();
    if (!line || seen.has(line.toLowerCase())) continue;
    seen.add(line.toLowerCase());
    if (isUuid(line)) references.push({ line, id: line.toLowerCase() });
    else {
      const email = normalizeEmailAddress(line);
      if (email.ok) references.push({ line, email: email.email });
      else refused.push({ line, reason: 'not an email address' });
    }
  }
  return { references, refused };
}

/**
 * Mailstead extension for pasting addresses into a list: every valid line is added, and every other
 * line comes back with its reason, instead of one unknown address refusing the lot (as `POST
 * .../members` must). Suppressed addresses are not added; with `create_missing` (which needs
 * contacts:write too) addresses the account lacks become contacts first.
 */
export const pasteListMembers = defineVerb({
  scope: 'lists:write',
  input: pasteListMembersSchema.extend(listPathSchema.shape),
  alsoNeeds: (input) => (input.create_missing ? ['contacts:write'] : []),
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const accountId = principal.targetAccountId;
    const list = await getListInAccount(db, accountId, input.list_id);
    const { references, refused } = referencesOf(input.lines);
    const at = now();
    return db.transaction(async (tx) => {
      const ids = references.flatMap((reference) => (reference.id ? [reference.id] : []));
      const emails = references.flatMap((reference) => (reference.email ? [reference.email] : []));
      const found = references.length
        ? await tx
            .select({ id: contacts.id, email: contacts.email })
            .from(contacts)
            .where(
              and(
                eq(contacts.accountId, accountId),
                or(
                  ids.length ? inArray(contacts.id, ids) : undefined,
                  emails.length ? inArray(contacts.email, emails) : undefined,
                ),
              ),
            )
        : [];
      const byId = new Map(found.map((row) => [row.id, row]));
      const byEmail = new Map(found.map((row) => [row.email, row]));
      const suppressed = await findSuppressed(tx, accountId, '', [...emails, ...found.map((row) => row.email)], at);

      const wanted = new Map<string, Reference>();
      const missing: Reference[] = [];
      for (const reference of references) {
        const contact = reference.id ? byId.get(reference.id) : byEmail.get(reference.email!);
        const email = contact?.email ?? reference.email;
        if (email && suppressed.has(email)) refused.push({ line: reference.line, reason: 'suppressed' });
        else if (contact) wanted.set(contact.id, reference);
        else if (input.create_missing && reference.email) missing.push(reference);
        else refused.push({ line: reference.line, reason: 'no such contact' });
      }

      let createdContacts = 0;
      if (missing.length) {
        // A contact made in parallel by someone else is found by the second select.
        const made = await tx
          .insert(contacts)
          .values(missing.map((reference) => ({ accountId, email: reference.email!, createdAt: at, updatedAt: at })))
          .onConflictDoNothing({ target: [contacts.accountId, contacts.email] })
          .returning({ id: contacts.id });
        createdContacts = made.length;
        const rows = await tx
          .select({ id: contacts.id, email: contacts.email })
          .from(contacts)
          .where(
            and(
              eq(contacts.accountId, accountId),
              inArray(
                contacts.email,
                missing.map((reference) => reference.email!),
              ),
            ),
          );
        const madeByEmail = new Map(rows.map((row) => [row.email, row.id]));
        for (const reference of missing) wanted.set(madeByEmail.get(reference.email!)!, reference);
      }

      let added = 0;
      if (wanted.size) {
        // Sorted ids: parallel requests over the same contacts lock rows in one order and cannot deadlock.
        const contactIds = [...wanted.keys()].sort();
        const inserted = await tx
          .insert(listMemberships)
          .values(
            contactIds.map((contactId) => ({
              listId: list.id,
              contactId,
              accountId,
              subscriptionStatus: input.subscription_status ?? 'confirmed',
              createdAt: at,
              updatedAt: at,
            })),
          )
          .onConflictDoNothing()
          .returning({ contactId: listMemberships.contactId });
        added = inserted.length;
        const isNew = new Set(inserted.map((row) => row.contactId));
        for (const contactId of contactIds)
          if (!isNew.has(contactId)) refused.push({ line: wanted.get(contactId)!.line, reason: 'already a member' });
      }
      const order = new Map(
        input.lines
          .map(
            (line, index) =>
              [
                line
                  .trim()
                  .replace(/^<(.*)>$/, '$1')
                  .trim(),
                index,
              ] as const,
          )
          .reverse(),
      );
      refused.sort((a, b) => (order.get(a.line) ?? 0) - (order.get(b.line) ?? 0));
      await recordAuditEvent(tx, ctx, { action: 'list_member.add', resource: { type: 'list', id: list.id } });
      return { object: 'list_member_paste' as const, added, created_contacts: createdContacts, refused };
    });
  },
});
