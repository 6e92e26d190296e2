/**
 * Internal states of a message and the words the API uses for them. The contract's list filter
 * takes the display names (case and spacing forgiven); sandbox messages show "Sandbox ...".
 */
export const MESSAGE_STATES = [
  'scheduled',
  'queued',
  'deferred',
  'delivered',
  'bounced',
  'failed',
  'suppressed',
  'cancelled',
] as const;
export type MessageState = (typeof MESSAGE_STATES)[number];

const DISPLAY: Record<MessageState, string> = {
  scheduled: 'Received',
  queued: 'Received',
  deferred: 'Deferred',
  delivered: 'Delivered',
  bounced: 'Bounced',
  failed: 'Failed',
  suppressed: 'Suppressed',
  cancelled: 'Cancelled',
};

export function displayStatus(state: string, isSandbox: boolean): string {
  const word = DISPLAY[state as MessageState] ?? state;
  return isSandbox && word !== 'Received' && word !== 'Cancelled' ? `Sandbox ${word}` : word;
}

/** The list filter's vocabulary. */
export const FILTER_STATUSES = [
  'Received',
  'Delivered',
  'Deferred',
  'Bounced',
  'Failed',
  'Suppressed',
  'Sandbox Delivered',
  'Sandbox Deferred',
  'Sandbox Failed',
  'Sandbox Bounced',
  'Sandbox Suppressed',
] as const;

/** `"delivered, sandbox  bounced"` -> state/sandbox pairs; unknown names are reported. */
export function parseStatusFilter(raw: string): {
  pairs: { states: MessageState[]; isSandbox: boolean | null }[];
  unknown: string[];
} {
  const pairs: { states: MessageState[]; isSandbox: boolean | null }[] = [];
  const unknown: string[] = [];
  for (const part of raw
    .split(',')
    .map((value) => value.trim().replace(/\s+/g, ' ').toLowerCase())
    .filter(Boolean)) {
    const isSandbox = part.startsWith('sandbox ');
    const word = isSandbox ? part.slice('sandbox '.length) : part;
    const states = (Object.entries(DISPLAY) as [MessageState, string][])
      .filter(([, display]) => display.toLowerCase() === word)
      .map(([state]) => state);
    const isKnown =
      FILTER_STATUSES.some((status) => status.toLowerCase() === part) || (word === 'cancelled' && !isSandbox);
    if (!isKnown || states.length === 0) unknown.push(part);
    else pairs.push({ states, isSandbox: word === 'received' ? null : isSandbox });
  }
  return { pairs, unknown };
}
