/**
 * Messages built to break an MX's parser or to loop, as raw RFC 5322 text (CRLF, dot-stuffing left
 * to whoever sends them): each is small on the wire compared with what naive parsing of it costs.
 */
const head = (to: string, extra = '') =>
  `From: mallory@example.org\r\nTo: ${to}\r\nSubject: hostile\r\nMessage-ID: <${Math.random().toString(36).slice(2)}@example.org>\r\n${extra}MIME-Version: 1.0\r\n`;

/** multipart/mixed inside multipart/mixed, `depth` times, a text part at the bottom. */
export function deeplyNestedMail(to: string, depth: number): string {
  let open = '';
  let close = '';
  for (let level = 0; level < depth; level++) {
    open += `Content-Type: multipart/mixed; boundary="n${level}"\r\n\r\n--n${level}\r\n`;
    close = `\r\n--n${level}--\r\n${close}`;
  }
  return `${head(to)}${open}Content-Type: text/plain\r\n\r\nthe bottom${close}`;
}

/** One multipart/mixed with `parts` tiny text parts. */
export function manyPartsMail(to: string, parts: number): string {
  const body: string[] = [];
  for (let part = 0; part < parts; part++) body.push(`--p\r\nContent-Type: text/plain\r\n\r\n${part}\r\n`);
  return `${head(to)}Content-Type: multipart/mixed; boundary="p"\r\n\r\n${body.join('')}--p--\r\n`;
}

/** A header section of about `bytes`, as one folded X-Padding field. */
export function hugeHeaderMail(to: string, bytes: number): string {
  const lines = Math.ceil(bytes / 78);
  return `${head(to, `X-Padding: start\r\n${' padding-padding-padding-padding-padding-padding-padding-padding-padding-pad\r\n'.repeat(lines)}`)}Content-Type: text/plain\r\n\r\nsmall body\r\n`;
}

/** A message that has been through `hops` relays (a Received field per hop, newest first). */
export function loopingMail(to: string, hops: number): string {
  const received = Array.from(
    { length: hops },
    (_, hop) =>
      `Received: from relay${hop}.example.org (relay${hop}.example.org [192.0.2.${hop % 250}])\r\n\tby relay${hop + 1}.example.org; Mon, 6 May 2024 13:15:${String(hop % 60).padStart(2, '0')} +0000\r\n`,
  ).join('');
  return `${received}${head(to)}Content-Type: text/plain\r\n\r\ngoing round\r\n`;
}

/** SMTP DATA for a raw message: lines starting with "." doubled, then the terminating dot. */
export function dataBlock(raw: string): string {
  return `${raw.replace(/\r\n\./g, '\r\n..').replace(/\r\n$/, '')}\r\n.`;
}
