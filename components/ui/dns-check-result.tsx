import { PERSON_DNS_CHECK_SECONDS } from '@/lib/core/domains/dns-check-window';
import { Alert } from './feedback';

export type DnsCheckOutcome = { checkedAt: string | null; isNew: boolean; isValid: boolean };

const timeOf = (value: string) => new Date(value).toLocaleTimeString();

/**
 * What "Check DNS now" did: a new check and its verdict, or, inside the few seconds between real
 * checks, which check the page still shows and when the next one is possible.
 */
export function DnsCheckResult({ outcome }: { outcome: DnsCheckOutcome }) {
  const verdict = outcome.isValid
    ? 'This domain can send.'
    : 'Publish the records marked red, then check again. DNS changes can take a while to spread.';
  if (!outcome.isNew && outcome.checkedAt) {
    const nextAt = new Date(new Date(outcome.checkedAt).getTime() + PERSON_DNS_CHECK_SECONDS * 1000).toISOString();
    return (
      <Alert tone="info" title="DNS was checked moments ago">
        <span data-testid="dns-check-result">
          The records below are from the check at {timeOf(outcome.checkedAt)}. The next real check is possible at{' '}
          {timeOf(nextAt)}.
        </span>
      </Alert>
    );
  }
  return (
    <Alert
      tone={outcome.isValid ? 'success' : 'warning'}
      title={outcome.isValid ? 'All required records are in place' : 'Some required records are missing or wrong'}
    >
      <span data-testid="dns-check-result">
        Checked at {outcome.checkedAt ? timeOf(outcome.checkedAt) : 'an unknown time'}. {verdict}
      </span>
    </Alert>
  );
}
