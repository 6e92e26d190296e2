import { disableTwoFactor } from '@/lib/core/two-factor/disable-two-factor';
import { enableTwoFactor } from '@/lib/core/two-factor/enable-two-factor';
import { getTwoFactorRequirement } from '@/lib/core/two-factor/get-two-factor-requirement';
import { getTwoFactorStatus } from '@/lib/core/two-factor/get-two-factor-status';
import { regenerateRecoveryCodes } from '@/lib/core/two-factor/regenerate-recovery-codes';
import {
  disableTwoFactorSchema,
  enableTwoFactorSchema,
  regenerateRecoveryCodesSchema,
  setTwoFactorRequirementSchema,
} from '@/lib/core/two-factor/schemas';
import { setTwoFactorRequirement } from '@/lib/core/two-factor/set-two-factor-requirement';
import { startTwoFactorSetup } from '@/lib/core/two-factor/start-two-factor-setup';
import { z } from '@/lib/core/zod';
import type { Endpoint } from '../endpoint';

const anything = z.object({}).passthrough();
const base = '/internal/me/two-factor';

/**
 * The signed-in person's own two-factor sign-in (no account in the path, so an account that requires
 * it never blocks its setup), and an account's rule requiring it of its members.
 */
export const twoFactorInternalEndpoints: Endpoint[] = [
  {
    method: 'get',
    path: base,
    verb: getTwoFactorStatus,
    status: 200,
    summary: 'Two-factor sign-in of the signed-in person',
    tags: ['Internal'],
    response: anything,
    isHiddenFromDocument: true,
  },
  {
    method: 'post',
    path: `${base}/setup`,
    verb: startTwoFactorSetup,
    status: 200,
    summary: 'A new TOTP secret and its QR code, waiting for a code',
    tags: ['Internal'],
    response: anything,
    isHiddenFromDocument: true,
    isSecretBearing: true,
  },
  {
    method: 'post',
    path: `${base}/enable`,
    verb: enableTwoFactor,
    status: 200,
    summary: 'Confirm a code and turn two-factor sign-in on (recovery codes shown once)',
    tags: ['Internal'],
    body: enableTwoFactorSchema,
    response: anything,
    input: ({ body }) => body,
    isHiddenFromDocument: true,
    isSecretBearing: true,
  },
  {
    method: 'post',
    path: `${base}/disable`,
    verb: disableTwoFactor,
    status: 200,
    summary: 'Turn two-factor sign-in off (needs the password)',
    tags: ['Internal'],
    body: disableTwoFactorSchema,
    response: anything,
    input: ({ body }) => body,
    isHiddenFromDocument: true,
  },
  {
    method: 'post',
    path: `${base}/recovery-codes`,
    verb: regenerateRecoveryCodes,
    status: 200,
    summary: 'Ten new recovery codes (shown once); the old ones stop working',
    tags: ['Internal'],
    body: regenerateRecoveryCodesSchema,
    response: anything,
    input: ({ body }) => body,
    isHiddenFromDocument: true,
    isSecretBearing: true,
  },
  {
    method: 'get',
    path: '/internal/accounts/{account_id}/two-factor-requirement',
    verb: getTwoFactorRequirement,
    status: 200,
    summary: 'Whether the account requires two-factor sign-in of its members',
    tags: ['Internal'],
    response: anything,
    isHiddenFromDocument: true,
  },
  {
    method: 'put',
    path: '/internal/accounts/{account_id}/two-factor-requirement',
    verb: setTwoFactorRequirement,
    status: 200,
    summary: 'Require two-factor sign-in of the members (or not)',
    tags: ['Internal'],
    body: setTwoFactorRequirementSchema,
    response: anything,
    input: ({ body }) => body,
    isHiddenFromDocument: true,
  },
];
