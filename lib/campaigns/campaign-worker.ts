import type { Services } from '@/lib/core/context';
import { onCampaignWork } from '@/lib/core/campaigns/campaign-signal';
import { unsafeQueueCampaignBatch, unsafeStartDueCampaign, unsafeValidateNextCampaign, type StepResult } from '@/lib/core/campaigns/run-campaign-steps';

/** Tuning of the campaign loop; tests shrink it. */
export type CampaignWorkerSettings = { pollMs: number; batchSize: number };

export const DEFAULT_CAMPAIGN_SETTINGS: CampaignWorkerSettings = {
  pollMs: 1000,
  // Recipients queued per transaction: large enough that acceptance runs at bulk speed, small
  // enough that a batch commits in well under a second and the delivery worker starts meanwhile.
  batchSize: 5000,
};

/**
 * The worker role's campaign loop: validate what was sent, start what is due, queue what is
 * sending, in that order, until there is nothing left; then sleep until a signal or the poll.
 * Every step is one transaction on a row claimed with SKIP LOCKED, so processes share campaigns.
 */
export async function startCampaignWorker(services: Services, options: { settings?: Partial<CampaignWorkerSettings> } = {}): Promise<{ stop: () => Promise<void> }> {
  const settings = { ...DEFAULT_CAMPAIGN_SETTINGS, ...options.settings };
  const { logger } = services;
  let isStopping = false;
  let wake: (() => void) | null = null;
  let isSignalled = false;
  const stopListening = onCampaignWork(() => {
    isSignalled = true;
    wake?.();
  });
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, ms);
    });

  const steps: (() => Promise<StepResult>)[] = [
    () => unsafeValidateNextCampaign(services),
    () => unsafeStartDueCampaign(services),
    () => unsafeQueueCampaignBatch(services, settings),
  ];

  const loop = (async () => {
    while (!isStopping) {
      isSignalled = false;
      let didWork = false;
      for (const step of steps) {
        if (isStopping) break;
        try {
          if ((await step()) === 'worked') didWork = true;
        } catch (error) {
          logger.error({ err: error }, 'a campaign step failed; it is tried again at the next poll');
        }
      }
      if (!didWork && !isSignalled && !isStopping) {
        await sleep(settings.pollMs);
        wake = null;
      }
    }
  })();

  return {
    async stop() {
      isStopping = true;
      wake?.();
      stopListening();
      await loop;
    },
  };
}
