import type { CampaignStatus } from '@/lib/core/campaigns/schemas';
import { Badge } from './feedback';

const TONES = { draft: 'slate', validating: 'amber', scheduled: 'blue', sending: 'blue', sent: 'green' } as const;
const LABELS = { draft: 'Draft', validating: 'Validating', scheduled: 'Scheduled', sending: 'Sending', sent: 'Sent' } as const;

export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  return (
    <span data-campaign-status={status}>
      <Badge tone={TONES[status]}>{LABELS[status]}</Badge>
    </span>
  );
}
