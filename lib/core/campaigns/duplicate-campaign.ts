import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { campaigns } from '@/lib/db/schema';
import { presentCampaign } from './internal/present';
import { getCampaignInAccount } from './internal/queries';
import { campaignPathSchema } from './schemas';

const NAME_LIMIT = 255;

/**
 * A new draft named "Copy of ..." with the campaign's design (content, sender, lists, tracking), from
 * any state. Every column but the progress ones is copied, so a design column added later comes along.
 */
export const duplicateCampaign = defineVerb({
  scope: 'campaigns:write',
  input: campaignPathSchema,
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const source = await getCampaignInAccount(db, principal.targetAccountId, input.campaign_id);
    const {
      id: _id,
      name,
      status: _status,
      sendAt: _sendAt,
      validationErrors: _validationErrors,
      recipientCount: _recipientCount,
      queuedCount: _queuedCount,
      queuedThrough: _queuedThrough,
      queuedAt: _queuedAt,
      startedAt: _startedAt,
      completedAt: _completedAt,
      abPhase: _abPhase,
      winnerVariantId: _winnerVariantId,
      testQueuedAt: _testQueuedAt,
      abWaitUntil: _abWaitUntil,
      createdAt: _createdAt,
      updatedAt: _updatedAt,
      templateVersion,
      ...design
    } = source;
    const at = now();
    // Sending froze the template's version then published; a copy sends what is published when it goes,
    // unless it copies a draft (whose version, if any, is the author's pin).
    const version = source.status === 'draft' ? templateVersion : null;
    const row = await db.transaction(async (tx) => {
      const [changed] = await tx
        .insert(campaigns)
        .values({
          ...design,
          templateVersion: version,
          // Variants' versions were pinned by sending, never by their author: a copy sends what is published.
          variants: design.variants?.map(({ templateVersion: _pinned, ...variant }) => variant) ?? null,
          name: `Copy of ${name}`.slice(0, NAME_LIMIT),
          createdAt: at,
          updatedAt: at,
        })
        .returning();
      await recordAuditEvent(tx, ctx, {
        action: 'campaign.duplicate',
        resource: { type: 'campaign', id: changed!.id },
      });
      return changed;
    });
    return presentCampaign(row!);
  },
});
