import { invalidInput } from '@/lib/shared/errors';

/** Headers Mailstead writes itself; a custom value would break the message or its authentication. */
const RESERVED = new Set([
  'from',
  'to',
  'cc',
  'bcc',
  'subject',
  'date',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'dkim-signature',
  'return-path',
  'received',
  'sender',
]);

/** `AhaSend-*` control headers (SMTP, v1, and tolerated on v2): read, then removed before delivery. */
export type ControlHeaders = {
  trackOpens?: boolean;
  trackClicks?: boolean;
  isSandbox?: boolean;
  sandboxResult?: string;
  metadataRetention?: number;
  dataRetention?: number;
  tags?: string[];
};

const FIELD_NAME = /^[!-9;-~]+$/;
const truthy = (value: string) => ['true', '1', 'yes'].includes(value.trim().toLowerCase());

/**
 * Splits custom headers into the ones to send (name case preserved) and control headers. Message-ID
 * is ignored (always generated); a header value may not contain line breaks (header injection).
 */
export function splitHeaders(
  headers: Record<string, string> | null | undefined,
  field = 'headers',
): { custom: [string, string][]; control: ControlHeaders } {
  const custom: [string, string][] = [];
  const control: ControlHeaders = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (!FIELD_NAME.test(name)) throw invalidInput(`${field}: "${name}" is not a valid header name`, field);
    if (/[\r\n]/.test(value))
      throw invalidInput(`${field}: the value of "${name}" must not contain line breaks`, field);
    if (lower === 'message-id') continue;
    if (lower === 'ahasend-track-opens') control.trackOpens = truthy(value);
    else if (lower === 'ahasend-track-clicks') control.trackClicks = truthy(value);
    else if (lower === 'ahasend-sandbox') control.isSandbox = truthy(value);
    else if (lower === 'ahasend-sandbox-result') control.sandboxResult = value.trim().toLowerCase();
    else if (lower === 'ahasend-metadata-retention') control.metadataRetention = Number(value);
    else if (lower === 'ahasend-data-retention') control.dataRetention = Number(value);
    else if (lower === 'ahasend-tags')
      control.tags = value
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean)
        .slice(0, 10);
    else if (RESERVED.has(lower))
      throw invalidInput(`${field}: "${name}" is set by Mailstead and cannot be given`, field);
    else custom.push([name, value]);
  }
  if (
    control.metadataRetention !== undefined &&
    !(Number.isInteger(control.metadataRetention) && control.metadataRetention >= 1 && control.metadataRetention <= 30)
  ) {
    throw invalidInput(`${field}: ahasend-metadata-retention must be 1-30 days`, field);
  }
  if (
    control.dataRetention !== undefined &&
    !(Number.isInteger(control.dataRetention) && control.dataRetention >= 0 && control.dataRetention <= 30)
  ) {
    throw invalidInput(`${field}: ahasend-data-retention must be 0-30 days`, field);
  }
  if (
    control.sandboxResult !== undefined &&
    !['deliver', 'bounce', 'defer', 'fail', 'suppress'].includes(control.sandboxResult)
  ) {
    throw invalidInput(`${field}: ahasend-sandbox-result must be deliver, bounce, defer, fail or suppress`, field);
  }
  return { custom, control };
}
