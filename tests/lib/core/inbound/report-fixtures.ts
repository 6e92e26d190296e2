import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Hand-written reports (after the RFC examples and what Postfix and big mailbox providers send), with {{NAME}} placeholders. */
export function fixture(name: string, vars: Record<string, string>): Buffer {
  const text = readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8').replace(
    /\{\{([A-Z_]+)\}\}/g,
    (_, key: string) => {
      if (!(key in vars)) throw new Error(`fixture ${name} needs ${key}`);
      return vars[key];
    },
  );
  return Buffer.from(text.replace(/\r?\n/g, '\r\n'));
}

export type RecipientBlock = {
  final?: string;
  original?: string;
  action: string;
  status?: string;
  diagnostic?: string;
  extra?: string[];
};

/** A multipart/report; report-type=delivery-status (RFC 3464), built part by part. */
export function buildDsn(options: {
  to: string;
  recipients: RecipientBlock[];
  reportingMta?: string;
  /** The returned original's header lines (message/rfc822), or null for none. */
  original?: string[] | null;
  originalType?: string;
  reportType?: string;
}): Buffer {
  const boundary = 'dsn-boundary-1';
  const blocks = options.recipients.map((block) =>
    [
      block.final ? `Final-Recipient: rfc822; ${block.final}` : null,
      block.original ? `Original-Recipient: rfc822;${block.original}` : null,
      `Action: ${block.action}`,
      block.status ? `Status: ${block.status}` : null,
      block.diagnostic ? `Diagnostic-Code: smtp; ${block.diagnostic}` : null,
      ...(block.extra ?? []),
    ]
      .filter((line) => line !== null)
      .join('\r\n'),
  );
  const parts = [
    `--${boundary}\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\nDelivery report.\r\n`,
    `--${boundary}\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; ${options.reportingMta ?? 'mx.example.net'}\r\n\r\n${blocks.join('\r\n\r\n')}\r\n`,
  ];
  if (options.original)
    parts.push(
      `--${boundary}\r\nContent-Type: ${options.originalType ?? 'message/rfc822'}\r\n\r\n${options.original.join('\r\n')}\r\n\r\nbody\r\n`,
    );
  return Buffer.from(
    [
      'From: MAILER-DAEMON@mx.example.net',
      `To: ${options.to}`,
      'Subject: Delivery Status Notification',
      'MIME-Version: 1.0',
      `Content-Type: multipart/report; report-type=${options.reportType ?? 'delivery-status'}; boundary="${boundary}"`,
      '',
      ...parts,
      `--${boundary}--`,
      '',
    ].join('\r\n'),
  );
}

/** A multipart/report; report-type=feedback-report (RFC 5965). */
export function buildArf(options: { to: string; fields: string[]; original?: string[] | null }): Buffer {
  const boundary = 'arf-boundary-1';
  const parts = [
    `--${boundary}\r\nContent-Type: text/plain\r\n\r\nThis is an email abuse report.\r\n`,
    `--${boundary}\r\nContent-Type: message/feedback-report\r\n\r\n${options.fields.join('\r\n')}\r\n`,
  ];
  if (options.original)
    parts.push(`--${boundary}\r\nContent-Type: message/rfc822\r\n\r\n${options.original.join('\r\n')}\r\n\r\nbody\r\n`);
  return Buffer.from(
    [
      'From: feedback@fbl.example.net',
      `To: ${options.to}`,
      'Subject: abuse report',
      'MIME-Version: 1.0',
      `Content-Type: multipart/report; report-type=feedback-report; boundary="${boundary}"`,
      '',
      ...parts,
      `--${boundary}--`,
      '',
    ].join('\r\n'),
  );
}

/** A plain mail (the List-Unsubscribe mailto a mail client sends). */
export function plainMail(options: { to: string; subject: string; body?: string }): Buffer {
  return Buffer.from(
    [
      `From: someone@example.org`,
      `To: ${options.to}`,
      `Subject: ${options.subject}`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain',
      '',
      options.body ?? 'unsubscribe',
      '',
    ].join('\r\n'),
  );
}

/** Multiparts nested `depth` deep, never closed: a hostile body. */
export function nestedMultipart(depth: number): Buffer {
  let out = 'Content-Type: multipart/report; report-type=delivery-status; boundary="b0"\r\n\r\n';
  for (let level = 1; level < depth; level++)
    out += `--b${level - 1}\r\nContent-Type: multipart/mixed; boundary="b${level}"\r\n\r\n`;
  return Buffer.from(out);
}
