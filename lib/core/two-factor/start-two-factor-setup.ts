import { eq } from 'drizzle-orm';
import QRCode from 'qrcode';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { users } from '@/lib/db/schema';
import { conflict } from '@/lib/shared/errors';
import { getSessionUser, TOTP_SECRET_PURPOSE } from './internal/session-user';
import { generateTotpSecret, totpUri } from './internal/totp';

/**
 * A fresh TOTP secret for the person, kept (encrypted) until a code from it enables two-factor
 * sign-in: shown as a QR code (an SVG made here, no outside service) and as text. Starting again
 * replaces a secret not yet confirmed.
 */
export const startTwoFactorSetup = defineVerb({
  scope: 'any',
  input: z.object({}),
  async run({ db, principal, secrets, now }) {
    const user = await getSessionUser(db, principal);
    if (user.twoFactorEnabledAt)
      throw conflict('two-factor sign-in is already on: turn it off first to set it up again');
    const secret = generateTotpSecret();
    await db
      .update(users)
      .set({ twoFactorSecretEncrypted: secrets.encrypt(TOTP_SECRET_PURPOSE, secret), updatedAt: now() })
      .where(eq(users.id, user.id));
    const uri = totpUri(secret, user.email);
    const svg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    return {
      object: 'two_factor_setup' as const,
      secret,
      otpauth_uri: uri,
      qr_code: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    };
  },
});
