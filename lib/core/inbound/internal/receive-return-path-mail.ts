import { unsafeUnsubscribeRecipient } from '@/lib/core/campaigns/unsubscribe-recipient';
import type { Services } from '@/lib/core/context';
import { unsafeRecordMessageBounce } from '@/lib/core/messages/internal/record-message-bounce';
import { unsafeRecordMessageComplaint } from '@/lib/core/messages/internal/record-message-complaint';
import {
  returnPathToken,
  unsafeFindReportedMessage,
  type ReportClues,
  type ReportedMessage,
} from './find-reported-message';
import { parseReturnPathMail, type ParsedReturnPathMail, type Report } from './parse-report';
import { readDeliveryStatus } from './read-delivery-status';
import { angleAddress, typedAddress, typedText, type FieldBlock } from './report-fields';

/** A message our MX accepted for an address at one of our return-path hosts (`bounces+TOKEN@…`, `unsubscribe@…`). */
export type ReturnPathMail = {
  /** The envelope recipient, lower-cased: `bounces+TOKEN@rp.example.com` or `unsubscribe@rp.example.com`. */
  recipient: string;
  /** The envelope sender (empty for a DSN, as RFC 5321 wants). */
  sender: string;
  raw: Buffer;
};

export type ReturnPathOutcome = {
  kind: 'bounce' | 'complaint' | 'unsubscribe' | 'ignored';
  messageId: string | null;
  reason: string;
};

type Job = {
  mail: ReturnPathMail;
  local: string;
  host: string;
  parsed: ParsedReturnPathMail;
  message: ReportedMessage | null;
};
type Step = {
  name: string;
  run: (job: Job, services: Services) => Promise<ReturnPathOutcome | void> | ReturnPathOutcome | void;
};

// RFC 5965 section 7.3's types; `not-spam` and DMARC's `auth-failure` (RFC 6591) are no complaint.
const COMPLAINT_TYPES = new Set(['abuse', 'fraud', 'virus', 'other']);
const UNSUBSCRIBE_SUBJECT = /^unsubscribe\s+(\S{1,512})$/i;

const ignored = (reason: string, message: ReportedMessage | null = null): ReturnPathOutcome => ({
  kind: 'ignored',
  messageId: message?.id ?? null,
  reason,
});

/** What the mail does, as ordered named steps; the first step with an outcome ends it. */
const STEPS: Step[] = [
  {
    name: 'read the envelope recipient',
    run: (job) => {
      const at = job.mail.recipient.lastIndexOf('@');
      if (at <= 0 || at === job.mail.recipient.length - 1) return ignored('the envelope recipient is not an address');
      job.local = job.mail.recipient.slice(0, at).toLowerCase();
      job.host = job.mail.recipient
        .slice(at + 1)
        .toLowerCase()
        .replace(/\.$/, '');
    },
  },
  {
    name: 'parse the mail',
    run: async (job) => {
      job.parsed = await parseReturnPathMail(job.mail.raw);
    },
  },
  {
    name: 'unsubscribe by mail',
    run: async (job, services) => {
      if (job.local !== 'unsubscribe') return;
      // The List-Unsubscribe mailto of campaign mail: the subject carries the one-click link's signed token.
      const token = UNSUBSCRIBE_SUBJECT.exec(job.parsed.subject)?.[1];
      if (!token) return ignored('an unsubscribe mail without "unsubscribe TOKEN" as its subject');
      const target = await unsafeUnsubscribeRecipient(services, token, {
        isEverything: false,
        source: 'unsubscribe_mailto',
      });
      if (!target) return ignored('an unsubscribe mail whose token is not ours');
      return {
        kind: 'unsubscribe',
        messageId: null,
        reason: `unsubscribed from the lists of campaign ${target.campaignId}`,
      };
    },
  },
  {
    name: 'check the report',
    run: (job) => (job.parsed.report.kind === 'none' ? ignored(job.parsed.report.reason) : undefined),
  },
  {
    name: 'find the message',
    run: async (job, services) => {
      if (job.local.startsWith('bounces+') && !returnPathToken(job.mail.recipient))
        return ignored('the envelope recipient carries a malformed return-path token');
      const found = await unsafeFindReportedMessage(services.db, clues(job));
      if ('reason' in found) return ignored(found.reason);
      if (found.message.isSandbox)
        return ignored('sandbox messages never leave the host; a report about one is forged', found.message);
      job.message = found.message;
    },
  },
  {
    name: 'apply the report',
    run: async (job, services) => {
      const report = job.parsed.report;
      const message = job.message!;
      const at = services.now();
      if (report.kind === 'delivery-status') {
        const verdict = readDeliveryStatus(report, message.recipient);
        if (verdict.kind === 'ignore') return ignored(verdict.reason, message);
        if (message.status !== 'delivered')
          return ignored(`the message is ${message.status}: only a delivered message can bounce later`, message);
        const isBounced = await unsafeRecordMessageBounce(services, message, { ...verdict, at });
        return isBounced
          ? { kind: 'bounce', messageId: message.id, reason: `${verdict.classification}: ${verdict.log}` }
          : ignored('the message was already bounced', message);
      }
      if (report.kind === 'feedback-report') {
        const feedbackType = (report.fields.get('feedback-type') ?? '').toLowerCase().split(/[\s;(]/)[0];
        if (!COMPLAINT_TYPES.has(feedbackType))
          return ignored(`Feedback-Type "${feedbackType.slice(0, 40)}" is not a complaint`, message);
        if (!message.sentAt)
          return ignored(
            `the message is ${message.status} and was never sent: a complaint about it is forged`,
            message,
          );
        const reporter = (
          typedText(report.fields.get('reporting-mta')) ??
          report.fields.get('user-agent') ??
          'an unnamed reporter'
        ).slice(0, 100);
        const complained = await unsafeRecordMessageComplaint(services, message, { feedbackType, reporter, at });
        return complained
          ? { kind: 'complaint', messageId: message.id, reason: `${feedbackType} reported by ${reporter}` }
          : ignored('a complaint about the message was already recorded', message);
      }
    },
  },
];

/**
 * What a DSN (RFC 3464), a complaint (ARF, RFC 5965) or an unsubscribe mail to the return path does.
 * Called by the MX once the message is received; never throws for a malformed report (it is ignored
 * with a reason), so the MX can answer 250 and the sender does not retry. Database errors do throw:
 * the MX answers 451 and the sender tries again later.
 */
export async function receiveReturnPathMail(services: Services, mail: ReturnPathMail): Promise<ReturnPathOutcome> {
  const job: Job = {
    mail,
    local: '',
    host: '',
    parsed: { subject: '', report: { kind: 'none', reason: 'not parsed' } },
    message: null,
  };
  let outcome: ReturnPathOutcome = ignored('no step decided');
  for (const step of STEPS) {
    const result = await step.run(job, services);
    if (result) {
      outcome = result;
      break;
    }
  }
  services.logger.info({ recipient: mail.recipient, outcome }, 'return-path mail received');
  return outcome;
}

/** Where the report points: the envelope's token, then what it quotes of the original. */
function clues(job: Job): ReportClues {
  const report = job.parsed.report as Exclude<Report, { kind: 'none' }>;
  const original: FieldBlock = report.original ?? new Map();
  const quoted = [angleAddress(original.get('return-path'))];
  const recipients: (string | null)[] = [];
  if (report.kind === 'delivery-status') {
    for (const block of report.recipients)
      recipients.push(typedAddress(block.get('original-recipient')), typedAddress(block.get('final-recipient')));
  } else {
    quoted.push(angleAddress(report.fields.get('original-mail-from')));
    recipients.push(angleAddress(report.fields.get('original-rcpt-to')), angleAddress(original.get('to')));
  }
  return {
    host: job.host,
    envelopeToken: returnPathToken(job.mail.recipient),
    quotedTokens: quoted.map(returnPathToken).filter((token): token is string => token !== null),
    messageIdHeader: /<[^<>\s]{1,500}>/.exec(original.get('message-id') ?? '')?.[0] ?? null,
    recipients: recipients.filter((address): address is string => address !== null),
  };
}
