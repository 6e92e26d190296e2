import { and, inArray, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { DeliveryTarget } from '@/lib/core/webhooks/delivery-target';
import type { Db } from '@/lib/db/client';
import { routes, webhooks } from '@/lib/db/schema';

/** `failing`: the endpoints among those asked that are failing; `taken`: those whose one probe this call now holds. */
export type EndpointProbes = { failing: Set<string>; taken: Set<string> };

/**
 * A failing endpoint gets one delivery at a time (the probe) until one succeeds. Taking the probe
 * pushes its next_attempt_at past the probe's lease in one conditional update, so that no other
 * claim, in this process or another, takes its deliveries meanwhile; the attempt's record then sets
 * the real backoff (record-attempt.ts). A killed prober's endpoint is free again after the lease.
 * Unsafe: any account's webhooks and routes, by id; only the dispatcher calls it.
 */
export async function unsafeTakeEndpointProbes(
  db: Db,
  targets: DeliveryTarget[],
  options: { now: Date; leaseMs: number },
): Promise<EndpointProbes> {
  const probes: EndpointProbes = { failing: new Set(), taken: new Set() };
  const until = new Date(options.now.getTime() + options.leaseMs);
  for (const kind of ['webhook', 'route'] as const) {
    // Same column names in both tables; the cast only picks one static type for the query builder.
    const table = (kind === 'route' ? routes : webhooks) as typeof webhooks;
    const ids = [...new Set(targets.filter((target) => target.kind === kind).map((target) => target.id))];
    if (ids.length === 0) continue;
    const failing = await db
      .select({ id: table.id })
      .from(table)
      .where(and(inArray(table.id, ids), isNotNull(table.failingSince)));
    if (failing.length === 0) continue;
    for (const row of failing) probes.failing.add(row.id);
    const taken = await db
      .update(table)
      .set({ nextAttemptAt: until })
      .where(
        and(
          inArray(
            table.id,
            failing.map((row) => row.id),
          ),
          isNotNull(table.failingSince),
          or(isNull(table.nextAttemptAt), lte(table.nextAttemptAt, options.now)),
        ),
      )
      .returning({ id: table.id });
    for (const row of taken) probes.taken.add(row.id);
  }
  return probes;
}
