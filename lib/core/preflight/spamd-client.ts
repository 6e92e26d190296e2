import { connect } from 'node:net';

export type SpamRule = { name: string; score: number; description: string };
export type SpamReport = { score: number; threshold: number; isSpam: boolean; rules: SpamRule[] };

/** spamd's answer is a short report; anything longer is not read. */
const MAX_ANSWER_BYTES = 256 * 1024;

/** `spamd://host:port` or `tcp://host:port` (port 783 when omitted), as SPAMD_URL gives it. */
export function parseSpamdUrl(value: string): { host: string; port: number } | null {
  if (!URL.canParse(value)) return null;
  const url = new URL(value);
  if (url.protocol !== 'spamd:' && url.protocol !== 'tcp:') return null;
  if (!url.hostname || url.pathname.replace(/^\/$/, '') || url.search || url.username) return null;
  const port = url.port ? Number(url.port) : 783;
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port };
}

/**
 * Asks spamd to score one message with the SPAMC protocol's REPORT command (spamd's
 * PROTOCOL file): one request per connection, `Content-length` framing, and an answer of
 * `SPAMD/1.1 0 EX_OK`, a `Spam: True ; 6.2 / 5.0` header, and the report that lists each rule hit.
 */
export async function checkWithSpamd(
  target: { host: string; port: number },
  message: Buffer,
  timeoutMs: number,
): Promise<SpamReport> {
  const answer = await exchange(target, message, timeoutMs);
  return parseSpamdAnswer(answer);
}

function exchange(target: { host: string; port: number }, message: Buffer, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: target.host, port: target.port });
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.setTimeout(timeoutMs, () => fail(new Error(`spamd did not answer within ${timeoutMs / 1000} s`)));
    socket.once('connect', () => {
      socket.write(`REPORT SPAMC/1.5\r\nContent-length: ${message.length}\r\n\r\n`);
      socket.end(message);
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) fail(new Error('spamd answered more than expected'));
    });
    socket.once('error', (error: NodeJS.ErrnoException) =>
      fail(new Error(`spamd at ${target.host}:${target.port}: ${error.code ?? error.message}`)),
    );
    socket.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** The status line, the `Spam:` header and the rule table of a REPORT answer. */
export function parseSpamdAnswer(answer: string): SpamReport {
  const split = answer.indexOf('\r\n\r\n');
  const head = split === -1 ? answer : answer.slice(0, split);
  const body = split === -1 ? '' : answer.slice(split + 4);
  const [statusLine, ...headers] = head.split('\r\n');
  const status = /^SPAMD\/\d+\.\d+ (\d+) (.*)$/.exec(statusLine ?? '');
  if (!status) throw new Error('spamd gave no SPAMD status line');
  if (status[1] !== '0') throw new Error(`spamd refused the message: ${status[2]}`);
  const spam = headers
    .map((line) => /^Spam:\s*(True|False|Yes|No)\s*;\s*(-?[\d.]+)\s*\/\s*(-?[\d.]+)/i.exec(line))
    .find(Boolean);
  if (!spam) throw new Error('spamd gave no Spam header');
  return {
    isSpam: /^(true|yes)$/i.test(spam[1]),
    score: Number(spam[2]),
    threshold: Number(spam[3]),
    rules: parseRuleTable(body),
  };
}

// " pts rule name   description" then "---- ------ ----", then one rule a line; long descriptions wrap onto indented lines.
function parseRuleTable(report: string): SpamRule[] {
  const lines = report.split(/\r?\n/);
  const start = lines.findIndex((line) => /^-{3,}\s+-{3,}/.test(line));
  if (start === -1) return [];
  const rules: SpamRule[] = [];
  for (const line of lines.slice(start + 1)) {
    const rule = /^\s*(-?\d+(?:\.\d+)?)\s+([A-Z0-9_]+)\s+(.*)$/.exec(line);
    if (rule) rules.push({ score: Number(rule[1]), name: rule[2], description: rule[3].trim() });
    else if (/^\s+\S/.test(line) && rules.length) rules[rules.length - 1].description += ` ${line.trim()}`;
    else if (line.trim() === '') break;
  }
  return rules;
}
