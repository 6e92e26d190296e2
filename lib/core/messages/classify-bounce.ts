/**
 * Bounce classes (the KumoMTA-style names the AhaSend CLI lists), decided from the enhanced status
 * code (RFC 3463) in the remote answer, falling back to the basic code.
 */
export type BounceClassification =
  | 'AuthenticationFailed'
  | 'BadDomain'
  | 'DNSFailure'
  | 'InactiveMailbox'
  | 'InvalidRecipient'
  | 'PolicyRelated'
  | 'ProtocolErrors'
  | 'QuotaIssues'
  | 'RoutingErrors'
  | 'TransientFailure'
  | 'Uncategorized';

// Which classes are hard (they suppress the recipient) is decided in core, where the dashboard reads it too.
export { HARD_BOUNCES } from '@/lib/core/messages/internal/bounce-severity';

export function classifyBounce(response: string, code?: number): BounceClassification {
  const enhanced = /\b([245])\.(\d{1,3})\.(\d{1,3})\b/.exec(response);
  if (!enhanced) {
    if (code !== undefined && code >= 400 && code < 500) return 'TransientFailure';
    if (code === 550 || code === 553)
      return /user|mailbox|recipient|address/i.test(response) ? 'InvalidRecipient' : 'Uncategorized';
    if (code === 552) return 'QuotaIssues';
    if (code === 554) return 'PolicyRelated';
    return 'Uncategorized';
  }
  const [, klass, subject, detail] = enhanced;
  if (klass === '4') return subject === '2' && detail === '2' ? 'QuotaIssues' : 'TransientFailure';
  switch (subject) {
    case '1':
      if (detail === '2' || detail === '10') return 'BadDomain';
      return 'InvalidRecipient';
    case '2':
      if (detail === '2') return 'QuotaIssues';
      if (detail === '1') return 'InactiveMailbox';
      return 'PolicyRelated';
    case '3':
      return 'PolicyRelated';
    case '4':
      if (detail === '4') return 'BadDomain';
      if (detail === '3') return 'DNSFailure';
      return 'RoutingErrors';
    case '5':
      return 'ProtocolErrors';
    case '7':
      if (['25', '26', '27', '7'].includes(detail)) return 'AuthenticationFailed';
      return 'PolicyRelated';
    default:
      return 'Uncategorized';
  }
}
