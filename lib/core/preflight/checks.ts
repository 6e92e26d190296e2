import { z } from '@/lib/core/zod';

export const CHECK_STATUSES = ['pass', 'warn', 'fail', 'skipped'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];
export type PreflightCheck = {
  id: string;
  status: CheckStatus;
  message: string;
  details: Record<string, unknown> | null;
};

export const check = (
  id: string,
  status: CheckStatus,
  message: string,
  details: Record<string, unknown> | null = null,
): PreflightCheck => ({ id, status, message, details });

const SEVERITY: Record<CheckStatus, number> = { skipped: 0, pass: 0, warn: 1, fail: 2 };

/** The answer: the worst check decides the status; a skipped check counts as passing. */
export function preflightResult(checks: PreflightCheck[], now: Date) {
  const worst = Math.max(0, ...checks.map((entry) => SEVERITY[entry.status]));
  return {
    object: 'preflight' as const,
    status: (['pass', 'warn', 'fail'] as const)[worst],
    checked_at: now.toISOString(),
    checks,
  };
}

export type PreflightObject = ReturnType<typeof preflightResult>;

export const preflightSchema = z
  .object({
    object: z.literal('preflight'),
    status: z.enum(['pass', 'warn', 'fail']),
    checked_at: z.string(),
    checks: z.array(
      z.object({
        id: z.string().openapi({ example: 'links' }),
        status: z.enum(CHECK_STATUSES),
        message: z.string(),
        details: z.record(z.string(), z.unknown()).nullable(),
      }),
    ),
  })
  .openapi('Preflight');
