import { describe, expect, it } from 'vitest';
import { bounceSeverity } from '@/lib/core/messages/internal/bounce-severity';

describe('bounceSeverity: hard bounces are the classes that suppress', () => {
  it.each([
    ['InvalidRecipient', 'hard'],
    ['BadDomain', 'hard'],
    ['InactiveMailbox', 'hard'],
    ['QuotaIssues', 'soft'],
    ['PolicyRelated', 'soft'],
    ['TransientFailure', 'soft'],
    ['Uncategorized', 'soft'],
  ])('%s is %s', (classification, severity) => {
    expect(bounceSeverity(classification)).toBe(severity);
  });
});
