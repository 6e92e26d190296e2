/** Bounce classes that mean the address will not work: they suppress the recipient. The rest are soft. */
export const HARD_BOUNCES: ReadonlySet<string> = new Set(['InvalidRecipient', 'BadDomain', 'InactiveMailbox']);

export function bounceSeverity(classification: string): 'hard' | 'soft' {
  return HARD_BOUNCES.has(classification) ? 'hard' : 'soft';
}
