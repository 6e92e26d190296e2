/** One line of `mailstead doctor`: skip means the check could not run here (it does not fail the run). */
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export type CheckResult = { check: string; status: CheckStatus; message: string; fix: string | null };

export const result = (
  check: string,
  status: CheckStatus,
  message: string,
  fix: string | null = null,
): CheckResult => ({ check, status, message, fix });
