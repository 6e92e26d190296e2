'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { DeleteSignupFormDialog, EditSignupFormDialog } from '@/components/dialogs/signup-form-dialogs';
import { useAccountScopes } from '@/components/layout/use-account-scopes';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Alert, LoadingState, PageHeader } from '@/components/ui/feedback';
import { StatCard } from '@/components/ui/stat-card';
import { ApiError } from '@/lib/client/api';
import { formatCount } from '@/lib/client/format';
import { useLists } from '@/lib/client/list-queries';
import { useSignupForm } from '@/lib/client/signup-form-queries';

/** A signup form: its link, its snippet with a preview, its signups, and the sender of its confirmation emails. */
export function SignupFormDetailView({ accountId, formId }: { accountId: string; formId: string }) {
  const router = useRouter();
  const { can } = useAccountScopes(accountId);
  const form = useSignupForm(accountId, formId);
  const lists = useLists(accountId);
  const [dialog, setDialog] = useState<'edit' | 'delete' | null>(null);

  if (form.isPending) return <LoadingState label="Loading signup form…" />;
  if (form.error) {
    const code = form.error instanceof ApiError ? form.error.status : 0;
    return (
      <Alert
        tone={code === 403 || code === 404 ? 'warning' : 'error'}
        title={code === 404 ? 'No such signup form' : 'This signup form could not be shown'}
      >
        {form.error.message}{' '}
        <Link href={`/${accountId}/signup-forms`} className="font-medium underline">
          All signup forms
        </Link>
      </Alert>
    );
  }
  const data = form.data;
  const listNames = new Map((lists.data?.data ?? []).map((list) => [list.id, list.name]));
  const isMissingSender = data.double_opt_in && !data.confirmation_from;

  return (
    <>
      <PageHeader
        title={data.name}
        description={
          <Link href={`/${accountId}/signup-forms`} className="text-brand-700 hover:underline">
            All signup forms
          </Link>
        }
        actions={
          can('lists:write') ? (
            <div className="flex gap-2">
              <Button variant="secondary" onClick={() => setDialog('edit')}>
                Edit
              </Button>
              {can('lists:delete') ? (
                <Button variant="danger" onClick={() => setDialog('delete')}>
                  Delete
                </Button>
              ) : null}
            </div>
          ) : null
        }
      />
      <div className="space-y-6">
        {isMissingSender ? (
          <Alert tone="warning" title="Confirmation emails cannot be sent">
            This form uses double opt-in, but the account has no verified, unpaused marketing domain to send the
            confirmation email from. People can still sign up (they wait as unconfirmed) but receive nothing until you{' '}
            <Link href={`/${accountId}/domains`} className="font-medium underline">
              verify a domain and set it to marketing
            </Link>
            .
          </Alert>
        ) : null}
        <div className="grid gap-3 sm:grid-cols-3">
          <StatCard name="signups" label="Signups" value={formatCount(data.signup_count)} />
          <StatCard
            name="opt-in"
            label="Opt-in"
            value={data.double_opt_in ? 'Double' : 'Single'}
            detail={
              data.double_opt_in
                ? data.confirmation_from
                  ? `Confirmation from ${data.confirmation_from}`
                  : 'No sender for the confirmation email'
                : 'Subscribed at once, without confirmation'
            }
          />
          <StatCard
            name="lists"
            label="Lists"
            value={formatCount(data.list_ids.length)}
            detail={
              <span className="wrap-anywhere">
                {data.list_ids.map((id) => listNames.get(id) ?? 'deleted list').join(', ')}
              </span>
            }
          />
        </div>
        <section className="space-y-2" aria-labelledby="hosted-link">
          <h2 id="hosted-link" className="text-base font-semibold text-slate-900">
            Hosted page
          </h2>
          <p className="text-sm text-slate-600">Share this link anywhere: it opens the form on its own page.</p>
          <div className="flex items-center gap-2">
            <code
              className="min-w-0 flex-1 rounded-md bg-slate-100 px-3 py-2 text-sm wrap-anywhere"
              data-testid="public-url"
            >
              {data.public_url}
            </code>
            <CopyButton value={data.public_url} what="link to the hosted page" />
            <a
              href={data.public_url}
              target="_blank"
              rel="noreferrer"
              className="shrink-0 text-sm font-medium text-brand-700 hover:underline"
            >
              Open
            </a>
          </div>
        </section>
        <section className="grid gap-4 lg:grid-cols-2" aria-labelledby="embed-snippet">
          <div className="min-w-0 space-y-2">
            <div className="flex items-center justify-between gap-2">
              <h2 id="embed-snippet" className="text-base font-semibold text-slate-900">
                Embed on your website
              </h2>
              <CopyButton value={data.embed_html} what="embed snippet" />
            </div>
            <p className="text-sm text-slate-600">Paste this HTML where the form should appear. It needs no script.</p>
            <pre
              className="max-h-80 overflow-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100"
              data-testid="embed-html"
            >
              {data.embed_html}
            </pre>
          </div>
          <div className="min-w-0 space-y-2">
            <h2 className="text-base font-semibold text-slate-900">Preview</h2>
            <p className="text-sm text-slate-600">
              The snippet as a page shows it, before your site&apos;s styles apply.
            </p>
            {/* No scripts and no form submission in the frame: a preview cannot sign anyone up. */}
            <iframe
              title="Preview of the signup form"
              sandbox=""
              srcDoc={`<!doctype html><meta name="viewport" content="width=device-width"><body style="font-family:system-ui,sans-serif;margin:16px">${data.embed_html}</body>`}
              className="h-80 w-full rounded-md bg-white ring-1 ring-slate-200"
            />
          </div>
        </section>
      </div>
      <EditSignupFormDialog
        accountId={accountId}
        form={dialog === 'edit' ? data : null}
        onClose={() => setDialog(null)}
      />
      <DeleteSignupFormDialog
        accountId={accountId}
        form={dialog === 'delete' ? data : null}
        onClose={() => setDialog(null)}
        onDeleted={() => router.push(`/${accountId}/signup-forms`)}
      />
    </>
  );
}
