import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignRow } from '@/lib/core/campaigns/present';
import { countCampaigns } from '@/lib/core/campaigns/queries';
import { acceptMessages, type Acceptance } from '@/lib/core/messages/accept-messages';
import { campaignRecipients, messages } from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';
import { memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

let services: TestServices;
let accountId: string;

beforeAll(async () => {
  services = await memoryServices();
  ({ accountId } = await newAccount(services));
}, 60_000);

afterAll(() => services?.close());

async function queueCampaign(campaignId: string, emails: string[]) {
  const now = new Date();
  const acceptance: Acceptance = {
    accountId,
    sender: { email: 'news@acme.example', domainId: newId(), domain: 'acme.example' },
    subject: 'Hello',
    content: { kind: 'structured', structured: { from: { email: 'news@acme.example', name: null }, subject: 'Hello', text: 'Hi', html: null, amp: null, replyTo: null, headers: [], attachments: [] }, globalSubstitutions: null, isTemplated: false },
    options: { isSandbox: false, sandboxResult: null, tags: ['campaign'], trackOpens: false, trackClicks: false, firstAttemptAt: now, expiresAt: new Date(now.getTime() + 86_400_000), isScheduled: false, metadataRetentionDays: 30, dataRetentionDays: 3, campaignId },
    recipients: emails.map((email) => ({ email, domain: email.split('@')[1], name: null, substitutions: null, contactId: newId() })),
    now,
  };
  await acceptMessages(services.db, acceptance);
  await services.db.insert(campaignRecipients).values(acceptance.recipients.map((recipient) => ({ campaignId, contactId: recipient.contactId!, accountId, email: recipient.email })));
  return services.db.select().from(messages).where(eq(messages.campaignId, campaignId)).orderBy(messages.recipient);
}

const started = (id: string, recipientCount: number | null) => ({ id, accountId, recipientCount }) as CampaignRow;

describe('countCampaigns', () => {
  it('counts each campaign of a page from its own messages: outcomes, opens, clicks, complaints (complained_at) and unsubscribes', async () => {
    const [first, second, draft] = [newId(), newId(), newId()];
    const rows = await queueCampaign(first, ['a@x.example', 'b@x.example', 'c@x.example', 'd@x.example']);
    await queueCampaign(second, ['e@x.example']);
    await services.db.update(messages).set({ status: 'delivered', openCount: 2, clickCount: 1, complainedAt: new Date() }).where(eq(messages.id, rows[0].id));
    await services.db.update(messages).set({ status: 'delivered', openCount: 1 }).where(eq(messages.id, rows[1].id));
    await services.db.update(messages).set({ status: 'bounced' }).where(eq(messages.id, rows[2].id));
    await services.db.update(campaignRecipients).set({ unsubscribedAt: new Date() }).where(inArray(campaignRecipients.email, ['a@x.example', 'b@x.example']));

    const counts = await countCampaigns(services.db, [started(first, 4), started(second, 1), started(draft, null)]);
    expect(counts.get(first)).toEqual({ recipients: 4, queued: 4, delivered: 2, opened: 2, clicked: 1, bounced: 1, complained: 1, unsubscribed: 2 });
    expect(counts.get(second)).toEqual({ recipients: 1, queued: 1, delivered: 0, opened: 0, clicked: 0, bounced: 0, complained: 0, unsubscribed: 0 });
    expect(counts.has(draft)).toBe(false);
  });
});
