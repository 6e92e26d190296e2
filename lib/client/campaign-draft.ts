import type { CampaignObject } from '@/lib/core/campaigns/internal/present';
import { updateCampaignSchema, type UpdateCampaignInput } from '@/lib/core/campaigns/schemas';
import { contentBodyOf, contentValueOf, type ContentValue } from './content-format';
import { abBodyOf, abDraftOf, type AbDraft } from './campaign-ab-draft';

/** The wizard's steps, in order; each validation field belongs to the step that fixes it. */
export const WIZARD_STEPS = [
  { name: 'content', label: 'Content' },
  { name: 'audience', label: 'Audience' },
  { name: 'settings', label: 'Settings' },
  { name: 'ab', label: 'A/B test' },
  { name: 'test', label: 'Test send' },
  { name: 'review', label: 'Review' },
] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number]['name'];

const AUDIENCE_FIELDS = ['list_ids', 'segment_ids', 'exclude_list_ids', 'exclude_segment_ids'];

export function stepOfField(field: string): WizardStep {
  const root = field.split('.')[0];
  if (AUDIENCE_FIELDS.includes(root)) return 'audience';
  if (root === 'variants' || root === 'ab_test') return 'ab';
  if (root === 'from' || root === 'reply_to' || root === 'tracking') return 'settings';
  return 'content';
}

/** Form values are strings (what inputs hold); `tracking` is 'default' (the account's) / 'on' / 'off'. */
export type DraftValues = {
  name: string;
  content_mode: 'inline' | 'template';
  subject: string;
  preheader: string;
  content: ContentValue;
  text_content: string;
  /** False until the text part is edited here: the server keeps the author's own, or makes it from the body. */
  is_text_own: boolean;
  template_id: string;
  from_email: string;
  from_name: string;
  reply_to_email: string;
  reply_to_name: string;
  list_ids: string[];
  segment_ids: string[];
  exclude_list_ids: string[];
  exclude_segment_ids: string[];
  track_open: 'default' | 'on' | 'off';
  track_click: 'default' | 'on' | 'off';
  ab: AbDraft;
};

const trackingOf = (value: boolean | null) => (value === null ? 'default' : value ? 'on' : 'off');
const trackingValue = (value: DraftValues['track_open']) => (value === 'default' ? null : value === 'on');
const orNull = (value: string) => (value.trim() ? value : null);

export function draftValuesOf(campaign: CampaignObject): DraftValues {
  return {
    name: campaign.name,
    content_mode: campaign.template_id ? 'template' : 'inline',
    subject: campaign.subject ?? '',
    preheader: campaign.preheader ?? '',
    content: contentValueOf(campaign),
    text_content: campaign.text_content ?? '',
    is_text_own: !campaign.text_generated,
    template_id: campaign.template_id ?? '',
    from_email: campaign.from?.email ?? '',
    from_name: campaign.from?.name ?? '',
    reply_to_email: campaign.reply_to?.email ?? '',
    reply_to_name: campaign.reply_to?.name ?? '',
    list_ids: campaign.list_ids,
    segment_ids: campaign.segment_ids,
    exclude_list_ids: campaign.exclude_list_ids,
    exclude_segment_ids: campaign.exclude_segment_ids,
    track_open: trackingOf(campaign.tracking.open),
    track_click: trackingOf(campaign.tracking.click),
    ab: abDraftOf(campaign),
  };
}

/**
 * The PUT body for the values: the whole design each time (PUT is partial, so this is simply
 * "everything as shown"). Inline content and a template replace each other, as the API requires.
 */
export function draftBodyOf(values: DraftValues): UpdateCampaignInput {
  const isTemplate = values.content_mode === 'template';
  // A generated text part goes back only once edited: sent as is, it would stop following the body.
  const isTextOwn = values.is_text_own;
  return {
    name: values.name,
    subject: isTemplate ? null : orNull(values.subject),
    preheader: isTemplate ? null : orNull(values.preheader),
    ...(isTemplate ? { format: 'html', html_content: null } : contentBodyOf(values.content)),
    ...(isTemplate || isTextOwn ? { text_content: isTemplate ? null : orNull(values.text_content) } : {}),
    template_id: isTemplate ? orNull(values.template_id) : null,
    from: values.from_email.trim() ? { email: values.from_email.trim(), name: orNull(values.from_name) } : null,
    reply_to: values.reply_to_email.trim()
      ? { email: values.reply_to_email.trim(), name: orNull(values.reply_to_name) }
      : null,
    list_ids: values.list_ids,
    segment_ids: values.segment_ids,
    exclude_list_ids: values.exclude_list_ids,
    exclude_segment_ids: values.exclude_segment_ids,
    tracking: { open: trackingValue(values.track_open), click: trackingValue(values.track_click) },
    ...abBodyOf(values.ab),
  };
}

const FORM_FIELD: Record<string, keyof DraftValues> = {
  'from.email': 'from_email',
  'from.name': 'from_name',
  'reply_to.email': 'reply_to_email',
  'reply_to.name': 'reply_to_name',
  'tracking.open': 'track_open',
  'tracking.click': 'track_click',
};

/** The form field an API field (`from.email`, `list_ids.0`) is shown on. */
export function formFieldOf(apiField: string): keyof DraftValues | null {
  if (FORM_FIELD[apiField]) return FORM_FIELD[apiField];
  const root = apiField.split('.')[0];
  if (root === 'from') return 'from_email';
  if (root === 'reply_to') return 'reply_to_email';
  if (root === 'tracking') return 'track_open';
  if (root === 'variants' || root === 'ab_test') return 'ab';
  if (['format', 'html_content', 'markdown_content', 'blocks_content'].includes(root)) return 'content';
  return ['name', 'subject', 'preheader', 'text_content', 'template_id', ...AUDIENCE_FIELDS].includes(root)
    ? (root as keyof DraftValues)
    : null;
}

/** The API's own schema over the body: errors by form field, before a request is made. */
export function checkDraftBody(body: UpdateCampaignInput): { field: keyof DraftValues | null; message: string }[] {
  const parsed = updateCampaignSchema.safeParse(body);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => ({ field: formFieldOf(issue.path.join('.')), message: issue.message }));
}
