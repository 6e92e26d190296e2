import {
  missingUnsubscribeLink,
  SAMPLE_UNSUBSCRIBE_URL,
  UNSUBSCRIBE_VARIABLE,
  withUnsubscribeLink,
} from '@/lib/core/campaigns/campaign-content';
import { sampleContact } from '@/lib/core/campaigns/internal/sample-contact';
import { withPreheader } from '@/lib/core/content/preheader';
import { assertContentRenders } from '@/lib/core/messages/render-content';
import { check, preflightResult, type PreflightCheck } from '@/lib/core/preflight/checks';
import { runContentChecks, skippedContentChecks } from '@/lib/core/preflight/content-checks';
import { defineVerb } from '@/lib/core/verb';
import { AppError } from '@/lib/shared/errors';
import { getTemplateInAccount } from './internal/queries';
import { templatePathSchema } from './schemas';

/**
 * The content checks on a template's draft (marketing-api.md, Preflight), rendered with a sample
 * contact's values. A campaign template gets the unsubscribe footer a campaign would add; a
 * transactional one carries none, so that check is skipped.
 */
export const preflightTemplate = defineVerb({
  scope: 'templates:read',
  input: templatePathSchema,
  async run(services, input) {
    const { db, principal } = services;
    const row = await getTemplateInAccount(db, principal.targetAccountId, input.template_id);
    const isCampaign = row.kind === 'campaign';
    const draft = {
      subject: row.subject ?? '',
      html: withPreheader(row.htmlContent || null, row.preheader),
      text: row.textContent || null,
    };
    const skip = (why: string) =>
      preflightResult([check('content', 'fail', why), ...skippedContentChecks(why)], services.now());
    if (!draft.html && !draft.text) return skip('the draft has no html_content or text_content');

    const sample = await sampleContact(db, row.accountId, []);
    const parts = isCampaign ? withUnsubscribeLink(draft) : draft;
    let rendered;
    try {
      rendered = await assertContentRenders(
        services.renderer,
        { ...parts, amp: null },
        isCampaign ? { [UNSUBSCRIBE_VARIABLE]: SAMPLE_UNSUBSCRIBE_URL } : {},
        [{ email: sample.email, substitutions: sample.values }],
      );
    } catch (error) {
      if (!(error instanceof AppError) || error.kind !== 'invalid_input') throw error;
      return skip(error.message);
    }
    const missing = isCampaign ? missingUnsubscribeLink(rendered) : null;
    const unsubscribe: PreflightCheck = !isCampaign
      ? check('unsubscribe_link', 'skipped', 'a transactional template: no unsubscribe link is added or needed')
      : missing
        ? check('unsubscribe_link', 'fail', missing.message, { field: missing.field })
        : check('unsubscribe_link', 'pass', 'every part offers the unsubscribe link');
    const checks = [
      check('content', 'pass', 'the draft renders with a sample contact'),
      ...(await runContentChecks(services, {
        parts: rendered,
        to: sample.email,
        from: 'sender@example.com',
        ownUrls: isCampaign ? [SAMPLE_UNSUBSCRIBE_URL] : [],
        linkSource: parts.html,
        unsubscribe,
      })),
    ];
    return preflightResult(checks, services.now());
  },
});
