import type { ReactNode } from 'react';
import { Alert } from '@/components/ui/feedback';

type TriggerItem = { event_type: string; status: string; response_status: number | null; error: string | null };

/** How a "Send test" went, for the banner: red with each reason when any attempt failed, green only when all were delivered. */
export type TestOutcome = { tone: 'success' | 'warning' | 'error'; title: string; lines: string[] };

export function testOutcomeOf(name: string, items: TriggerItem[]): TestOutcome {
  const failed = items.filter((item) => item.status !== 'delivered' && item.status !== 'pending');
  const waiting = items.filter((item) => item.status === 'pending');
  if (failed.length > 0) {
    const title =
      failed.length === items.length
        ? `Test to “${name}” failed`
        : `Test to “${name}”: ${failed.length} of ${items.length} events failed`;
    return {
      tone: 'error',
      title,
      lines: failed.map(
        (item) =>
          `${item.event_type}: ${item.error ?? (item.response_status ? `HTTP ${item.response_status} from the endpoint` : 'failed')}`,
      ),
    };
  }
  if (waiting.length > 0) {
    return {
      tone: 'warning',
      title: `Test to “${name}”: no answer yet`,
      lines: [
        `${waiting.length} of ${items.length} events were not attempted in time; their outcome shows in the delivery log.`,
      ],
    };
  }
  return {
    tone: 'success',
    title: `Test sent to “${name}”`,
    lines: items.map((item) => `${item.event_type}: delivered (HTTP ${item.response_status})`),
  };
}

export function TestOutcomeAlert({ outcome, children }: { outcome: TestOutcome; children?: ReactNode }) {
  return (
    <div data-testid="test-outcome" data-tone={outcome.tone}>
      <Alert tone={outcome.tone} title={outcome.title}>
        <ul className="space-y-0.5">
          {outcome.lines.map((line) => (
            <li key={line} className="wrap-anywhere">
              {line}
            </li>
          ))}
        </ul>
        {children}
      </Alert>
    </div>
  );
}
