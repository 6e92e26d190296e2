import { sql, type SQL } from 'drizzle-orm';

type Latest = { accountId: string; received: Date | null; opened: Date | null; clicked: Date | null };
export type EngagementKind = 'received' | 'opened' | 'clicked';

const later = (a: Date | null, b: Date) => (a && a > b ? a : b);

/**
 * Each contact's latest campaign mail received, opened and clicked (contact_engagement), gathered
 * for one batch of events and written as one upsert, so that segments' engagement conditions read
 * one row per contact instead of the campaign's messages.
 */
export class EngagementTally {
  private readonly byContact = new Map<string, Latest>();

  add(message: { accountId: string; contactId?: string | null }, kind: EngagementKind, at: Date): void {
    if (!message.contactId) return;
    const latest = this.byContact.get(message.contactId) ?? {
      accountId: message.accountId,
      received: null,
      opened: null,
      clicked: null,
    };
    latest[kind] = later(latest[kind], at);
    this.byContact.set(message.contactId, latest);
  }

  get isEmpty(): boolean {
    return this.byContact.size === 0;
  }

  /** Rows in contact id order, the order every writer locks them in. Times only move forward. */
  statement(): SQL | null {
    if (this.isEmpty) return null;
    const ids = [...this.byContact.keys()].sort();
    const rows = ids.map((id) => this.byContact.get(id)!);
    const times = (kind: EngagementKind) =>
      sql`${sql.param(rows.map((row) => row[kind]?.toISOString() ?? null))}::timestamptz[]`;
    return sql`insert into contact_engagement (contact_id, account_id, last_received_at, last_opened_at, last_clicked_at)
      select t.contact_id, t.account_id, t.received, t.opened, t.clicked
      from unnest(${sql.param(ids)}::uuid[], ${sql.param(rows.map((row) => row.accountId))}::uuid[], ${times('received')}, ${times('opened')}, ${times('clicked')})
        as t(contact_id, account_id, received, opened, clicked)
      where exists (select 1 from contacts where contacts.id = t.contact_id)
      on conflict (contact_id) do update set
        last_received_at = greatest(contact_engagement.last_received_at, excluded.last_received_at),
        last_opened_at = greatest(contact_engagement.last_opened_at, excluded.last_opened_at),
        last_clicked_at = greatest(contact_engagement.last_clicked_at, excluded.last_clicked_at)`;
  }
}
