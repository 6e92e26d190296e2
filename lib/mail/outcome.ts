import type { BounceClassification } from '@/lib/core/messages/classify-bounce';

/** What one delivery attempt came to; record-outcomes.ts turns it into state, events and counters. */
export type Outcome =
  | {
      kind: 'delivered';
      log: string;
      /** The session used TLS (STARTTLS or implicit); campaign mail: it carried List-Unsubscribe-Post. */
      isTls?: boolean;
      hasOneClick?: boolean;
    }
  | { kind: 'deferred'; log: string; isFinal?: boolean }
  | { kind: 'bounced'; log: string; classification: BounceClassification }
  | { kind: 'failed'; log: string }
  | { kind: 'suppressed'; log: string };
