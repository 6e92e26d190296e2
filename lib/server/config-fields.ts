import { warmupPlanSchema } from '@/lib/core/domains/schemas';
import type { WarmupDayLimits } from '@/lib/db/schema';
/**
 * The kinds of value the environment schema (lib/server/config.ts) is made of: ports, flags,
 * host:port lists and the system sender's `Name <address>`.
 */
import { z } from 'zod';

export const port = (fallback: number) =>
  z.coerce
    .number()
    .int()
    .min(1, 'must be a port number (1-65535)')
    .max(65535, 'must be a port number (1-65535)')
    .default(fallback);

/** A port that 0 turns off. */
export const optionalPort = (fallback: number) =>
  z.coerce
    .number()
    .int()
    .min(0, 'must be a port number (0-65535)')
    .max(65535, 'must be a port number (0-65535)')
    .default(fallback);

export const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .default('false')
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

export const hostPortList = z
  .string()
  .default('')
  .transform((value, ctx) => {
    const entries = value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    return entries.map((entry) => {
      const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry);
      if (!match) {
        ctx.addIssue({ code: 'custom', message: `"${entry}" is not host or host:port` });
        return { host: entry, port: 53 };
      }
      return { host: match[1].replace(/^\[|\]$/g, ''), port: match[2] ? Number(match[2]) : 53 };
    });
  });

/** `Name <address>` or `address`; the name may be quoted. Null when the address is not one. */
export function parseSystemSender(value: string): { email: string; name: string | null } | null {
  const match = /^\s*(?:"?([^"<>]*?)"?\s*<([^<>\s]+)>|([^<>\s]+))\s*$/.exec(value);
  if (!match) return null;
  const email = (match[2] ?? match[3]).toLowerCase();
  if (!/^[^@\s]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(email)) return null;
  const name = match[1]?.trim() || null;
  // A display name goes into a header: no line breaks, no control characters.
  if (name && /[\x00-\x1f\x7f]/.test(name)) return null;
  return { email, name };
}

/** An OpenID issuer: https, or http on a loopback address (a provider beside the server, or a test's). */
export function isIssuerUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  const isLoopback = /^127\./.test(url.hostname) || url.hostname === '[::1]' || url.hostname === 'localhost';
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback);
}

/**
 * IP_WARMUP_PLAN: "default" (or empty) for the default ramp, or a JSON array of days as a domain's
 * warm-up plan takes (lib/core/domains/schemas.ts); an error names the day and provider at fault.
 */
export function parseIpWarmupPlan(value: string): { plan: WarmupDayLimits[] | null } | { error: string } {
  if (value.trim() === '' || value.trim() === 'default') return { plan: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return { error: 'must be "default" or a JSON array of days such as [{"gmail":50,"microsoft":50}]' };
  }
  const plan = warmupPlanSchema.safeParse(parsed);
  if (!plan.success) {
    const [issue] = plan.error.issues;
    return { error: `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}` };
  }
  return { plan: plan.data ?? null };
}
