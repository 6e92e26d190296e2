import type { VerbContext } from '@/lib/core/context';
import { normalizeEmailAddress } from '@/lib/core/shared/email-address';
import type { TemplateRenderer } from '@/lib/core/templates/engine/template-renderer';
import type { AppError } from '@/lib/shared/errors';
import { invalidInput } from '@/lib/shared/errors';
import { acceptMessages, type AcceptedRecipient } from './accept-messages';
import { assertWithinMonthlyCredit } from './assert-within-monthly-credit';
import { decodeAttachments } from './decode-attachments';
import { splitHeaders } from './message-headers';
import { assertContentRenders } from '../render-content';
import type { ReputationShield } from '../reputation-shield';
import { resolveSchedule } from './resolve-schedule';
import { resolveSendOptions } from './resolve-send-options';
import { resolveSender } from './resolve-sender';
import type { SendMessageInput } from '../schemas';

// Helpers the send verbs share (v2 send, conversation, v1 send); not verbs themselves.

type ContentInput = Pick<
  SendMessageInput,
  'text_content' | 'html_content' | 'amp_content' | 'headers' | 'reply_to' | 'attachments'
> & {
  subject: string;
  substitutions?: Record<string, unknown> | null;
  recipients?: { email?: string; substitutions?: Record<string, unknown> | null }[];
};

type Address = { email: string; name: string | null };

export type SendRequest = {
  from: { email: string; name?: string | null };
  content: ContentInput;
  /** v1 names inline images by a bare content id; v2 wants it in angle brackets. */
  isBareContentIdInline?: boolean;
  /** Body fields that decide sandbox, tags, tracking and retention (over headers, over the account). */
  options: Parameters<typeof resolveSendOptions>[0];
  schedule?: { first_attempt?: string | null; expires?: string | null } | null;
  /**
   * Envelope recipients whose addresses the verb has already checked, or the verb's screening of
   * them by the account's Reputation Shield, which is read with the sender domain (one query less).
   */
  recipients: AcceptedRecipient[] | ((shield: ReputationShield) => AcceptedRecipient[]);
  /** Thrown, after the sender checks, when no recipient is left; without it nothing is queued. */
  noRecipients?: () => AppError;
  /** Conversation: the To and Cc headers as given, and one Message-ID for every envelope recipient. */
  conversation?: { to: Address[]; cc: Address[] };
};

/**
 * What every send path does once it knows its recipients: content rules (templates compiled and
 * trial-rendered), the sender domain (the account's, verified, not paused), the monthly credit, the
 * schedule and the options, then one acceptance that makes the mail durable.
 */
export async function acceptFromSender(ctx: VerbContext, request: SendRequest) {
  const now = ctx.now();
  const prepared = await prepareContent(ctx.renderer, request.content, request.isBareContentIdInline);
  const sender = await resolveSender(ctx.db, ctx.principal.targetAccountId, request.from.email);
  const schedule = resolveSchedule(request.schedule, now);
  const recipients = typeof request.recipients === 'function' ? request.recipients(sender.account) : request.recipients;
  if (recipients.length === 0) {
    if (request.noRecipients) throw request.noRecipients();
    return { rows: [], schedule };
  }
  await assertWithinMonthlyCredit(ctx.db, sender.account, recipients.length, now, ctx);
  const { conversation } = request;
  const options = resolveSendOptions(request.options, {
    principal: ctx.principal,
    control: prepared.control,
    account: sender.account,
    schedule,
  });
  const rows = await acceptMessages(ctx.db, {
    accountId: ctx.principal.targetAccountId,
    sender: { email: sender.email, domainId: sender.domain.id, domain: sender.domain.domain },
    subject: request.content.subject,
    content: {
      kind: 'structured',
      structured: {
        ...prepared.structured,
        from: { email: sender.email, name: request.from.name ?? null },
        ...(conversation ? { to: conversation.to, ...(conversation.cc.length ? { cc: conversation.cc } : {}) } : {}),
      },
      globalSubstitutions: prepared.isTemplated ? (request.content.substitutions ?? null) : null,
      isTemplated: prepared.isTemplated,
    },
    recipients,
    options: conversation ? { ...options, isOneMessage: true } : options,
    now,
  });
  return { rows, schedule };
}

/**
 * Body rules beyond field types, and the content in the form the worker builds MIME from. With
 * substitutions the parts are templates: compiled and rendered for every recipient here (a 400 if
 * one cannot be), and rendered again for each message at delivery.
 */
async function prepareContent(renderer: TemplateRenderer, input: ContentInput, isBareContentIdInline = false) {
  if (!input.text_content && !input.html_content) {
    throw invalidInput(
      input.amp_content
        ? 'amp_content cannot be the only body: add text_content or html_content'
        : 'Either text_content or html_content is required',
      'text_content',
    );
  }
  const { custom, control } = splitHeaders(input.headers);
  if (input.reply_to && custom.some(([name]) => name.toLowerCase() === 'reply-to')) {
    throw invalidInput('reply_to: give either reply_to or a Reply-To header, not both', 'reply_to');
  }
  let replyTo: Address | null = null;
  if (input.reply_to) {
    const address = normalizeEmailAddress(input.reply_to.email);
    if (!address.ok) throw invalidInput(`reply_to.email: ${address.reason}`, 'reply_to');
    replyTo = { email: address.email, name: input.reply_to.name ?? null };
  }
  const isTemplated =
    input.substitutions != null || (input.recipients ?? []).some((recipient) => recipient.substitutions != null);
  if (isTemplated) {
    const parts = {
      subject: input.subject,
      text: input.text_content ?? null,
      html: input.html_content ?? null,
      amp: input.amp_content ?? null,
    };
    await assertContentRenders(renderer, parts, input.substitutions, input.recipients ?? []);
  }
  return {
    isTemplated,
    control,
    structured: {
      subject: input.subject,
      text: input.text_content ?? null,
      html: input.html_content ?? null,
      amp: input.amp_content ?? null,
      replyTo,
      headers: custom,
      attachments: decodeAttachments(input.attachments, isBareContentIdInline),
    },
  };
}
