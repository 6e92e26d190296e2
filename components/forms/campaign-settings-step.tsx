'use client';

import type { UseFormReturn } from 'react-hook-form';
import { Field, Select, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import type { DraftValues } from '@/lib/client/campaign-draft';
import { useAccount, useDomains } from '@/lib/client/queries';

const TRACKING_HELP = {
  track_open: 'Adds an invisible image to the HTML: the report counts who opened.',
  track_click: 'Sends links through your tracking host first: the report counts who clicked which link.',
} as const;

/** Step 3: who it is from (a verified marketing domain), where replies go, and tracking. */
export function CampaignSettingsStep({ accountId, form }: { accountId: string; form: UseFormReturn<DraftValues> }) {
  const { register, formState, watch } = form;
  const errors = formState.errors;
  const domains = useDomains(accountId);
  const account = useAccount(accountId);
  const defaults = { track_open: account.data?.track_opens, track_click: account.data?.track_clicks };
  const onOff = (value: boolean | undefined) => (value === undefined ? '' : value ? ' (on)' : ' (off)');
  // Off by default, a first campaign's report would show no opens or clicks without saying why.
  const untracked = (['track_open', 'track_click'] as const).filter(
    (name) => watch(name) === 'default' && defaults[name] === false,
  );
  const marketing = (domains.data?.data ?? [])
    .filter((domain) => domain.sending_type === 'marketing')
    .map((domain) => domain.domain);
  const fromHint = marketing.length
    ? `From a marketing domain of this account: ${marketing.join(', ')}.`
    : 'Campaigns are sent from a verified domain whose sending type is marketing (Domains, the domain’s settings).';
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field label="From address" htmlFor="campaign-from-email" hint={fromHint} error={errors.from_email?.message}>
        <TextInput
          id="campaign-from-email"
          type="email"
          autoComplete="off"
          placeholder={`news@${marketing[0] ?? 'example.com'}`}
          isInvalid={Boolean(errors.from_email)}
          {...register('from_email')}
        />
      </Field>
      <Field
        label="From name"
        htmlFor="campaign-from-name"
        hint="Optional: shown as the sender."
        error={errors.from_name?.message}
      >
        <TextInput id="campaign-from-name" autoComplete="off" {...register('from_name')} />
      </Field>
      <Field
        label="Reply-to address"
        htmlFor="campaign-reply-email"
        hint="Optional: where replies go."
        error={errors.reply_to_email?.message}
      >
        <TextInput
          id="campaign-reply-email"
          type="email"
          autoComplete="off"
          isInvalid={Boolean(errors.reply_to_email)}
          {...register('reply_to_email')}
        />
      </Field>
      <Field label="Reply-to name" htmlFor="campaign-reply-name" error={errors.reply_to_name?.message}>
        <TextInput id="campaign-reply-name" autoComplete="off" {...register('reply_to_name')} />
      </Field>
      {(['track_open', 'track_click'] as const).map((name) => (
        <Field
          key={name}
          label={name === 'track_open' ? 'Open tracking' : 'Click tracking'}
          htmlFor={`campaign-${name}`}
          hint={TRACKING_HELP[name]}
          error={errors[name]?.message}
        >
          <Select id={`campaign-${name}`} {...register(name)}>
            <option value="default">The account&apos;s default{onOff(defaults[name])}</option>
            <option value="on">On</option>
            <option value="off">Off</option>
          </Select>
        </Field>
      ))}
      {untracked.length ? (
        <div className="sm:col-span-2" data-testid="tracking-hint">
          <Alert
            tone="info"
            title={
              untracked.length === 2
                ? 'Opens and clicks are not tracked'
                : untracked[0] === 'track_open'
                  ? 'Opens are not tracked'
                  : 'Clicks are not tracked'
            }
          >
            Tracking is off by default for this account (Settings), so this campaign&apos;s report will show no{' '}
            {untracked.length === 2 ? 'opens or clicks' : untracked[0] === 'track_open' ? 'opens' : 'clicks'}. Choose
            &quot;On&quot; above to count them for this campaign.
          </Alert>
        </div>
      ) : null}
    </div>
  );
}
