'use client';

import Link from 'next/link';
import { CopyButton } from '@/components/ui/copy-button';
import { useEffect, useState, type ReactNode } from 'react';

export type SetupStep = { title: string; body: ReactNode; href: string; isDone: boolean };

/** The first-run checklist of the Overview, shown until the account has verified a domain and sent. */
export function SetupSteps({
  steps,
  accountId,
  children,
}: {
  steps: SetupStep[];
  accountId: string;
  children?: ReactNode;
}) {
  return (
    <section aria-labelledby="setup-heading" className="space-y-4">
      <h2 id="setup-heading" className="text-base font-semibold">
        Get ready to send
      </h2>
      <ol className="grid grid-cols-1 gap-4 md:grid-cols-3">
        {steps.map((step, index) => (
          <li
            key={step.title}
            className="min-w-0 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5"
            data-setup-step={step.isDone ? 'done' : 'todo'}
          >
            <p className="text-xs font-semibold text-slate-600">
              {step.isDone ? (
                <span className="text-green-700">
                  <span aria-hidden>✔</span> Done
                </span>
              ) : (
                `Step ${index + 1}`
              )}
            </p>
            <Link
              href={step.href}
              className={`mt-1 block font-semibold hover:underline ${step.isDone ? 'text-slate-700' : 'text-brand-700'}`}
            >
              {step.title}
              {step.isDone ? <span className="sr-only"> (done)</span> : null}
            </Link>
            <div className="mt-2 text-sm text-slate-600">{step.body}</div>
          </li>
        ))}
      </ol>
      {children}
      <p className="text-sm text-slate-600">
        Also worth a look:{' '}
        <Link href={`/${accountId}/settings`} className="font-medium text-brand-700 hover:underline">
          account settings
        </Link>{' '}
        (tracking defaults, how long message data is kept).
      </p>
    </section>
  );
}

/**
 * A first request to copy, with this server's address and account in it; with the server's own
 * self-signed certificate, curl is told to trust that file (else it refuses the connection).
 */
export function FirstSendExample({
  accountId,
  certificateFile,
}: {
  accountId: string;
  certificateFile: string | null;
}) {
  const [origin, setOrigin] = useState('https://your-mailstead');
  useEffect(() => setOrigin(window.location.origin), []);
  const trust = certificateFile ? ` --cacert ${shellQuote(certificateFile)}` : '';
  const command = `curl${trust} -X POST ${origin}/v2/accounts/${accountId}/messages \\
  -H "Authorization: Bearer $MAILSTEAD_API_KEY" -H "Content-Type: application/json" \\
  -d '{"from":{"email":"you@your-domain"},"recipients":[{"email":"someone@example.org"}],"subject":"Hello","text_content":"It works."}'`;
  return (
    <div className="min-w-0 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
      <div className="flex items-start justify-between gap-3">
        <h3 className="text-sm font-semibold">A first message, from the command line</h3>
        <CopyButton value={command} what="first-message command" />
      </div>
      <p className="mt-1 text-sm text-slate-600">
        Put your key in <code>MAILSTEAD_API_KEY</code> and a verified domain in the sender; turn on sandbox mode for the
        key to try without delivering.
        {certificateFile ? (
          <>
            {' '}
            This server uses its own self-signed certificate, so the command names it (
            <code className="wrap-anywhere">{certificateFile}</code>, on the server); copy that file to run the command
            from another machine.
          </>
        ) : null}
      </p>
      <pre
        className="mt-3 overflow-x-auto rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100"
        data-first-send-command
      >
        {command}
      </pre>
    </div>
  );
}

/** One shell word, whatever the path holds. */
function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
