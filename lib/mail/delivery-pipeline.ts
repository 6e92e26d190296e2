import { and, eq, inArray } from 'drizzle-orm';
import { DKIM_KEY_PURPOSE } from '@/lib/core/domains/dkim-keys';
import { findSuppressed } from '@/lib/core/suppressions/find-suppressed';
import type { Db } from '@/lib/db/client';
import { dkimKeys, domains, messageContents } from '@/lib/db/schema';
import type { ClaimedMessage } from './claim-due-messages';
import { classifyBounce } from '@/lib/core/messages/classify-bounce';
import { observeSmtpResponse, smtpReplyClass } from '@/lib/shared/metrics';
import type { BatchContext } from './batch-context';
import { classifyThrottlingReply } from './classify-throttling-reply';
import type { MessageSource } from './build-signed-message';
import type { Outcome } from './outcome';
import { renderMessage, renderTemplatedMessages } from './render-message';
import { returnPathHost } from './return-path';
import { cachedDkimKey } from './sign-dkim';
import type { SendResult } from './smtp-pool';
import type { WarmupHold } from './warmup-gate';

type Domain = typeof domains.$inferSelect;

/** One message going through the steps; `recorded` is set once its outcome went to the writer. */
type Job = { message: ClaimedMessage; source?: MessageSource; raw?: Buffer; recorded?: Promise<void> };
type Result = Outcome | WarmupHold;
type Step = { name: string; run: (job: Job, batch: BatchContext) => Promise<Result | null | void> | Result | void };

const SANDBOX_OUTCOMES: Record<string, Outcome> = {
  deliver: { kind: 'delivered', log: '250 2.0.0 sandbox: accepted, nothing was sent' },
  bounce: { kind: 'bounced', log: '550 5.1.1 sandbox: simulated hard bounce', classification: 'InvalidRecipient' },
  defer: { kind: 'deferred', log: '451 4.3.0 sandbox: simulated temporary failure', isFinal: true },
  fail: { kind: 'failed', log: 'sandbox: simulated permanent failure' },
  suppress: { kind: 'suppressed', log: 'sandbox: simulated suppressed recipient' },
};

/** The delivery of one message, as ordered named steps; the first step with an outcome ends it. */
const STEPS: Step[] = [
  {
    name: 'check expiry',
    run: ({ message }, { now }) =>
      now >= message.expiresAt ? { kind: 'failed', log: 'expired before it could be delivered' } : undefined,
  },
  {
    name: 'check domain',
    run: ({ message }, { domains }) => {
      const domain = domains.get(message.domainId);
      if (!domain || domain.deletedAt)
        return { kind: 'failed', log: `the sender domain ${message.senderDomain} was deleted` };
      if (domain.isPaused) return { kind: 'failed', log: `the sender domain ${message.senderDomain} is paused` };
    },
  },
  {
    name: 'check suppressions',
    run: ({ message }, { suppressed }) => {
      const reason = suppressed.get(`${message.accountId}|${message.senderDomain}|${message.recipient}`);
      if (reason) return { kind: 'suppressed', log: `the recipient is suppressed: ${reason}` };
    },
  },
  {
    name: 'simulate sandbox',
    run: ({ message }) =>
      message.isSandbox
        ? (SANDBOX_OUTCOMES[message.sandboxResult ?? 'deliver'] ?? SANDBOX_OUTCOMES.deliver)
        : undefined,
  },
  {
    // Before rendering and signing, which held mail would waste; after the MX lookup that tells the provider.
    name: 'check warm-up',
    run: async ({ message }, batch) => {
      const domain = batch.domains.get(message.domainId)!;
      const isRelayed = batch.destinations.isRelayed;
      if (!batch.warmup?.applies(domain, batch.now, { isRelayed })) return;
      const pool = await batch.destinations.poolFor(message.recipientDomain);
      if (!('send' in pool)) return; // the deliver step answers for it
      const provider = await batch.destinations.warmupProviderOf(message.recipientDomain);
      return batch.warmup.admit(domain, provider, batch.now, { isRelayed });
    },
  },
  {
    name: 'render',
    run: async (job, batch) => {
      try {
        const rendered = await renderMessage(job.message, batch);
        if ('failure' in rendered) return { kind: 'failed', log: rendered.failure };
        job.source = rendered;
      } catch (error) {
        return { kind: 'failed', log: `the message could not be rendered: ${(error as Error).message}`.slice(0, 500) };
      }
    },
  },
  {
    name: 'build MIME and sign DKIM',
    run: async (job, { keys, domains, services, mail }) => {
      const key = keys.get(job.message.domainId);
      if (!key) return { kind: 'failed', log: 'the sender domain has no active DKIM key' };
      const dkimKey = cachedDkimKey(key.id, () => services.secrets.decrypt(DKIM_KEY_PURPOSE, key.privateKeyEncrypted));
      const signed = await mail.build(job.source!, {
        domain: domains.get(job.message.domainId)!.domain,
        selector: key.selector,
        key: dkimKey,
      });
      if ('failure' in signed) return { kind: 'failed', log: signed.failure };
      job.raw = signed.raw as Buffer;
    },
  },
  {
    name: 'deliver',
    run: async (job, batch) => {
      const pool = await batch.destinations.poolFor(job.message.recipientDomain);
      if (!('send' in pool)) {
        return pool.kind === 'permanent'
          ? { kind: 'bounced', log: pool.reason, classification: 'BadDomain' }
          : { kind: 'deferred', log: pool.reason };
      }
      // The report's provider: the one a message was first counted under stays (record-outcomes.ts).
      const provider = batch.destinations.providerOf(job.message.recipientDomain);
      job.message = { ...job.message, mailboxProvider: job.message.mailboxProvider ?? provider };
      const envelope = {
        from: envelopeSender(job.message, batch.domains.get(job.message.domainId)!),
        to: job.message.recipient,
      };
      return pool.send(envelope, job.raw!, {
        onDataSent: () => batch.onDataSent(job.message.id),
        // Recorded before the connection takes another message: a crash re-sends at most one per connection.
        settle: async (result) => {
          observeSmtpResponse(
            result.kind === 'accepted'
              ? '2xx'
              : result.kind === 'rejected'
                ? smtpReplyClass(result.code)
                : 'unreachable',
          );
          if (result.kind === 'unreachable') batch.destinations.forget(job.message.recipientDomain);
          paceProvider(batch, job.message.recipientDomain, result);
          const outcome = deliveryOutcome(result, job.message.campaignId ? hasOneClickHeader(job.raw!) : undefined);
          job.recorded = batch.recordOutcome(job.message, outcome);
          await job.recorded.catch(() => {}); // the failure reaches runPipeline's caller
          return outcome;
        },
      });
    },
  },
];

/** Feeds the provider's pacing: a throttling reply slows it down, accepted mail brings it back. */
function paceProvider(batch: BatchContext, recipientDomain: string, result: SendResult): void {
  if (result.kind === 'unreachable') return;
  const { pacing } = batch.destinations;
  const key = batch.destinations.pacingKeyOf(recipientDomain);
  if (result.kind === 'accepted') pacing.accepted(key);
  else if (classifyThrottlingReply(result.code, result.response)) pacing.throttled(key, new Date());
}

function deliveryOutcome(result: SendResult, hasOneClick: boolean | undefined): Outcome {
  if (result.kind === 'accepted')
    return { kind: 'delivered', log: `${result.host}: ${result.response}`, isTls: result.isTls, hasOneClick };
  if (result.kind === 'unreachable') return { kind: 'deferred', log: result.reason };
  const log = `${result.host}: ${result.response}`;
  if (result.code < 500) return { kind: 'deferred', log };
  return { kind: 'bounced', log, classification: classifyBounce(result.response, result.code) };
}

/**
 * The envelope sender carries a per-message token, so that a bounce arriving later by mail can be
 * matched to its message. It sits on the domain's return-path subdomain once that record verifies.
 */
export function envelopeSender(message: ClaimedMessage, domain: Domain): string {
  return `bounces+${message.returnPathToken}@${returnPathHost(domain)}`;
}

/**
 * Runs the steps, then records the outcome (unless the deliver step already did); rejects if it could
 * not be recorded. A warm-up hold is not an outcome: the caller writes it (hold-warmup-messages.ts).
 */
export async function runPipeline(message: ClaimedMessage, batch: BatchContext): Promise<Result> {
  // The message record shows the subject this recipient gets (record-outcomes.ts stores it with the
  // outcome), whichever step ends it: sandbox and suppressed mail show it too.
  const personal = batch.rendered.get(message.id);
  const job: Job = { message: personal?.ok ? { ...message, subject: personal.parts.subject } : message };
  const outcome = await runSteps(job, batch);
  if (outcome.kind === 'held') return outcome;
  await (job.recorded ?? batch.recordOutcome(job.message, outcome));
  return outcome;
}

async function runSteps(job: Job, batch: BatchContext): Promise<Result> {
  for (const step of STEPS) {
    try {
      const outcome = await step.run(job, batch);
      if (outcome) return outcome;
    } catch (error) {
      batch.services.logger.error({ err: error, step: step.name, messageId: job.message.id }, 'delivery step failed');
      return { kind: 'deferred', log: `internal error in step "${step.name}"; will retry` };
    }
  }
  return { kind: 'failed', log: 'no step delivered the message' };
}

/** Loads what the batch's messages share, in a few queries, and renders its templated messages in one request. */
export async function loadBatchContext(
  db: Db,
  claimed: ClaimedMessage[],
  base: Omit<BatchContext, 'db' | 'contents' | 'rendered' | 'domains' | 'keys' | 'suppressed'>,
): Promise<BatchContext> {
  const contentIds = [...new Set(claimed.map((message) => message.contentId))];
  const domainIds = [...new Set(claimed.map((message) => message.domainId))];
  const [contentRows, domainRows, keyRows] = await Promise.all([
    db.select().from(messageContents).where(inArray(messageContents.id, contentIds)),
    db.select().from(domains).where(inArray(domains.id, domainIds)),
    db
      .select()
      .from(dkimKeys)
      .where(and(inArray(dkimKeys.domainId, domainIds), eq(dkimKeys.status, 'active'))),
  ]);
  const contents: BatchContext['contents'] = new Map(
    contentRows.map((content) => [content.id, { ...content, shared: new Map() }]),
  );
  const rendered = await renderTemplatedMessages(base.services.renderer, claimed, {
    contents,
    services: base.services,
  });
  const suppressed = new Map<string, string>();
  const groups = new Map<string, ClaimedMessage[]>();
  for (const message of claimed) {
    const key = `${message.accountId}|${message.senderDomain}`;
    groups.set(key, [...(groups.get(key) ?? []), message]);
  }
  for (const [key, group] of groups) {
    const found = await findSuppressed(
      db,
      group[0].accountId,
      group[0].senderDomain,
      group.map((message) => message.recipient),
      base.now,
    );
    for (const [email, reason] of found) suppressed.set(`${key}|${email}`, reason);
  }
  return {
    ...base,
    db,
    contents,
    rendered,
    domains: new Map(domainRows.map((domain) => [domain.id, domain])),
    keys: new Map(keyRows.map((key) => [key.domainId, key])),
    suppressed,
  };
}

const ONE_CLICK_HEADER = '\nlist-unsubscribe-post:';
const ONE_CLICK_AS_WRITTEN = Buffer.from('\nList-Unsubscribe-Post:', 'latin1');
const HEADER_END = Buffer.from('\r\n\r\n', 'latin1');

/** Whether the header block carries List-Unsubscribe-Post (RFC 8058), as sent: the measured one-click rule. */
export function hasOneClickHeader(raw: Buffer): boolean {
  const end = raw.indexOf(HEADER_END);
  const headEnd = end === -1 ? raw.length : end;
  // As unsubscribe-links.ts writes it first (no string copy); any other spelling the slow way.
  const written = raw.indexOf(ONE_CLICK_AS_WRITTEN);
  if (written !== -1 && written < headEnd) return true;
  const head = `\n${raw.subarray(0, headEnd).toString('latin1').toLowerCase()}`;
  return head.includes(ONE_CLICK_HEADER);
}
