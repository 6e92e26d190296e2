/**
 * The inbound mail "trigger" routes: a reply with quoted history, a CC, an attachment and an inline
 * image, so that every flag of a route shows in the sample. The addresses are at `domain`.
 */
export function sampleInboundMessage(to: string, domain: string, at: Date): string {
  const boundary = 'mailstead-sample-mixed';
  const related = 'mailstead-sample-related';
  return [
    `From: "Sample Customer" <customer@example.com>`,
    `To: ${to}`,
    `Cc: colleague@example.com`,
    `Subject: Test message.routing event from Mailstead`,
    `Date: ${at.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <sample-${at.getTime()}@example.com>`,
    `In-Reply-To: <original@${domain}>`,
    `References: <original@${domain}>`,
    `X-Mailer: Mailstead sample`,
    `MIME-Version: 1.0`,
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    `Content-Type: multipart/related; boundary="${related}"`,
    '',
    `--${related}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Thanks, that fixed it!',
    '',
    `On Mon, 6 May 2024 at 13:15, Support <support@${domain}> wrote:`,
    '> Have you tried turning it off and on again?',
    '',
    `--${related}`,
    'Content-Type: image/png',
    'Content-Transfer-Encoding: base64',
    'Content-ID: <logo@example.com>',
    'Content-Disposition: inline; filename="logo.png"',
    '',
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    `--${related}--`,
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8; name="notes.txt"',
    'Content-Disposition: attachment; filename="notes.txt"',
    '',
    'An attachment.',
    `--${boundary}--`,
    '',
  ].join('\r\n');
}
