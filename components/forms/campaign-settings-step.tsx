'use client';

import type { UseFormReturn } from 'react-hook-form';
import { Field, TextInput } from '@/components/ui/field';
import type { DraftValues } from '@/lib/client/campaign-draft';
import { useDomains } from '@/lib/client/queries';

const TRACKING_CHOICES = [
  { value: 'default', label: "The account's default" },
  { value: 'on', label: 'On' },
  { value: 'off', label: 'Off' },
] as const;

/** Step 3: who it is from (a verified marketing domain), where replies go, and tracking. */
export function CampaignSettingsStep({ accountId, form }: { accountId: string; form: UseFormReturn<DraftValues> }) {
  const { register, formState } = form;
  const errors = formState.errors;
  const domains = useDomains(accountId);
  const marketing = (domains.data?.data ?? []).filter((domain) => domain.sending_type === 'marketing').map((domain) => domain.domain);
  const fromHint = marketing.length
    ? `From a marketing domain of this account: ${marketing.join(', ')}.`
    : 'Campaigns are sent from a verified domain whose sending type is marketing (Domains, the domain’s settings).';
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field label="From address" htmlFor="campaign-from-email" hint={fromHint} error={errors.from_email?.message}>
        <TextInput id="campaign-from-email" type="email" autoComplete="off" placeholder={`news@${marketing[0] ?? 'example.com'}`} isInvalid={Boolean(errors.from_email)} {...register('from_email')} />
      </Field>
      <Field label="From name" htmlFor="campaign-from-name" hint="Optional: shown as the sender." error={errors.from_name?.message}>
        <TextInput id="campaign-from-name" autoComplete="off" {...register('from_name')} />
      </Field>
      <Field label="Reply-to address" htmlFor="campaign-reply-email" hint="Optional: where replies go." error={errors.reply_to_email?.message}>
        <TextInput id="campaign-reply-email" type="email" autoComplete="off" isInvalid={Boolean(errors.reply_to_email)} {...register('reply_to_email')} />
      </Field>
      <Field label="Reply-to name" htmlFor="campaign-reply-name" error={errors.reply_to_name?.message}>
        <TextInput id="campaign-reply-name" autoComplete="off" {...register('reply_to_name')} />
      </Field>
      {(['track_open', 'track_click'] as const).map((name) => (
        <Field key={name} label={name === 'track_open' ? 'Open tracking' : 'Click tracking'} htmlFor={`campaign-${name}`} error={errors[name]?.message}>
          <select id={`campaign-${name}`} className="block w-full rounded-md border-0 py-2 pl-3 pr-8 text-sm ring-1 ring-inset ring-slate-300" {...register(name)}>
            {TRACKING_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </Field>
      ))}
    </div>
  );
}
