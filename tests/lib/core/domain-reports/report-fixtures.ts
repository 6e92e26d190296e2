import { gzipSync } from 'node:zlib';
import { Zip, ZipDeflate, zipSync } from 'fflate';

/** Sample DMARC aggregate (RFC 7489 appendix C) and TLS (RFC 8460 section 4) reports, made for tests. */
export type SampleRecord = {
  ip: string;
  count: number;
  disposition?: 'none' | 'quarantine' | 'reject';
  dkimAligned: boolean;
  spfAligned: boolean;
};

export function dmarcXml(options: {
  domain: string;
  org?: string;
  reportId: string;
  begin?: Date;
  records: SampleRecord[];
}): string {
  const begin = Math.floor((options.begin ?? new Date(Date.now() - 86_400_000)).getTime() / 1000);
  const records = options.records
    .map(
      (record) => `  <record>
    <row>
      <source_ip>${record.ip}</source_ip>
      <count>${record.count}</count>
      <policy_evaluated>
        <disposition>${record.disposition ?? 'none'}</disposition>
        <dkim>${record.dkimAligned ? 'pass' : 'fail'}</dkim>
        <spf>${record.spfAligned ? 'pass' : 'fail'}</spf>
      </policy_evaluated>
    </row>
    <identifiers><header_from>${options.domain}</header_from></identifiers>
    <auth_results>
      <dkim><domain>${record.dkimAligned ? options.domain : 'other.example'}</domain><result>${record.dkimAligned ? 'pass' : 'fail'}</result><selector>s1</selector></dkim>
      <spf><domain>${record.spfAligned ? options.domain : 'forwarder.example'}</domain><result>${record.spfAligned ? 'pass' : 'softfail'}</result></spf>
    </auth_results>
  </record>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8" ?>
<feedback>
  <version>1.0</version>
  <report_metadata>
    <org_name>${options.org ?? 'google.com'}</org_name>
    <email>noreply-dmarc-support@google.com</email>
    <report_id>${options.reportId}</report_id>
    <date_range><begin>${begin}</begin><end>${begin + 86_399}</end></date_range>
  </report_metadata>
  <policy_published>
    <domain>${options.domain}</domain><adkim>r</adkim><aspf>r</aspf><p>quarantine</p><sp>quarantine</sp><pct>100</pct>
  </policy_published>
${records}
</feedback>
`;
}

export function tlsJson(options: {
  domain: string;
  reportId: string;
  successes: number;
  failures: number;
  policyType?: string;
}): string {
  return JSON.stringify({
    'organization-name': 'Company-X',
    'date-range': {
      'start-datetime': new Date(Date.now() - 86_400_000).toISOString(),
      'end-datetime': new Date(Date.now() - 1000).toISOString(),
    },
    'contact-info': 'sts-reporting@company-x.example',
    'report-id': options.reportId,
    policies: [
      {
        policy: {
          'policy-type': options.policyType ?? 'sts',
          'policy-string': ['version: STSv1', 'mode: testing', 'mx: *.mail.company-y.example', 'max_age: 86400'],
          'policy-domain': options.domain,
          'mx-host': ['*.mail.company-y.example'],
        },
        summary: {
          'total-successful-session-count': options.successes,
          'total-failure-session-count': options.failures,
        },
        'failure-details': options.failures
          ? [
              {
                'result-type': 'certificate-expired',
                'sending-mta-ip': '2001:db8:abcd:0012::1',
                'receiving-mx-hostname': 'mx1.mail.company-y.example',
                'failed-session-count': options.failures,
              },
            ]
          : [],
      },
    ],
  });
}

/** Billion laughs: ten levels of ten references each. */
export const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 ${Array.from({ length: 9 }, (_, index) => `<!ENTITY lol${index + 1} "${`&lol${index || ''};`.repeat(10)}">`).join('\n ')}
]>
<feedback><report_metadata><org_name>&lol9;</org_name></report_metadata></feedback>`;

export function externalEntity(url: string): string {
  return `<?xml version="1.0"?>
<!DOCTYPE feedback [ <!ENTITY xxe SYSTEM "${url}"> ]>
<feedback><report_metadata><org_name>&xxe;</org_name><report_id>1</report_id></report_metadata></feedback>`;
}

export const gzip = (text: string | Buffer) => gzipSync(typeof text === 'string' ? Buffer.from(text) : text);
export const zip = (name: string, content: string | Buffer) =>
  Buffer.from(zipSync({ [name]: typeof content === 'string' ? Buffer.from(content) : content }, { level: 9 }));

/**
 * A zip of `megabytes` MB of zeros made without holding them (streamed through fflate), its header
 * declaring no size (a data descriptor follows the data): the bomb a hostile reporter sends.
 */
export function lyingZipBomb(megabytes: number): Buffer {
  const parts: Uint8Array[] = [];
  const archive = new Zip((error, chunk) => {
    if (error) throw error;
    parts.push(chunk);
  });
  const member = new ZipDeflate('report.xml', { level: 1 });
  archive.add(member);
  const zeros = new Uint8Array(1024 * 1024);
  for (let index = 0; index < megabytes; index++) member.push(zeros, index === megabytes - 1);
  archive.end();
  return Buffer.concat(parts);
}

/** A report mail as reporters send it: one attachment, base64. */
export function reportMail(options: { to: string; filename: string; contentType: string; content: Buffer }): Buffer {
  const body = options.content.toString('base64').replace(/.{76}/g, '$&\r\n');
  return Buffer.from(
    [
      'From: noreply-dmarc-support@google.com',
      `To: ${options.to}`,
      `Subject: Report domain: ${options.to} Submitter: google.com`,
      `Message-ID: <${Math.random().toString(36).slice(2)}@reporter.example>`,
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'This is an aggregate report.',
      '--b1',
      `Content-Type: ${options.contentType}; name="${options.filename}"`,
      'Content-Transfer-Encoding: base64',
      `Content-Disposition: attachment; filename="${options.filename}"`,
      '',
      body,
      '--b1--',
      '',
    ].join('\r\n'),
  );
}
