type ZoneRecord = { type: string; host: string; content: string; priority?: number; label?: string; required: boolean };

const quote = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * The records as a BIND zone-file fragment, ready to paste or import. Long TXT values are split
 * into 255-byte strings, as DNS requires; names are absolute (trailing dot).
 */
export function toZoneFile(domain: string, records: ZoneRecord[], ttl = 3600): string {
  const lines = [
    `; DNS records for ${domain}, from Mailstead`,
    `; required: SPF, DKIM, DMARC. The others enable return path, tracking and inbound mail.`,
    `$TTL ${ttl}`,
  ];
  for (const record of records) {
    const owner = `${record.host}.`;
    lines.push(`; ${record.label ?? record.type}${record.required ? ' (required)' : ' (optional)'}`);
    if (record.type === 'TXT') {
      const chunks = record.content.match(/.{1,255}/gs) ?? [''];
      lines.push(`${owner}\tIN\tTXT\t${chunks.length === 1 ? quote(chunks[0]) : `( ${chunks.map(quote).join(' ')} )`}`);
    } else if (record.type === 'MX') {
      lines.push(`${owner}\tIN\tMX\t${record.priority ?? 10} ${record.content}.`);
    } else {
      lines.push(`${owner}\tIN\t${record.type}\t${record.content}.`);
    }
  }
  return lines.join('\n') + '\n';
}
