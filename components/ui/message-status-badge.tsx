import { Badge } from './feedback';

const TONES: Record<string, 'green' | 'amber' | 'red' | 'slate' | 'blue'> = {
  Delivered: 'green',
  Received: 'blue',
  Deferred: 'amber',
  Bounced: 'red',
  Failed: 'red',
  Suppressed: 'slate',
  Cancelled: 'slate',
};

/** The message's status in the contract's words; sandbox messages say so with a badge of their own. */
export function MessageStatusBadge({ status }: { status: string }) {
  const isSandbox = status.startsWith('Sandbox ');
  const word = isSandbox ? status.slice('Sandbox '.length) : status;
  return (
    <span className="inline-flex items-center gap-1">
      {isSandbox ? <Badge tone="amber">Sandbox</Badge> : null}
      <Badge tone={TONES[word] ?? 'slate'}>{word}</Badge>
    </span>
  );
}
