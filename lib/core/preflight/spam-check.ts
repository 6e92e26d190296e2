import MailComposer from 'nodemailer/lib/mail-composer';
import type { RenderedParts } from '@/lib/core/messages/render-content';
import { check, type PreflightCheck } from './checks';
import { checkWithSpamd, type SpamReport } from './spamd-client';

export const SPAM_WARN_SCORE = 3;
export const SPAM_FAIL_SCORE = 5;
// As long as the links' budget, which runs beside it: a busy spamd with one child can take seconds.
const SPAMD_TIMEOUT_MS = 20_000;

/**
 * The spam_score check: the message as the first recipient would get it, scored by SpamAssassin's
 * spamd (SPAMD_URL). No spamd configured, or none answering, is `skipped` with why: never a made-up score.
 */
export async function checkSpamScore(
  spamd: { host: string; port: number } | null | undefined,
  message: { from: string; to: string; parts: RenderedParts; date: Date },
): Promise<PreflightCheck> {
  if (!spamd) return check('spam_score', 'skipped', 'SPAMD_URL is not set: no SpamAssassin to score the message');
  let report: SpamReport;
  try {
    report = await checkWithSpamd(spamd, await composeSample(message), SPAMD_TIMEOUT_MS);
  } catch (error) {
    return check('spam_score', 'skipped', `SpamAssassin could not score the message: ${(error as Error).message}`);
  }
  const details = {
    score: report.score,
    rules: report.rules.filter((rule) => rule.score !== 0).sort((a, b) => b.score - a.score),
  };
  const top = details.rules
    .slice(0, 3)
    .map((rule) => rule.name)
    .join(', ');
  const hits = top ? ` (${top})` : '';
  if (report.score >= SPAM_FAIL_SCORE)
    return check('spam_score', 'fail', `spam score ${report.score}, at or over ${SPAM_FAIL_SCORE}${hits}`, details);
  if (report.score >= SPAM_WARN_SCORE)
    return check('spam_score', 'warn', `spam score ${report.score}, at or over ${SPAM_WARN_SCORE}${hits}`, details);
  return check('spam_score', 'pass', `spam score ${report.score}, under ${SPAM_WARN_SCORE}`, details);
}

function composeSample(message: { from: string; to: string; parts: RenderedParts; date: Date }): Promise<Buffer> {
  const domain = message.from.split('@')[1] ?? 'localhost';
  return new MailComposer({
    from: message.from,
    to: message.to,
    subject: message.parts.subject,
    text: message.parts.text ?? undefined,
    html: message.parts.html ?? undefined,
    date: message.date,
    messageId: `<preflight.${message.date.getTime()}@${domain}>`,
  })
    .compile()
    .build();
}
