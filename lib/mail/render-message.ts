import { buildSharedMime, personalizeSharedHead, type MessageToBuild } from '@/lib/core/messages/build-mime';
import {
  renderContents,
  substitutionContext,
  type RenderedContent,
  type RenderedParts,
} from '@/lib/core/messages/render-content';
import type { TemplateRenderer } from '@/lib/core/templates/engine/template-renderer';
import { addTracking, signTrackingToken, trackingBaseUrl } from '@/lib/core/tracking/tracking-links';
import { UNSUBSCRIBE_VARIABLE } from '@/lib/core/campaigns/campaign-content';
import {
  listUnsubscribeHeaders,
  signUnsubscribeToken,
  UNSUBSCRIBE_KEY_PURPOSE,
} from '@/lib/core/campaigns/unsubscribe-links';
import { messageLinks } from '@/lib/db/schema';
import type { ClaimedMessage } from './claim-due-messages';
import type { MessageSource } from './build-signed-message';
import { returnPathHost } from './return-path';
import type { BatchContext, SharedEncoding } from './batch-context';
import { dkimBodyHash } from './sign-dkim';
import { trackRawMessage } from './track-raw-message';

/**
 * Renders the templated messages of a batch (every part, each with its recipient's data) in one
 * request to the renderer's worker threads. A message whose template fails gets its failure.
 */
export async function renderTemplatedMessages(
  renderer: TemplateRenderer,
  claimed: ClaimedMessage[],
  batch: Pick<BatchContext, 'contents' | 'services'>,
): Promise<Map<string, RenderedContent>> {
  const { contents } = batch;
  const templated = claimed.filter(
    (message) => contents.get(message.contentId)?.isTemplated && contents.get(message.contentId)?.kind === 'structured',
  );
  const results = await renderContents(
    renderer,
    templated.map((message) => {
      const content = contents.get(message.contentId)!;
      const context = substitutionContext(content.globalSubstitutions, message.substitutions);
      const unsubscribe = campaignUnsubscribe(message, batch);
      return {
        parts: content.structured!,
        context: unsubscribe ? { ...context, [UNSUBSCRIBE_VARIABLE]: unsubscribe.url } : context,
      };
    }),
  );
  return new Map(templated.map((message, index) => [message.id, results[index]]));
}

/**
 * What the message's bytes are made from, by the cheapest way that is right for it:
 * - raw content (SMTP submission) as received, its HTML parts tracked when asked;
 * - without substitutions or tracking, one encoding per content (and its DKIM body hash),
 *   personalised by To and Message-ID;
 * - otherwise the parts to compose for this recipient (rendered by renderTemplatedMessages, when
 *   templated), with tracked links (stored) and the open pixel. Composing and signing are left to
 *   the mail builder, which may run them on another thread.
 */
export async function renderMessage(
  message: ClaimedMessage,
  batch: BatchContext,
): Promise<MessageSource | { failure: string }> {
  const content = batch.contents.get(message.contentId);
  if (!content) return { failure: 'the message content is no longer stored' };
  if (content.kind === 'raw') {
    const raw = Buffer.from(content.raw ?? '', 'utf8');
    if (!message.trackOpens && !message.trackClicks) return { raw };
    const tracking = trackingFor(message, batch, null);
    const tracked = await trackRawMessage(raw, tracking.track);
    await tracking.storeLinks(tracked.links);
    return { raw: tracked.raw };
  }
  const structured = content.structured!;
  const isTracked = structured.html !== null && (message.trackOpens || message.trackClicks);

  if (!content.isTemplated && !isTracked) {
    const dateKey = message.firstAttemptAt.getTime();
    let shared = content.shared.get(dateKey);
    if (!shared) {
      shared = shareEncoding(structured, message.firstAttemptAt);
      content.shared.set(dateKey, shared);
    }
    const prebuilt = await shared;
    if (prebuilt)
      return {
        personalized: {
          head: personalizeSharedHead(prebuilt, message),
          body: prebuilt.body,
          bodyHash: prebuilt.bodyHash,
        },
      };
  }

  const unsubscribe = campaignUnsubscribe(message, batch);
  const build: MessageToBuild = {
    messageIdHeader: message.messageIdHeader,
    recipient: message.recipient,
    recipientName: message.recipientName,
    date: message.firstAttemptAt,
    extraHeaders: unsubscribe
      ? listUnsubscribeHeaders(unsubscribe.url, returnPathHost(batch.domains.get(message.domainId)!), unsubscribe.token)
      : [],
  };
  let parts: RenderedParts | null = null;
  if (content.isTemplated) {
    const result = batch.rendered.get(message.id);
    if (!result?.ok)
      return {
        failure: `the template could not be rendered: ${result ? `${result.field}: ${result.failure.message}` : 'no result'}`,
      };
    parts = result.parts;
  }
  const written = parts ?? {
    subject: structured.subject,
    text: structured.text,
    html: structured.html,
    amp: structured.amp,
  };
  if (isTracked && written.html !== null) {
    const tracking = trackingFor(message, batch, unsubscribe);
    const tracked = tracking.track(written.html);
    parts = { ...written, html: tracked.html };
    await tracking.storeLinks(tracked.links);
  }
  return { compose: { content: structured, parts, message: build } };
}

/**
 * Click and open tracking for one message: signed URLs that name the message and the link's
 * position (never the link itself), counted across every HTML document it tracks.
 */
function trackingFor(message: ClaimedMessage, batch: BatchContext, unsubscribe: { url: string } | null) {
  const key = batch.services.secrets.deriveKey('tracking-links');
  const base = trackingBaseUrl(batch.domains.get(message.domainId)!, batch.services.config);
  let positions = 0;
  return {
    track(html: string) {
      const offset = positions;
      const tracked = addTracking(html, {
        isClickTracked: message.trackClicks,
        isOpenTracked: message.trackOpens,
        clickUrl: (position) => `${base}/t/c/${signTrackingToken(key, message.id, offset + position)}`,
        // The unsubscribe link must work on its own, without our click redirect in front of it.
        isUntracked: (href) => href === unsubscribe?.url,
        openUrl: `${base}/t/o/${signTrackingToken(key, message.id)}`,
      });
      positions += tracked.links.length;
      return tracked;
    },
    async storeLinks(links: string[]) {
      if (links.length === 0) return;
      await batch.db
        .insert(messageLinks)
        .values(links.map((url, position) => ({ messageId: message.id, position, url })))
        .onConflictDoNothing();
    },
  };
}

async function shareEncoding(...args: Parameters<typeof buildSharedMime>): Promise<SharedEncoding> {
  const mime = await buildSharedMime(...args);
  return mime && { ...mime, bodyHash: await dkimBodyHash(mime.body) };
}

/** A campaign message's unsubscribe token and URL (on PUBLIC_URL: RFC 8058 wants HTTPS); null for other mail. */
function campaignUnsubscribe(
  message: ClaimedMessage,
  batch: Pick<BatchContext, 'services'>,
): { token: string; url: string } | null {
  if (!message.campaignId || !message.contactId) return null;
  const token = signUnsubscribeToken(
    batch.services.secrets.deriveKey(UNSUBSCRIBE_KEY_PURPOSE),
    message.campaignId,
    message.contactId,
  );
  return { token, url: `${batch.services.config.publicUrl.origin}/u/${token}` };
}
