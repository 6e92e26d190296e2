import { describe, expect, it } from 'vitest';
import { classifyThrottlingReply } from '@/lib/mail/classify-throttling-reply';

describe('classifyThrottlingReply', () => {
  it.each([
    [421, '421-4.7.28 [203.0.113.5] Our system has detected an unusual rate of unsolicited mail', 'gmail-unusual-rate'],
    [421, '4.7.28 Gmail has detected an unusual rate of unsolicited mail', 'gmail-unusual-rate'],
    [
      451,
      '451 4.7.650 The mail server [203.0.113.5] has been temporarily rate limited due to IP reputation',
      'microsoft-rate-limited',
    ],
    [451, '451 4.7.500 Server busy. Please try again later', 'microsoft-rate-limited'],
    [421, '421 4.7.0 [TSS04] Messages from 203.0.113.5 temporarily deferred due to unexpected volume', 'yahoo-ts-code'],
    [421, '421 4.7.0 [TS01] Messages from 203.0.113.5 temporarily deferred', 'yahoo-ts-code'],
    [450, '450 too many connections from your IP', 'rate-wording'],
    [452, '452 Throttled: try later', 'rate-wording'],
    [421, '421 4.7.1 Service unavailable: policy', 'policy-4.7'],
    [451, '451-4.7.3 Temporary local policy failure', 'policy-4.7'],
  ])('%i %s -> %s', (code, response, expected) => {
    expect(classifyThrottlingReply(code, response)).toBe(expected);
  });

  it.each([
    [550, '550 5.7.28 unusual rate of unsolicited mail (a bounce, not a slow-down)'],
    [250, '250 2.0.0 OK 4.7.28'],
    [451, '451 4.7.1 Greylisted, please try again in 300 seconds'],
    [450, '450 4.2.1 Mailbox busy'],
    [451, '451 4.3.0 Temporary server error'],
    [421, '421 4.4.2 Connection timed out'],
    [452, '452 4.2.2 Mailbox full'],
    [451, ''],
  ])('not throttling: %i %s', (code, response) => {
    expect(classifyThrottlingReply(code, response)).toBeNull();
  });
});
