/** One header field of a message as received: its name, its unfolded value, and its lines as they came. */
export type RawHeader = { name: string; value: string; lines: string };

export type RawMessage = { headers: RawHeader[]; body: string; eol: string };

/**
 * Splits RFC 5322 input into header fields and body without re-encoding anything, so that the
 * fields kept and the body go out byte for byte as the client wrote them (DKIM signs those bytes).
 */
export function parseRawMessage(raw: string): RawMessage | null {
  const end = /\r?\n\r?\n/.exec(raw);
  const headerText = end ? raw.slice(0, end.index) : raw;
  const body = end ? raw.slice(end.index + end[0].length) : '';
  const eol = end?.[0].startsWith('\r\n') ? '\r\n' : '\n';
  const headers: RawHeader[] = [];
  for (const line of headerText.split(/\r?\n/)) {
    const previous = headers.at(-1);
    if (/^[ \t]/.test(line) && previous) {
      previous.lines += eol + line;
      previous.value = `${previous.value} ${line.trim()}`.trim();
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) return null;
    headers.push({ name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim(), lines: line });
  }
  return { headers, body, eol };
}

/** The message again, with the given header fields first and the body unchanged. */
export function formatRawMessage(message: RawMessage, added: [string, string][] = []): string {
  const lines = [
    ...added.map(([name, value]) => `${name}: ${value}`),
    ...message.headers.map((header) => header.lines),
  ];
  return lines.join(message.eol) + message.eol + message.eol + message.body;
}

/** The first field of that name (case-insensitive), unfolded. */
export function headerValue(message: RawMessage, name: string): string | undefined {
  const lower = name.toLowerCase();
  return message.headers.find((header) => header.name.toLowerCase() === lower)?.value;
}
