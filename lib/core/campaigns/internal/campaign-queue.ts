import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { CampaignTally } from '../campaign-counters';

/**
 * A paused campaign's queued messages are held by moving their next attempt HOLD_YEARS ahead: the
 * claim query never sees them and needs no change, and resume moves them back, so a deferred
 * message keeps its place in its retry schedule. Anything due after HELD_AFTER_YEARS is held.
 * Their expiry and retention move with them, and come back later by as long as the pause lasted
 * (the hold's time is the row's updated_at): a campaign paused over a weekend neither expires its
 * mail (24 h) nor has it purged, and each message keeps the time to leave it had when held.
 */
const HOLD_YEARS = 1000;
const HELD_AFTER_YEARS = 500;
const HOLD = sql.raw(`interval '${HOLD_YEARS} years'`);

const QUEUED = sql`status in ('queued', 'deferred', 'scheduled')`;

/** Which of a campaign's queued messages: the free ones (any lease run out), or those a worker just claimed. */
export type Selection = { kind: 'free'; at: Date } | { kind: 'claimed'; ids: string[]; workerId: string };

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

function selected(selection: Selection): SQL {
  return selection.kind === 'free'
    ? sql`(lease_until is null or lease_until < ${selection.at.toISOString()}::timestamptz)`
    : sql`id = any(${sql.param(selection.ids)}::uuid[]) and locked_by = ${selection.workerId}`;
}

const heldAfter = (at: Date) =>
  sql`(${at.toISOString()}::timestamptz + interval '${sql.raw(String(HELD_AFTER_YEARS))} years')`;

type Campaign = { id: string; accountId: string };

/** Holds the selected queued messages of a paused campaign (releasing a worker's claim); how many. */
export async function holdCampaignMessages(db: DbOrTx, campaign: Campaign, selection: Selection, at: Date) {
  const result = await db.execute(sql`
    with held as (
      update messages set next_attempt_at = next_attempt_at + ${HOLD},
        expires_at = expires_at + ${HOLD}, retain_until = retain_until + ${HOLD},
        lease_until = null, locked_by = null, updated_at = ${at.toISOString()}::timestamptz
      where account_id = ${campaign.accountId} and campaign_id = ${campaign.id} and ${QUEUED}
        and next_attempt_at < ${heldAfter(at)} and ${selected(selection)}
      returning 1
    ) select count(*)::int as n from held`);
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

/** Lets a resumed campaign's held messages go, each due when it was before the pause. */
export async function releaseCampaignMessages(db: DbOrTx, campaign: Campaign, at: Date) {
  const pausedFor = sql`greatest(interval '0', ${at.toISOString()}::timestamptz - updated_at)`;
  await db.execute(sql`
    update messages set next_attempt_at = next_attempt_at - ${HOLD},
      expires_at = expires_at - ${HOLD} + ${pausedFor},
      retain_until = retain_until - ${HOLD} + ${pausedFor},
      updated_at = ${at.toISOString()}::timestamptz
    where account_id = ${campaign.accountId} and campaign_id = ${campaign.id} and ${QUEUED}
      and next_attempt_at > ${heldAfter(at)}`);
}

/**
 * Cancels the selected messages of a campaign that are not yet delivered (the status a cancelled
 * scheduled message has), counting them as `cancelled` (and no longer `deferred`), plus
 * `neverQueued` recipients; how many messages.
 */
export async function cancelCampaignMessages(
  db: DbOrTx,
  campaign: Campaign,
  selection: Selection,
  at: Date,
  neverQueued = 0,
): Promise<number> {
  const result = await db.execute(sql`
    with target as (
      select id, status, mailbox_provider from messages
      where account_id = ${campaign.accountId} and campaign_id = ${campaign.id} and ${QUEUED} and ${selected(selection)}
      for update
    ), done as (
      update messages m set status = 'cancelled', next_attempt_at = null, lease_until = null, locked_by = null,
        updated_at = ${at.toISOString()}::timestamptz
      from target t where m.id = t.id
      returning t.status as was, t.mailbox_provider as provider, m.campaign_variant_id as variant
    ) select was = 'deferred' as was_deferred, provider, variant, count(*)::int as n from done group by 1, 2, 3`);
  const ref = { campaignId: campaign.id, accountId: campaign.accountId };
  const tally = new CampaignTally();
  let n = 0;
  for (const group of rowsOf<{ was_deferred: boolean; provider: string | null; variant: string | null; n: number }>(
    result,
  )) {
    const message = { ...ref, mailboxProvider: group.provider, campaignVariantId: group.variant };
    tally.addCancelled(message, Number(group.n), group.was_deferred);
    n += Number(group.n);
  }
  tally.addCancelled(ref, neverQueued, false);
  await tally.flush(db);
  return Number(n);
}
