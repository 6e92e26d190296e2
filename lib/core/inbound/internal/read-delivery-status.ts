import { classifyBounce, type BounceClassification } from '@/lib/core/messages/classify-bounce';
import type { FieldBlock } from './report-fields';
import { typedAddress, typedText } from './report-fields';

export type DeliveryVerdict =
  { kind: 'bounce'; classification: BounceClassification; log: string } | { kind: 'ignore'; reason: string };

const ENHANCED_STATUS = /\b([245])\.(\d{1,3})\.(\d{1,3})\b/;
const LOG_LENGTH = 500;

/**
 * What a DSN (RFC 3464) means for our message to `recipient`: a bounce when the remote gave up
 * (Action: failed), classified as a synchronous reply would be; nothing otherwise. A failure with a
 * 4.x.x status is the remote's retries running out: a bounce, classed soft (TransientFailure), so no
 * suppression. `delayed` is ignored: the remote is still trying, and our state (handed over) holds.
 */
export function readDeliveryStatus(
  report: { perMessage: FieldBlock; recipients: FieldBlock[] },
  recipient: string,
): DeliveryVerdict {
  const blocks = blocksFor(report.recipients, recipient);
  if (blocks.length === 0)
    return { kind: 'ignore', reason: 'the report has no per-recipient fields for the message recipient' };
  const failed = blocks.find((block) => action(block) === 'failed');
  if (!failed) {
    const actions = [...new Set(blocks.map(action))].join(', ');
    if (actions.includes('delayed'))
      return {
        kind: 'ignore',
        reason: 'delayed: the reporting server is still trying; only a final failure changes the message',
      };
    return { kind: 'ignore', reason: `Action ${actions || '(none)'}: not a failure` };
  }
  const status = ENHANCED_STATUS.exec(failed.get('status') ?? '')?.[0] ?? null;
  const diagnostic = typedText(failed.get('diagnostic-code'));
  const classification = classify(status, diagnostic);
  const reporter =
    typedText(report.perMessage.get('reporting-mta')) ?? typedText(failed.get('remote-mta')) ?? 'unknown reporting MTA';
  const log = `DSN from ${reporter}: ${[status, diagnostic].filter(Boolean).join(' ') || 'failed'}`.slice(
    0,
    LOG_LENGTH,
  );
  return { kind: 'bounce', classification, log };
}

/** The blocks about this recipient (original recipient first, then final); a lone block is taken as ours. */
function blocksFor(recipients: FieldBlock[], recipient: string): FieldBlock[] {
  const byOriginal = recipients.filter((block) => typedAddress(block.get('original-recipient')) === recipient);
  if (byOriginal.length) return byOriginal;
  const byFinal = recipients.filter((block) => typedAddress(block.get('final-recipient')) === recipient);
  if (byFinal.length) return byFinal;
  // The token already names the message; a forwarder may report the address it forwarded to.
  return recipients.length === 1 ? recipients : [];
}

function action(block: FieldBlock): string {
  return (block.get('action') ?? '').toLowerCase().split(/[\s(;]/)[0];
}

/** The Status field decides; a generic x.0.0 gives way to a detailed code of the same class in the diagnostic. */
function classify(status: string | null, diagnostic: string | null): BounceClassification {
  let enhanced = status;
  const detailed = diagnostic ? ENHANCED_STATUS.exec(diagnostic) : null;
  if (detailed && (!enhanced || (enhanced.endsWith('.0.0') && detailed[1] === enhanced[0]))) enhanced = detailed[0];
  const code = diagnostic ? /^([245]\d\d)\b/.exec(diagnostic)?.[1] : undefined;
  if (enhanced) return classifyBounce(enhanced, code ? Number(code) : undefined);
  return classifyBounce(diagnostic ?? '', code ? Number(code) : 550);
}
