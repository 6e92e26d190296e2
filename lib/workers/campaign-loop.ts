import {
  unsafeCompleteDrainedCampaigns,
  unsafeQueueCampaignBatch,
  unsafeStartDueCampaign,
  unsafeValidateNextCampaign,
  type StepResult,
} from '@/lib/core/campaigns/run-campaign-steps';
import { unsafeChooseDueWinner, unsafeQueueAbTestBatch } from '@/lib/core/campaigns/run-ab-test-steps';
import { anyLoop, type LoopRow, type WorkerContext, type WorkerSettings } from './worker-context';

/** Tuning of the campaign loop; tests shrink it. */
export type CampaignLoopSettings = Required<NonNullable<WorkerSettings['campaigns']>>;

export const DEFAULT_CAMPAIGN_SETTINGS: CampaignLoopSettings = {
  pollMs: 1000,
  // Recipients queued per transaction: large enough that acceptance runs at bulk speed, small
  // enough that a batch commits in well under a second and the delivery loop starts meanwhile.
  batchSize: 5000,
  // Contacts frozen into the audience per transaction: the rows are smaller than messages, so about
  // as long a transaction as a batch (start-server.ts makes it five batches).
  snapshotChunk: 25_000,
};

/**
 * The campaign loop: validate what was sent, start what is due, queue what is sending, mark sent
 * what has drained, in that order, until no step finds work; then sleep until a signal or the poll.
 * Every step claims its row with SKIP LOCKED and runs and settles it in one transaction (so the
 * claim is the whole work, and processes share campaigns); a step that fails is tried at the next pass.
 */
export const campaignLoop = {
  name: 'campaigns',
  define: ({ services }: WorkerContext, { campaigns }: Pick<WorkerSettings, 'campaigns'>) => {
    const { logger } = services;
    const settings = { ...DEFAULT_CAMPAIGN_SETTINGS, ...campaigns };
    const steps: (() => Promise<StepResult>)[] = [
      () => unsafeValidateNextCampaign(services),
      () => unsafeStartDueCampaign(services, settings),
      // A/B campaigns: their test part, then the winner once the wait is over (the rest: the next step).
      () => unsafeQueueAbTestBatch(services, settings),
      () => unsafeChooseDueWinner(services),
      () => unsafeQueueCampaignBatch(services, settings),
      () => unsafeCompleteDrainedCampaigns(services),
    ];
    return anyLoop<StepResult>({
      name: 'campaigns',
      capacity: 1,
      pollMs: settings.pollMs,
      wakeOn: 'campaigns',
      // The steps that worked: none puts the loop to sleep.
      async claim(_free, loop) {
        const worked: StepResult[] = [];
        for (const step of steps) {
          if (loop.isStopping()) break;
          try {
            if ((await step()) === 'worked') worked.push('worked');
          } catch (error) {
            logger.error({ err: error }, 'a campaign step failed; it is tried again at the next poll');
          }
        }
        return worked;
      },
    });
  },
} satisfies LoopRow;
