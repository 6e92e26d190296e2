/**
 * Replies with which a mailbox provider says "slow down" rather than "not this message": one table,
 * so that a new provider wording is one row. Each row needs a 4xx code; a 5xx is a bounce, whatever
 * its text. Greylisting (also 4.7.x at times) asks for a later retry, not a slower sender.
 */
const THROTTLING_PATTERNS: { name: string; pattern: RegExp }[] = [
  // Gmail: "421-4.7.28 ... unusual rate of unsolicited mail", "421 4.7.0 Try again later, closing connection".
  { name: 'gmail-unusual-rate', pattern: /\b4\.7\.28\b|unusual rate/i },
  // Microsoft: "451 4.7.650 The mail server has been temporarily rate limited", 4.7.500-699 blocks.
  { name: 'microsoft-rate-limited', pattern: /\b4\.7\.[56]\d\d\b/ },
  // Yahoo/AOL: "421 4.7.0 [TSS04] Messages ... temporarily deferred", [TS01]-[TS03].
  { name: 'yahoo-ts-code', pattern: /\[TSS?\d{2}\]/i },
  { name: 'rate-wording', pattern: /rate.?limit|throttl|too many (concurrent )?(connections|messages|sessions)/i },
];

const GREYLISTING = /gr[ae]ylist/i;

/** The name of the pattern a deferral matched, or null when it is not a throttling reply. */
export function classifyThrottlingReply(code: number, response: string): string | null {
  if (code < 400 || code >= 500 || GREYLISTING.test(response)) return null;
  for (const { name, pattern } of THROTTLING_PATTERNS) if (pattern.test(response)) return name;
  // Any other 421/451 with an enhanced 4.7.x code (security or policy: the provider's own limits).
  if ((code === 421 || code === 451) && /(^|[\s-])4\.7\.\d{1,3}\b/.test(response)) return 'policy-4.7';
  return null;
}
