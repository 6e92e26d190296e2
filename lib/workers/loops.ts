import { campaignLoop } from './campaign-loop';
import { contactExportLoop } from './contact-export-loop';
import { contactImportLoop } from './contact-import-loop';
import { deliveryLoop } from './delivery-loop';
import { periodicJobLoop } from './periodic-job-loop';
import { segmentRecountLoop } from './segment-recount-loop';
import { webhookLoop } from './webhook-loop';
import type { LoopRow } from './worker-context';

/**
 * The worker role's loops, one row each, as v2Endpoints is the API's endpoints: started in this
 * order and stopped in the reverse (campaigns stop queueing before delivery stops sending).
 */
export const workerLoops: LoopRow[] = [
  periodicJobLoop,
  deliveryLoop,
  webhookLoop,
  contactImportLoop,
  contactExportLoop,
  segmentRecountLoop,
  campaignLoop,
];
