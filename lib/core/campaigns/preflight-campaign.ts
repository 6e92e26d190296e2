import type { CampaignValidationError } from '@/lib/db/schema';
import { check, preflightResult, type PreflightCheck } from '@/lib/core/preflight/checks';
import { runContentChecks, skippedContentChecks } from '@/lib/core/preflight/content-checks';
import { findDmarcPolicy } from '@/lib/core/preflight/dmarc';
import type { Services } from '@/lib/core/context';
import { defineVerb } from '@/lib/core/verb';
import { missingUnsubscribeLink, SAMPLE_UNSUBSCRIBE_URL, withUnsubscribeLink } from './campaign-content';
import { getCampaignInAccount } from './internal/queries';
import { renderSample, validateCampaign, type Validation } from './internal/validate-campaign';
import { campaignPathSchema } from './schemas';

const SENDER_FIELDS = new Set(['from']);
const AUDIENCE_FIELDS = new Set(['list_ids']);

/**
 * Every preflight check on the campaign as it stands (marketing-api.md, Preflight). The cheap ones
 * (sender, audience, unsubscribe_link, content) are validation's own reasons, so a send that would
 * fail them is refused; the network ones (links, images, spam_score) only inform.
 */
export const preflightCampaign = defineVerb({
  scope: 'campaigns:read',
  input: campaignPathSchema,
  async run(services, input) {
    const { db, principal } = services;
    const row = await getCampaignInAccount(db, principal.targetAccountId, input.campaign_id);
    const validation = await validateCampaign(services, db, row);
    const errors = [...validation.errors];
    let sample = validation.sample;
    // Validation stops before rendering when the sender or audience fails; the editor still wants the content checked.
    const hasContentError = errors.some(
      (error) => !SENDER_FIELDS.has(error.field) && !AUDIENCE_FIELDS.has(error.field),
    );
    if (!sample && validation.content && !hasContentError)
      sample = await renderSample(services, db, row.accountId, validation.content, row.listIds, (field, message) =>
        errors.push({ field, message }),
      );
    const unsubscribe = sample ? missingUnsubscribeLink(sample.parts) : null;
    const isUnsubscribeError = (error: CampaignValidationError) => error.message === unsubscribe?.message;
    const contentErrors = errors.filter(
      (error) => !SENDER_FIELDS.has(error.field) && !AUDIENCE_FIELDS.has(error.field) && !isUnsubscribeError(error),
    );

    const checks: PreflightCheck[] = [
      await senderCheck(services, errors, validation),
      audienceCheck(errors, validation),
      contentErrors.length
        ? check('content', 'fail', contentErrors.map((error) => `${error.field}: ${error.message}`).join('; '), {
            errors: contentErrors,
          })
        : check('content', 'pass', 'the content renders for the first recipient'),
    ];
    if (sample) {
      checks.push(
        ...(await runContentChecks(services, {
          parts: sample.parts,
          to: sample.email,
          from: row.fromEmail ?? 'sender@example.com',
          ownUrls: [SAMPLE_UNSUBSCRIBE_URL],
          linkSource: validation.content ? withUnsubscribeLink(validation.content).html : null,
          unsubscribe: unsubscribe
            ? check('unsubscribe_link', 'fail', unsubscribe.message, { field: unsubscribe.field })
            : check('unsubscribe_link', 'pass', 'every part offers the unsubscribe link'),
        })),
      );
    } else checks.push(...skippedContentChecks('the content must render first (see the content check)'));
    return preflightResult(checks, services.now());
  },
});

async function senderCheck(
  services: Pick<Services, 'dns'>,
  errors: CampaignValidationError[],
  validation: Validation,
): Promise<PreflightCheck> {
  const failed = errors.filter((error) => SENDER_FIELDS.has(error.field));
  if (failed.length || !validation.domain)
    return check('sender', 'fail', failed.map((error) => error.message).join('; ') || 'no usable sending domain');
  const { domain } = validation.domain;
  const dmarc = await findDmarcPolicy(services.dns, domain);
  if (dmarc.status === 'found')
    return check('sender', 'pass', `${domain} is verified and marketing; DMARC policy p=${dmarc.policy ?? '?'}`, {
      domain,
      dmarc: { name: dmarc.name, record: dmarc.record },
    });
  const why =
    dmarc.status === 'none'
      ? `no DMARC policy is published at _dmarc.${domain}: Gmail and Yahoo expect one from bulk senders`
      : `the DMARC policy of ${domain} could not be looked up (${dmarc.error})`;
  return check('sender', 'warn', `${domain} is verified and marketing, but ${why}`, { domain, dmarc: null });
}

function audienceCheck(errors: CampaignValidationError[], validation: Validation): PreflightCheck {
  const failed = errors.filter((error) => AUDIENCE_FIELDS.has(error.field));
  const count = validation.audience;
  if (failed.length)
    return check('audience', 'fail', failed.map((error) => error.message).join('; '), { count: count ?? 0 });
  if (count === null)
    return check('audience', 'skipped', 'counted once the campaign has a usable sending domain', { count: null });
  const shielded = validation.shielded ?? 0;
  const leftOut = shielded ? ` (${shielded} left out by Reputation Shield)` : '';
  return check('audience', 'pass', `${count} recipient${count === 1 ? '' : 's'} would receive it now${leftOut}`, {
    count,
    shielded,
  });
}
