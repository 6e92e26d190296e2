import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import nodemailer, { type Transporter } from 'nodemailer';
import { freePort } from './server';
import { startMxSuite, type MxSuite } from './mx-suite';
import { verifiedDomain } from './sending';

type Credential = { username: string; password: string };

export type SubmissionSuite = MxSuite & {
  submissionPort: number;
  submissionTlsPort: number;
  /** The server's self-signed certificate, which clients trust. */
  ca: string;
  sender: string;
  otherSender: string;
  /** A credential scoped to `sender` alone. */
  scoped: Credential;
  /** nodemailer as an application would use it: STARTTLS required, our certificate trusted. */
  transport: (auth?: Credential, extra?: Record<string, unknown>) => Transporter;
  /** The account's messages with this Message-ID header. */
  messageByHeader: (
    messageIdHeader: string,
  ) => Promise<{ id: string; recipient: string; tags: string[]; status: string }[]>;
};

/**
 * A server with the smtp role on both submission ports, delivering to a loopback MX (an MX suite),
 * with two verified sending domains and a credential scoped to the first. For the submission specs.
 */
export async function startSubmissionSuite(options: {
  name: string;
  sender: string;
  otherSender: string;
  recipientDomain: string;
}): Promise<SubmissionSuite> {
  const submissionPort = await freePort();
  const submissionTlsPort = await freePort();
  const env = {
    ROLES: 'web,worker,smtp',
    SMTP_SUBMISSION_PORT: String(submissionPort),
    SMTP_SUBMISSION_TLS_PORT: String(submissionTlsPort),
    // Small enough to reach in a test, large enough for the other tests' few messages per credential.
    SMTP_RATE_LIMIT_PER_SECOND: '1',
    SMTP_RATE_LIMIT_BURST: '20',
  };
  const suite = await startMxSuite({
    name: options.name,
    sender: options.sender,
    recipientDomain: options.recipientDomain,
    env,
  });
  const ca = readFileSync(path.join(suite.server.dataDir, 'tls', 'cert.pem'), 'utf8');
  await verifiedDomain(suite.api, options.otherSender);
  const created = await suite.api.post(suite.api.account('/smtp-credentials'), {
    name: 'Scoped',
    scope: 'scoped',
    domains: [options.sender],
  });
  expect(created.status).toBe(201);
  const scoped = { username: created.body.username, password: created.body.password };
  const transport = (auth: Credential = scoped, extra: Record<string, unknown> = {}) =>
    nodemailer.createTransport({
      host: '127.0.0.1',
      port: submissionPort,
      secure: false,
      requireTLS: true,
      tls: { ca, servername: 'localhost' },
      auth: { user: auth.username, pass: auth.password },
      ...extra,
    });
  const { api } = suite;
  async function messageByHeader(messageIdHeader: string) {
    const listed = await api.get(api.account(`/messages?message_id_header=${encodeURIComponent(messageIdHeader)}`));
    expect(listed.status).toBe(200);
    return listed.body.data as { id: string; recipient: string; tags: string[]; status: string }[];
  }
  return {
    ...suite,
    submissionPort,
    submissionTlsPort,
    ca,
    sender: options.sender,
    otherSender: options.otherSender,
    scoped,
    transport,
    messageByHeader,
  };
}

/** The error a refused send or sign-in rejects with; fails the test when it was accepted. */
export async function refusal(
  send: Promise<unknown>,
): Promise<{ responseCode?: number; response?: string; command?: string }> {
  const error = await send.then(
    () => null,
    (caught: unknown) => caught as { responseCode?: number; response?: string; command?: string },
  );
  expect(error, 'the send was accepted').not.toBeNull();
  return error!;
}
