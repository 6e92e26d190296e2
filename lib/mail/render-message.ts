import { buildMime, buildSharedMime, personalizeSharedMime, type MessageToBuild } from '@/lib/core/messages/build-mime';
import { addTracking, signTrackingToken, trackingBaseUrl } from '@/lib/core/tracking/tracking-links';
import { messageLinks } from '@/lib/db/schema';
import type { ClaimedMessage } from './claim-due-messages';
import type { BatchContext } from './batch-context';

/**
 * The message's bytes before signing, by the cheapest way that is right for it:
 * - raw content (SMTP submission) as received;
 * - without substitutions or tracking, one encoding per content, personalised by To and Message-ID;
 * - otherwise rendered for this recipient, with tracked links (stored) and the open pixel.
 */
export async function renderMessage(message: ClaimedMessage, batch: BatchContext): Promise<Buffer | { failure: string }> {
  const content = batch.contents.get(message.contentId);
  if (!content) return { failure: 'the message content is no longer stored' };
  if (content.kind === 'raw') return Buffer.from(content.raw ?? '', 'utf8');
  const structured = content.structured!;
  const isTracked = structured.html !== null && (message.trackOpens || message.trackClicks);

  if (!content.isTemplated && !isTracked) {
    const dateKey = message.firstAttemptAt.getTime();
    let shared = content.shared.get(dateKey);
    if (!shared) {
      shared = buildSharedMime(structured, message.firstAttemptAt);
      content.shared.set(dateKey, shared);
    }
    const prebuilt = await shared;
    if (prebuilt) return personalizeSharedMime(prebuilt, message);
  }

  const build: MessageToBuild = {
    messageIdHeader: message.messageIdHeader,
    recipient: message.recipient,
    recipientName: message.recipientName,
    substitutions: message.substitutions,
    date: message.firstAttemptAt,
  };
  let links: string[] = [];
  if (isTracked) {
    // Signed URLs that name the message (and the link's position), never the link itself.
    const key = batch.services.secrets.deriveKey('tracking-links');
    const base = trackingBaseUrl(batch.domains.get(message.domainId)!, batch.services.config);
    build.transformHtml = (html) => {
      const tracked = addTracking(html, {
        isClickTracked: message.trackClicks,
        isOpenTracked: message.trackOpens,
        clickUrl: (position) => `${base}/t/c/${signTrackingToken(key, message.id, position)}`,
        openUrl: `${base}/t/o/${signTrackingToken(key, message.id)}`,
      });
      links = tracked.links;
      return tracked.html;
    };
  }
  const raw = await buildMime(structured, content.compiled, content.globalSubstitutions, build);
  if (links.length) {
    await batch.db.insert(messageLinks).values(links.map((url, position) => ({ messageId: message.id, position, url }))).onConflictDoNothing();
  }
  return raw;
}
