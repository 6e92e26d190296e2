/**
 * What the MX refuses to read. Mail over these limits is refused for good (5xx), never deferred: the
 * same bytes would fail the same way on every retry, and the sender would retry for days. The header
 * and part limits are mailparser's own defaults, made explicit; 50 hops is Postfix's hopcount_limit.
 */
export const INBOUND_MESSAGE_LIMITS = { headerBytes: 1024 * 1024, mimeParts: 1000, receivedHeaders: 50 } as const;

export type InboundMessageRefusal =
  /** A header section (the message's or a MIME part's) over `headerBytes`: 552 5.3.4. */
  | { kind: 'header_too_large'; reason: string }
  /** More than `mimeParts` MIME parts (however nested), or MIME the parser cannot read: 554 5.6.0. */
  | { kind: 'too_complex'; reason: string }
  /** More than `receivedHeaders` Received fields, a mail loop: 554 5.4.6. */
  | { kind: 'too_many_hops'; reason: string };

const HEADER_END = /\r?\n\r?\n/;
const RECEIVED_FIELD = /^received[ \t]*:/i;

/**
 * The checks on the message's own header section, before anything parses it: its size, and how many
 * Received fields it carries. Reads at most `headerBytes` of the message.
 */
export function checkInboundMessage(raw: Buffer): InboundMessageRefusal | null {
  const { headerBytes, receivedHeaders } = INBOUND_MESSAGE_LIMITS;
  // latin1 maps each byte to one character, so string offsets are byte offsets.
  const start = raw.subarray(0, headerBytes + 4).toString('latin1');
  // A message that opens with an empty line has no header fields at all.
  const end = /^\r?\n/.test(start) ? { index: 0 } : HEADER_END.exec(start);
  if (end ? end.index > headerBytes : raw.length > headerBytes) return headerTooLarge();
  const header = end ? start.slice(0, end.index) : start;
  let received = 0;
  for (const line of header.split('\n')) if (RECEIVED_FIELD.test(line)) received += 1;
  if (received > receivedHeaders)
    return {
      kind: 'too_many_hops',
      reason: `too many hops: ${received} Received headers, at most ${receivedHeaders} (a mail loop?)`,
    };
  return null;
}

function headerTooLarge(where = 'the message'): InboundMessageRefusal {
  return {
    kind: 'header_too_large',
    reason: `the header section of ${where} exceeds ${INBOUND_MESSAGE_LIMITS.headerBytes} bytes`,
  };
}
