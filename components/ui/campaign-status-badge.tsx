import type { CampaignStatus } from '@/lib/core/campaigns/schemas';
import { Badge } from './feedback';

const TONES = {
  draft: 'slate',
  validating: 'amber',
  scheduled: 'blue',
  sending: 'blue',
  paused: 'amber',
  sent: 'green',
  cancelled: 'red',
} as const satisfies Record<CampaignStatus, string>;
export const CAMPAIGN_STATUS_LABELS = {
  draft: 'Draft',
  validating: 'Validating',
  scheduled: 'Scheduled',
  sending: 'Sending',
  paused: 'Paused',
  sent: 'Sent',
  cancelled: 'Cancelled',
} as const satisfies Record<CampaignStatus, string>;

export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  return (
    <span data-campaign-status={status}>
      <Badge tone={TONES[status]}>{CAMPAIGN_STATUS_LABELS[status]}</Badge>
    </span>
  );
}
