import { Badge } from './feedback';

const TONES: Record<string, 'green' | 'amber' | 'red' | 'slate' | 'blue'> = {
  Delivered: 'green',
  Received: 'blue',
  Scheduled: 'blue',
  Deferred: 'amber',
  Bounced: 'red',
  Failed: 'red',
  Suppressed: 'slate',
  Cancelled: 'slate',
};

/**
 * The message's status in the contract's words; sandbox messages say so with a badge of their own.
 * A scheduled message is "Received" in the contract, but a reader wants to know it has not gone yet.
 */
export function MessageStatusBadge({ status, isScheduled = false }: { status: string; isScheduled?: boolean }) {
  const isSandbox = status.startsWith('Sandbox ');
  const word =
    isScheduled && status === 'Received' ? 'Scheduled' : isSandbox ? status.slice('Sandbox '.length) : status;
  return (
    <span className="inline-flex items-center gap-1">
      {isSandbox ? <Badge tone="amber">Sandbox</Badge> : null}
      <Badge tone={TONES[word] ?? 'slate'}>{word}</Badge>
    </span>
  );
}
