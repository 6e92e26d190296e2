import type { RollupCounter } from '@/lib/db/schema';

export type ChecklistStatus = 'pass' | 'warn' | 'fail' | 'unknown';

/** One measured rule of the Gmail/Yahoo bulk-sender requirements, as the domain page shows it. */
export type MeasuredChecklistItem = {
  id: string;
  label: string;
  status: ChecklistStatus;
  /** The measured share (0 to 1), null when nothing was measured in the window. */
  value: number | null;
  measured: string;
  threshold: string;
  help: string;
};

type Sums = Record<ChecklistCounter, number>;

/**
 * The measured rules, one entry each: which counters it reads (the sender domain's rollups over
 * CHECKLIST_WINDOW_DAYS) and how they come to a status. A new rule is one more entry.
 */
export const CHECKLIST_COUNTERS = [
  'delivered',
  'complained',
  'deliveredTls',
  'deliveredPlain',
  'campaignDelivered',
  'campaignOneClick',
] as const satisfies readonly RollupCounter[];
export type ChecklistCounter = (typeof CHECKLIST_COUNTERS)[number];

export const CHECKLIST_WINDOW_DAYS = 30;

const percent = (share: number) => `${(share * 100).toFixed(share < 0.01 && share > 0 ? 2 : 1)}%`;
const ofCount = (part: number, whole: number, noun: string) =>
  `${percent(part / whole)} (${part.toLocaleString('en-US')} of ${whole.toLocaleString('en-US')} ${noun})`;

export const MEASURED_CHECKLIST: ((sums: Sums) => MeasuredChecklistItem)[] = [
  ({ campaignDelivered: sent, campaignOneClick: oneClick }) => ({
    id: 'one_click_unsubscribe',
    label: 'One-click unsubscribe on every marketing message',
    status: sent === 0 ? 'unknown' : oneClick === sent ? 'pass' : 'fail',
    value: sent === 0 ? null : oneClick / sent,
    measured: sent === 0 ? 'No campaign messages delivered in 30 days' : ofCount(oneClick, sent, 'campaign messages'),
    threshold: '100% of marketing messages carry List-Unsubscribe-Post (RFC 8058)',
    help: 'Gmail and Yahoo require bulk senders to let recipients unsubscribe in one click. Mailstead adds the headers to every campaign message and signs them with DKIM.',
  }),
  ({ delivered, complained }) => {
    const rate = delivered === 0 ? null : complained / delivered;
    return {
      id: 'complaint_rate',
      label: 'Spam complaint rate below 0.1% (never 0.3%)',
      status: rate === null ? 'unknown' : rate >= 0.003 ? 'fail' : rate >= 0.001 ? 'warn' : 'pass',
      value: rate,
      measured:
        rate === null
          ? 'No messages delivered in 30 days'
          : ofCount(complained, delivered, 'delivered, from ARF reports'),
      threshold: 'Below 0.1%; at 0.3% or above Gmail and Yahoo filter or reject mail',
      help: 'Complaints are the ARF reports mailbox providers send back when a recipient marks a message as spam. Send only to people who asked for your mail and make leaving easy.',
    };
  },
  ({ deliveredTls, deliveredPlain }) => {
    // Both counted since TLS was recorded: older deliveries are in neither, never counted as plain.
    const measured = deliveredTls + deliveredPlain;
    return {
      id: 'tls',
      label: 'TLS on delivery',
      status: measured === 0 ? 'unknown' : deliveredPlain === 0 ? 'pass' : 'warn',
      value: measured === 0 ? null : deliveredTls / measured,
      measured: measured === 0 ? 'No messages delivered in 30 days' : ofCount(deliveredTls, measured, 'delivered'),
      threshold: '100% of deliveries over TLS (STARTTLS)',
      help: 'Gmail requires a TLS connection for transmitting mail. Mailstead uses STARTTLS whenever the receiving server offers it; deliveries without it went to servers that did not.',
    };
  },
];

/**
 * DMARC alignment as reporters saw it (aggregate reports received on our MX, last 30 days). 98%
 * leaves room for forwarded mail, which breaks SPF and sometimes DKIM on the way.
 */
export function dmarcAlignmentItem(report: {
  isEnabled: boolean;
  messages: number;
  passShare: number | null;
}): MeasuredChecklistItem {
  const share = report.messages === 0 ? null : report.passShare;
  return {
    id: 'dmarc_alignment',
    label: 'DMARC alignment (from reports)',
    status: share === null ? 'unknown' : share >= 0.98 ? 'pass' : share >= 0.9 ? 'warn' : 'fail',
    value: share,
    measured: !report.isEnabled
      ? 'Reports are off: turn on DMARC reports below to measure it'
      : share === null
        ? 'No DMARC reports received in 30 days'
        : `${percent(share)} of ${report.messages.toLocaleString('en-US')} messages reported pass DMARC`,
    threshold: '98% or more of the mail reporters saw passes DMARC (SPF or DKIM aligned)',
    help: 'Gmail and Yahoo require DMARC to pass for bulk mail. Sources that fail are listed under DMARC reports: a service sending as your domain without its own SPF or DKIM, or someone spoofing it.',
  };
}
