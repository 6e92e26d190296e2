import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { fetch } from 'undici';
import type { ApiClient, ApiResponse } from '../support/client';
import { expectError, importHelpers } from '../support/contact-import-fixtures';
import { rawRequest } from '../support/raw-http';
import { newAccount } from '../support/shared';

/**
 * The limits of a contact import's upload (POST /contacts/import) on the shared server: over 100 MB
 * is 413 whether the length is declared or found while the body streams in (and a declared length
 * alone is answered at once, as is a JSON endpoint's 1 MB), a wrong or missing Content-Type is 415,
 * an unknown format or an empty body is 400. The import job itself is in contact-imports.spec.ts.
 */
let api: ApiClient;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  ({ api } = await newAccount('Contact imports'));
});

test.describe.configure({ mode: 'serial' });

const { importPath, upload } = importHelpers(() => api);

test('POST /contacts/import - over 100 MB is 413 naming the limit; a wrong Content-Type is 415; an empty body is 400', async () => {
  test.setTimeout(240_000);
  const oversize = Buffer.alloc(100 * 1024 * 1024 + 1, 'a');
  // The declared length is refused before a byte is read and the connection closed (the next test
  // shows the answer arrives): a client still writing may see the close before it reads the 413.
  const declared = await upload(api.with(api.apiKey), oversize).catch((error: Error) => ({
    status: 0,
    text: `${error.message} ${(error.cause as Error | undefined)?.message ?? ''}`,
  }));
  if (declared.status !== 0)
    expectError(declared as ApiResponse, 413, /^the upload is larger than the limit of 100 MB$/);
  else expect(declared.text).toMatch(/EPIPE|ECONNRESET|socket|closed|terminated/i);
  // Without a declared length (chunked), the limit is found while the body streams in.
  async function* chunked() {
    const piece = Buffer.alloc(1024 * 1024, 'b');
    for (let sent = 0; sent <= 100; sent++) yield piece;
  }
  // On a connection of its own: the server may close it.
  const own = api.with(api.apiKey);
  const streamed = await fetch(api.baseUrl + importPath(), {
    method: 'POST',
    body: chunked(),
    duplex: 'half',
    headers: { authorization: `Bearer ${api.apiKey}`, 'content-type': 'text/csv' },
    dispatcher: own.agent,
  } as any).then(
    async (response) => ({ status: response.status, text: await response.text() }),
    (error: Error) => ({ status: 0, text: error.message }),
  );
  // The server answers 413 and stops reading; a client may see the connection close first.
  if (streamed.status !== 0)
    expect(streamed).toEqual({
      status: 413,
      text: JSON.stringify({ message: 'the upload is larger than the limit of 100 MB' }),
    });
  console.log(
    `chunked upload over the limit: ${streamed.status === 0 ? `connection closed (${streamed.text})` : streamed.status}`,
  );

  expectError(
    await upload(api, 'email\n', 'text/plain'),
    415,
    /Content-Type must be one of text\/csv, application\/csv, application\/x-ndjson/,
  );
  expectError(await upload(api, '{"email":"a@b.example"}', 'application/json'), 415);
  // A Buffer, so that the client adds no Content-Type of its own.
  expectError(await upload(api, Buffer.from('email\n'), null), 415, /got none/);
  expectError(await upload(api, 'email\n', 'text/csv; charset=iso-8859-1'), 415, /must be UTF-8/);
  expectError(await upload(api, 'email\n', 'text/csv', '?format=xml'), 400, /^format: must be csv or jsonl$/);
  expectError(await upload(api, '', 'text/csv'), 400, /the upload is empty/);
});

test('POST /contacts/import - a Content-Length over 100 MB is 413 at once: the answer comes back though the body is never sent', async () => {
  const ca = readFileSync(path.join(api.dataDir, 'tls', 'cert.pem'), 'utf8');
  const port = Number(new URL(api.baseUrl).port);
  // 10 GB declared, six bytes sent: a server that read (or drained) the body first would never answer.
  const response = await rawRequest({
    port,
    ca,
    method: 'POST',
    target: importPath(),
    headers: {
      authorization: `Bearer ${api.apiKey}`,
      'content-type': 'text/csv',
      'content-length': String(10 * 1024 ** 3),
    },
    body: 'email\n',
  });
  expect(response.status, response.head).toBe(413);
  expect(JSON.parse(response.body)).toEqual({ message: 'the upload is larger than the limit of 100 MB' });
  expect(response.head).toMatch(/\r\nconnection: close/i);
  expect((await upload(api, `email\nafter-oversize.${stamp}@imports.example\n`)).status).toBe(202);
  // A JSON endpoint's own limit (1 MB) is also applied to the declared length alone.
  const json = await rawRequest({
    port,
    ca,
    method: 'POST',
    target: api.account('/contacts'),
    headers: {
      authorization: `Bearer ${api.apiKey}`,
      'content-type': 'application/json',
      'content-length': String(1024 ** 3),
    },
    body: '{"email"',
  });
  expect(json.status, json.head).toBe(400);
  expect(JSON.parse(json.body)).toEqual({ message: 'request body is larger than the limit of 1 MB' });
});
