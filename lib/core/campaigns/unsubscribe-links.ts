import { hmacSha256, safeEqual } from '@/lib/shared/crypto';
import { isUuid } from '@/lib/shared/ids';

/** Derived from the master key; a token names a campaign and a contact, and nothing else. */
export const UNSUBSCRIBE_KEY_PURPOSE = 'unsubscribe-links';

const signature = (key: Buffer, subject: string) =>
  hmacSha256(key, `unsubscribe:${subject}`).subarray(0, 16).toString('base64url');

export function signUnsubscribeToken(key: Buffer, campaignId: string, contactId: string): string {
  const subject = `${campaignId}.${contactId}`;
  return `${subject}.${signature(key, subject)}`;
}

/** The campaign and contact of a token, or null when we did not make it or it was altered. */
export function verifyUnsubscribeToken(key: Buffer, token: string): { campaignId: string; contactId: string } | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [campaignId, contactId, given] = parts;
  if (!isUuid(campaignId) || !isUuid(contactId)) return null;
  if (!safeEqual(given, signature(key, `${campaignId}.${contactId}`))) return null;
  return { campaignId, contactId };
}

/**
 * RFC 8058 headers for a campaign message: the HTTPS one-click URL and a mailto (to the return-path
 * host, with the token in the subject), plus List-Unsubscribe-Post. DKIM signs both (sign-dkim.ts).
 */
export function listUnsubscribeHeaders(url: string, mailtoHost: string, token: string): [string, string][] {
  return [
    ['List-Unsubscribe', `<${url}>, <mailto:unsubscribe@${mailtoHost}?subject=unsubscribe%20${token}>`],
    ['List-Unsubscribe-Post', 'List-Unsubscribe=One-Click'],
  ];
}
