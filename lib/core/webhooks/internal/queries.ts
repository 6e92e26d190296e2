import { and, eq, inArray } from 'drizzle-orm';
import { authorizedDomains } from '@/lib/auth/authorize';
import type { Principal } from '@/lib/auth/principal';
import type { ScopeRequirement } from '@/lib/auth/scopes';
import type { DbOrTx } from '@/lib/db/client';
import { webhookDeliveries, webhookDomains, webhooks } from '@/lib/db/schema';
import { isUuid } from '@/lib/shared/ids';
import { notFound } from '@/lib/shared/errors';
import type { DeliveryTarget } from '../delivery-target';
import type { DeliveryRow, WebhookRow } from './present';

export type WebhookWithDomains = { row: WebhookRow; domains: string[] };

/** A webhook of the account with its domains, or 404. */
export async function getWebhookInAccount(
  db: DbOrTx,
  accountId: string,
  webhookId: string,
): Promise<WebhookWithDomains> {
  if (!isUuid(webhookId)) throw notFound('webhook not found');
  const [row] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.accountId, accountId), eq(webhooks.id, webhookId)))
    .limit(1);
  if (!row) throw notFound('webhook not found');
  return { row, domains: (await loadWebhookDomains(db, [row.id])).get(row.id) ?? [] };
}

/** Domains of webhooks already fetched within an account, by webhook id. */
export async function loadWebhookDomains(db: DbOrTx, webhookIds: string[]): Promise<Map<string, string[]>> {
  const byWebhook = new Map<string, string[]>();
  if (webhookIds.length === 0) return byWebhook;
  const rows = await db.select().from(webhookDomains).where(inArray(webhookDomains.webhookId, webhookIds));
  for (const row of rows) byWebhook.set(row.webhookId, [...(byWebhook.get(row.webhookId) ?? []), row.domain]);
  return byWebhook;
}

/** The where clause of one webhook's or route's deliveries, always within the account. */
export const deliveriesOf = (accountId: string, target: DeliveryTarget) =>
  and(
    eq(webhookDeliveries.accountId, accountId),
    target.kind === 'route' ? eq(webhookDeliveries.routeId, target.id) : eq(webhookDeliveries.webhookId, target.id),
  );

/** A delivery of a webhook or route of the account, or 404. */
export async function getDeliveryInAccount(
  db: DbOrTx,
  accountId: string,
  target: DeliveryTarget,
  deliveryId: string,
): Promise<DeliveryRow> {
  if (!isUuid(deliveryId)) throw notFound('delivery not found');
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(deliveriesOf(accountId, target), eq(webhookDeliveries.id, deliveryId)))
    .limit(1);
  if (!row) throw notFound('delivery not found');
  return row;
}

/**
 * The domains a verb's scope check is asked about for an existing webhook (contract: read, update
 * and delete need at least one of its domains authorised; a global webhook needs `:all`). The
 * authorised ones when there are any, so that the check passes; otherwise all of them, so that it
 * fails naming them; none for a global webhook, which only `:all` covers. SMTP credentials follow
 * the same rule and use this too.
 */
export function domainsToAuthorize(
  principal: Principal,
  requirement: ScopeRequirement,
  webhook: { row: { scope: string }; domains: string[] },
): string[] {
  if (webhook.row.scope === 'global') return [];
  const granted = authorizedDomains(principal, requirement, webhook.domains);
  if (granted === 'all') return webhook.domains;
  return granted.length > 0 ? granted : webhook.domains;
}
