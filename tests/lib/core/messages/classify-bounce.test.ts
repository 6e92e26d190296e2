import { describe, expect, it } from 'vitest';
import { classifyBounce, HARD_BOUNCES } from '@/lib/core/messages/classify-bounce';

describe('classifyBounce', () => {
  it.each([
    ['550 5.1.1 <a@b.example>: user unknown', 550, 'InvalidRecipient'],
    ['550 5.1.10 recipient address rejected: domain not found', 550, 'BadDomain'],
    ['550 5.2.1 mailbox disabled', 550, 'InactiveMailbox'],
    ['552 5.2.2 mailbox full', 552, 'QuotaIssues'],
    ['452 4.2.2 over quota', 452, 'QuotaIssues'],
    ['550 5.7.1 message rejected as spam', 550, 'PolicyRelated'],
    ['550 5.7.26 unauthenticated email is not accepted', 550, 'AuthenticationFailed'],
    ['554 5.4.4 unable to route', 554, 'BadDomain'],
    ['500 5.5.2 syntax error', 500, 'ProtocolErrors'],
    ['451 4.7.1 greylisted', 451, 'TransientFailure'],
    ['550 no such user here', 550, 'InvalidRecipient'],
    ['554 rejected', 554, 'PolicyRelated'],
    ['521 nope', 521, 'Uncategorized'],
  ] as const)('%s -> %s', (response, code, expected) => {
    expect(classifyBounce(response, code)).toBe(expected);
  });

  it('suppresses only the classes that mean the address will not work', () => {
    expect([...HARD_BOUNCES].sort()).toEqual(['BadDomain', 'InactiveMailbox', 'InvalidRecipient']);
  });
});
