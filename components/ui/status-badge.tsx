import { Badge } from './feedback';

const TONES = { verified: 'green', pending: 'amber', failing: 'red', paused: 'slate' } as const;
const LABELS = { verified: 'Verified', pending: 'Pending', failing: 'Failing', paused: 'Paused' } as const;

export function DomainStatusBadge({ status }: { status: keyof typeof TONES }) {
  return <Badge tone={TONES[status]}>{LABELS[status]}</Badge>;
}
