import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CampaignTally, countCampaignEvent } from '@/lib/core/campaigns/campaign-counters';
import type { CampaignRow } from '@/lib/core/campaigns/internal/present';
import { countCampaigns } from '@/lib/core/campaigns/internal/queries';
import { newId } from '@/lib/shared/ids';
import { memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

let services: TestServices;
let accountId: string;

beforeAll(async () => {
  services = await memoryServices();
  ({ accountId } = await newAccount(services));
}, 60_000);

afterAll(() => services?.close());

const started = (id: string, recipientCount: number | null, queuedCount = recipientCount ?? 0) =>
  ({ id, accountId, recipientCount, queuedCount }) as CampaignRow;

describe('countCampaigns', () => {
  it("reads each campaign's counters summed over its writers' rows; waiting is what is queued with no outcome yet", async () => {
    const [first, second, draft] = [newId(), newId(), newId()];
    const delivery = new CampaignTally();
    const message = { campaignId: first, accountId };
    delivery.addTransition(message, 'queued', 'delivered', new Date());
    delivery.addTransition(message, 'queued', 'delivered', new Date());
    delivery.addTransition(message, 'queued', 'deferred', new Date());
    delivery.addTransition(message, 'queued', 'deferred', new Date());
    await delivery.flush(services.db, 17);
    // The retry lands in another writer's row: the deferral it ends is taken off there.
    const retry = new CampaignTally();
    retry.addTransition(message, 'deferred', 'bounced', new Date());
    await retry.flush(services.db, 33);
    await countCampaignEvent(services.db, message, { opened: 1, clicked: 1, complained: 1, unsubscribed: 2 });

    const counts = await countCampaigns(services.db, [started(first, 6, 5), started(second, 1), started(draft, null)]);
    expect(counts.get(first)).toEqual({
      recipients: 6,
      queued: 5,
      waiting: 1,
      delivered: 2,
      deferred: 1,
      bounced: 1,
      failed: 0,
      suppressed: 0,
      opened: 1,
      clicked: 1,
      complained: 1,
      unsubscribed: 2,
      cancelled: 0,
    });
    expect(counts.get(second)).toEqual({
      recipients: 1,
      queued: 1,
      waiting: 1,
      delivered: 0,
      deferred: 0,
      bounced: 0,
      failed: 0,
      suppressed: 0,
      opened: 0,
      clicked: 0,
      complained: 0,
      unsubscribed: 0,
      cancelled: 0,
    });
    expect(counts.has(draft)).toBe(false);
  });
});
