import { generateSecret, generateURI, verify } from 'otplib';

/** RFC 6238 as authenticator apps expect it: SHA-1, 6 digits, 30-second steps. */
const PERIOD_SECONDS = 30;

export function generateTotpSecret(): string {
  return generateSecret();
}

/** The `otpauth://` address an authenticator app reads from the QR code. */
export function totpUri(secret: string, email: string): string {
  return generateURI({ issuer: 'Mailstead', label: email, secret });
}

/**
 * The time step a code belongs to when it is valid now (one step of clock drift either way), and
 * later than `afterStep`: a code accepted once is refused for the rest of its window. Else null.
 */
export async function matchTotpStep(
  secret: string,
  code: string,
  now: Date,
  afterStep: number | null,
): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const epoch = Math.floor(now.getTime() / 1000);
  const result = await verify({
    secret,
    token: code,
    epoch,
    epochTolerance: PERIOD_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid ? Math.floor(epoch / PERIOD_SECONDS) + result.delta : null;
}
